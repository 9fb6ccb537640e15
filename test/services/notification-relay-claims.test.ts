import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../src/domain/clock.js';
import { NOTIFICATION_CLAIM_MS, NOTIFICATION_DESTINATION_CONCURRENCY } from '../../src/domain/limits.js';
import { NotificationRelay } from '../../src/services/notifications/notification-relay.js';
import type { SendResult } from '../../src/services/notifications/notification-sender.js';
import { NotificationSigner } from '../../src/security/notification-signer.js';
import { ensureNotificationSigningKey } from '../../src/security/notification-signing-key.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { seedSubscribedPayments } from '../support/notification-receiver.js';

/**
 * Two relays (two instances) on one outbox, and a destination slow enough that one instance's claimed
 * events wait in its lane longer than its claim lasts (docs/notifications.md, "Delivery"): the other
 * instance then claims them, so the first must not send them any more, or one event is sent twice at
 * once. The clock is a test's, the sends answer when the test says: nothing waits for real time.
 */
class ManualClock implements Clock {
  current = new Date('2026-11-29T12:00:00Z');
  now(): Date {
    return new Date(this.current);
  }
}

/** A destination whose tries end when the test says, counting each event's tries in flight. */
class HeldDestination {
  readonly open: { eventId: string; by: string; answer: (r: SendResult) => void }[] = [];
  readonly inFlight = new Map<string, number>();
  maxInFlightPerEvent = 0;
  readonly taken = new Set<string>();

  sendAs(by: string) {
    return (_uri: string, body: string): Promise<SendResult> => {
      const { eventId } = JSON.parse(body) as { eventId: string };
      const now = (this.inFlight.get(eventId) ?? 0) + 1;
      this.inFlight.set(eventId, now);
      this.maxInFlightPerEvent = Math.max(this.maxInFlightPerEvent, now);
      return new Promise((resolve) =>
        this.open.push({
          eventId,
          by,
          answer: (result) => {
            this.inFlight.set(eventId, this.inFlight.get(eventId)! - 1);
            if (result.status === 204) this.taken.add(eventId);
            resolve(result);
          },
        }),
      );
    };
  }

  /** Answers 204 to every try in flight now. */
  answerAll(): void {
    for (const entry of this.open.splice(0)) entry.answer({ status: 204, durationMs: 1 });
  }
}

/** Lets the store's and the relay's promises run until `check` holds (a bound in turns, not in time). */
async function settled(check: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 10_000 && !check(); turn++) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(check(), what);
}

/** A lane's worth and more: the rest wait in the lane behind the slow first tries. */
const LANE = NOTIFICATION_DESTINATION_CONCURRENCY;
const EVENTS = LANE + 12;
const dir = mkdtempSync(join(tmpdir(), 'psd2-relay-claims-'));
let store: SqliteStore;
let signer: NotificationSigner;

before(async () => {
  store = SqliteStore.open(join(dir, 'psd2.db'));
  await seedSubscribedPayments(store, EVENTS, 'http://127.0.0.1:9/slow');
  signer = new NotificationSigner(await ensureNotificationSigningKey(dir, undefined));
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a claim that lapses while its event waits in a slow lane', () => {
  it('is not sent by its first instance once another may have claimed it: no event twice at once, all delivered', async () => {
    const clock = new ManualClock();
    const destination = new HeldDestination();
    const quiet = () => undefined;
    const first = new NotificationRelay(store, signer, destination.sendAs('first'), 'first', clock, quiet);
    const second = new NotificationRelay(store, signer, destination.sendAs('second'), 'second', clock, quiet);
    await first.turn();
    await settled(() => destination.open.length === LANE, 'the first instance fills its lane');
    // The slow endpoint answers late: the lane's next tries start near the claim's end.
    clock.current = new Date(clock.current.getTime() + NOTIFICATION_CLAIM_MS - 5_000);
    destination.answerAll();
    await settled(() => destination.taken.size === LANE, 'the first lane’s worth taken');
    await new Promise((resolve) => setImmediate(resolve));
    // The claim has lapsed: the second instance claims what the first has not ended.
    clock.current = new Date(clock.current.getTime() + 6_000);
    await second.turn();
    await settled(() => destination.open.some((o) => o.by === 'second'), 'the second instance sends');
    // Every try answered as it starts, until both instances' tries are over.
    let over = false;
    const turns = Promise.all([first.stop(), second.stop()]).then(() => (over = true));
    while (!over) {
      await settled(() => over || destination.open.length > 0, 'tries under way, or the turns over');
      destination.answerAll();
    }
    await turns;
    // What the first left claimed goes once its claim lapses: the second instance, going on, sends it.
    clock.current = new Date(clock.current.getTime() + NOTIFICATION_CLAIM_MS);
    const goingOn = new NotificationRelay(store, signer, destination.sendAs('second'), 'second', clock, quiet);
    const drained = goingOn.drain();
    let done = false;
    void drained.then(() => (done = true));
    while (!done) {
      await settled(() => done || destination.open.length > 0, 'tries under way, or the drain over');
      destination.answerAll();
    }
    assert.equal(destination.maxInFlightPerEvent, 1, 'an event sent by both instances at once');
    assert.equal(destination.taken.size, EVENTS);
    assert.equal(await store.countPendingNotifications(), 0);
  });
});
