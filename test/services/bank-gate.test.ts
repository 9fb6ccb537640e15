import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BankGate } from '../../src/services/bank-gate.js';

/** Turns of the event loop enough for every settled promise to have run on. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("a bank's gate (services/bank-gate.ts)", () => {
  it('runs a bulk operation once the readers in flight are done, holds new readers until it ends, and never holds another bank', async () => {
    const gate = new BankGate();
    const events: string[] = [];
    const first = await gate.read('A');
    const alone = gate.alone('A', async () => {
      events.push('bulk runs');
      await settle();
      events.push('bulk ends');
    });
    await settle();
    assert.equal(events.length, 0, 'the bulk operation waits for the reader in flight');
    assert.equal(gate.busy('A'), true);
    const waiting = gate.read('A');
    assert.ok(waiting instanceof Promise, 'a reader behind a bulk operation waits');
    const later = waiting.then((release) => {
      events.push('later reader in');
      release();
    });
    const other = await gate.read('B');
    events.push('other bank in');
    other();
    first();
    await Promise.all([alone, later]);
    assert.deepEqual(events, ['other bank in', 'bulk runs', 'bulk ends', 'later reader in']);
    assert.equal(gate.busy('A'), false);
  });

  it('lets a reader in at once, with no promise to wait for, when no bulk operation holds or waits for the bank', () => {
    const gate = new BankGate();
    const release = gate.read('A');
    assert.equal(typeof release, 'function');
    assert.equal(gate.busy('A'), false);
    (release as () => void)();
  });

  it('lets a release be called twice without letting a bulk operation in early', async () => {
    const gate = new BankGate();
    const one = await gate.read('A');
    const two = await gate.read('A');
    let ran = false;
    const alone = gate.alone('A', async () => {
      ran = true;
    });
    one();
    one();
    await settle();
    assert.equal(ran, false, 'the second reader is still in');
    two();
    await alone;
    assert.equal(ran, true);
  });
});
