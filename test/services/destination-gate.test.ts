import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { DestinationGate, destinationOf } from '../../src/services/notifications/destination-gate.js';

/**
 * Per-destination lanes of the notification relay (docs/notifications.md, "Delivery"): a slow TPP
 * fills its own lane, and a destination gets no more tries a second than its rate. The gate's clock
 * and its waits are the test's: nothing here waits for real time.
 */
const SLOW = 'https://slow.tpp.example/hooks/1';
const QUICK = 'https://quick.tpp.example/n';

let now = 0;
/** The gate's waits, each until the test's clock reaches its end. */
let waits: { until: number; resolve: () => void }[] = [];
beforeEach(() => {
  now = 1_000_000;
  waits = [];
});
const wait = (ms: number) => new Promise<void>((resolve) => waits.push({ until: now + ms, resolve }));
/** Moves the test's clock on by `ms`, ending the waits it passes. */
function advance(ms: number): void {
  now += ms;
  for (const w of waits.filter((w) => w.until <= now)) {
    waits.splice(waits.indexOf(w), 1);
    w.resolve();
  }
}

/** Lets every promise that can settle do so. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A try that ends when the test says. */
function held(): { work: () => Promise<void>; started: boolean; finish: () => void } {
  let finish = () => undefined as void;
  const entry = {
    started: false,
    finish: () => finish(),
    work: () =>
      new Promise<void>((resolve) => {
        entry.started = true;
        finish = resolve;
      }),
  };
  return entry;
}

describe('the destination gate', () => {
  it('fills a slow destination’s lane while another destination’s tries go on', async () => {
    const gate = new DestinationGate(() => now, 2, 100, 10, wait);
    const slow = [held(), held(), held()];
    const running = slow.map((s) => gate.run(SLOW, s.work));
    await settle();
    assert.deepEqual(
      slow.map((s) => s.started),
      [true, true, false],
    );
    assert.equal(gate.inFlightTo(SLOW), 2);
    let quickDone = 0;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        gate.run(QUICK, async () => {
          quickDone += 1;
        }),
      ),
    );
    assert.equal(quickDone, 5, 'the quick destination’s tries all ran while the slow lane stayed full');
    assert.equal(slow[2]!.started, false);
    slow[0]!.finish();
    await settle();
    assert.equal(slow[2]!.started, true, 'a slot given back goes to the lane’s next try');
    slow[1]!.finish();
    slow[2]!.finish();
    await Promise.all(running);
    assert.equal(gate.inFlightTo(SLOW), 0);
  });

  it('holds the rate per second of one destination, and not of another', async () => {
    const gate = new DestinationGate(() => now, 100, 3, 100, wait);
    const startedAt: number[] = [];
    const running = Array.from({ length: 7 }, () => gate.run(SLOW, async () => void startedAt.push(now)));
    await settle();
    assert.equal(startedAt.length, 3, 'three tries in the first second');
    let other = 0;
    await Promise.all(Array.from({ length: 3 }, () => gate.run(QUICK, async () => void (other += 1))));
    assert.equal(other, 3, 'another destination has its own rate');
    advance(999);
    await settle();
    assert.equal(startedAt.length, 3, 'not before the first try leaves the window');
    advance(1);
    await settle();
    assert.equal(startedAt.length, 6);
    advance(1_000);
    await Promise.all(running);
    assert.deepEqual(
      startedAt.map((t) => t - 1_000_000),
      [0, 0, 0, 1_000, 1_000, 1_000, 2_000],
    );
  });

  it('holds the limit of tries in flight over all destinations', async () => {
    const gate = new DestinationGate(() => now, 8, 100, 2, wait);
    const tries = [held(), held(), held()];
    const running = [gate.run(SLOW, tries[0]!.work), gate.run(QUICK, tries[1]!.work), gate.run(QUICK, tries[2]!.work)];
    await settle();
    assert.deepEqual(
      tries.map((t) => t.started),
      [true, true, false],
    );
    tries[0]!.finish();
    await settle();
    assert.equal(tries[2]!.started, true);
    tries[1]!.finish();
    tries[2]!.finish();
    await Promise.all(running);
  });

  it('gives the slot back when a try throws', async () => {
    const gate = new DestinationGate(() => now, 1, 100, 10, wait);
    await assert.rejects(
      gate.run(SLOW, () => Promise.reject(new Error('broken'))),
      /broken/,
    );
    assert.equal(await gate.run(SLOW, async () => 'next'), 'next');
  });

  it('counts a destination by scheme, host and port, not by path', () => {
    assert.equal(destinationOf('https://a.example/x?y'), destinationOf('https://a.example:443/z'));
    assert.notEqual(destinationOf('https://a.example/x'), destinationOf('http://a.example/x'));
    assert.notEqual(destinationOf('http://127.0.0.1:9000/x'), destinationOf('http://127.0.0.1:9001/x'));
  });
});
