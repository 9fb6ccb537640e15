import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BatchRunner } from '../../src/services/batch-runner.js';
import { SandboxClock } from '../../src/services/business-clock.js';
import type { Store } from '../../src/store/store.js';

const runner = new BatchRunner({} as Store, SandboxClock.fixed(), {} as never);

describe('batch schedule', () => {
  it('runs at 06:00, 09:00, 12:00, 15:00 and 18:00 Norwegian time: in winter one hour after UTC', () => {
    let slot = new Date('2026-11-23T00:00:00Z');
    const slots: string[] = [];
    for (let i = 0; i < 6; i++) {
      slot = runner.nextSlot(slot);
      slots.push(slot.toISOString());
    }
    assert.deepEqual(slots, ['2026-11-23T05:00:00.000Z', '2026-11-23T08:00:00.000Z', '2026-11-23T11:00:00.000Z', '2026-11-23T14:00:00.000Z', '2026-11-23T17:00:00.000Z', '2026-11-24T05:00:00.000Z']);
  });

  it('follows summer time across the switch (06:00 is 04:00 UTC after 28 March 2027)', () => {
    assert.equal(runner.nextSlot(new Date('2027-03-27T18:00:00Z')).toISOString(), '2027-03-28T04:00:00.000Z');
  });

  it('takes other times of day', () => {
    const other = new BatchRunner({} as Store, SandboxClock.fixed(), {} as never, ['07:30', '13:45']);
    assert.equal(other.nextSlot(new Date('2026-11-23T07:00:00Z')).toISOString(), '2026-11-23T12:45:00.000Z');
  });
});

describe('the sandbox clock', () => {
  it('moves forward and not back', async () => {
    const writes: bigint[] = [];
    const store = { writeClockOffset: async (offset: bigint) => { writes.push(offset); } } as unknown as Store;
    const clock = SandboxClock.fixed();
    const target = new Date(Date.now() + 86_400_000);
    await clock.advanceTo(target, store);
    assert.ok(Math.abs(clock.now().getTime() - target.getTime()) < 1000);
    assert.equal(writes.length, 1);
    await assert.rejects(clock.advanceTo(new Date(Date.now()), store), /only moves forward/);
  });
});
