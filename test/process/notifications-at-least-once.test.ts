import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { NotificationReceiver, seedSubscribedPayments } from '../support/notification-receiver.js';
import { createMigratedTestDatabase } from '../support/postgres.js';
import { startServerProcess } from '../support/server-process.js';
import { trustedCa } from '../support/two-postgres-servers.js';

/**
 * Notifications with real server processes (issue 43, point 4; docs/notifications.md, "Delivery"):
 * 500 pending when the server is killed (SIGKILL) are all delivered after it starts again, none lost,
 * a duplicate only with its event id; two instances on one PostgreSQL database never send one event
 * twice at once. The receiver is on 127.0.0.1; the waits are bounds, not measures.
 */
const EVENTS = 500;
/** A bound on each wait: a claim the killed server held lapses after NOTIFICATION_CLAIM_MS (30 s) before another instance sends its events. */
const WAIT_MS = 120_000;
const dirs: string[] = [];
let receiver: NotificationReceiver;

before(async () => {
  receiver = new NotificationReceiver();
  await receiver.start();
});
afterEach(() => {
  receiver.received.length = 0;
  receiver.maxInFlightPerEvent = 0;
  receiver.answer = 204;
  receiver.delayMs = 0;
  receiver.holdUntil = undefined;
  receiver.arrivedKids.clear();
});
after(async () => {
  await receiver.stop();
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

/** Each event id's bodies as received: one event is always the same notification, however often it is sent. */
function assertDuplicatesIdentical(): void {
  const bodies = new Map<string, Set<string>>();
  for (const r of receiver.received) bodies.set(r.eventId, (bodies.get(r.eventId) ?? new Set()).add(r.body));
  for (const [eventId, set] of bodies) assert.equal(set.size, 1, `event ${eventId} sent with different bodies`);
}

describe('notifications across a crash', () => {
  it(
    'delivers every one of 500 pending notifications after the server is killed (SIGKILL) part-way and started again',
    { timeout: 4 * WAIT_MS },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'psd2-notify-kill-'));
      dirs.push(dir);
      const file = join(dir, 'psd2.db');
      const seeding = SqliteStore.open(file);
      await seedSubscribedPayments(seeding, EVENTS, receiver.url);
      assert.equal(await seeding.countPendingNotifications(), EVENTS);
      await seeding.close();
      const written = sqliteEvents(file);
      assert.equal(new Set(written.map((e) => e.eventId)).size, EVENTS);

      const env = { DATA_DIR: dir, DATABASE_URL: `sqlite:${file}`, TRUSTED_CA_CERTS: await trustedCa(dir) };
      receiver.answer = 503;
      const first = await startServerProcess(env);
      // They pile up: the endpoint fails, and each is deferred on the backoff schedule.
      await receiver.until(() => receiver.received.length >= 150, '150 tries answered 503', WAIT_MS);
      // The endpoint comes back, slowly enough that the kill lands while it delivers (the relay sends
      // a destination's tries side by side, and 500 quick answers could all be in before it).
      receiver.answer = 204;
      receiver.delayMs = 200;
      await receiver.until(() => receiver.delivered().size >= 50, '50 notifications taken', WAIT_MS);
      first.child.kill('SIGKILL');
      await first.exited;
      const killedAt = receiver.delivered().size;
      const pending = sqliteEvents(file).filter((e) => e.endedAt === null).length;
      assert.ok(pending > 0 && pending < EVENTS, `killed part-way: ${pending} of ${EVENTS} pending`);

      const second = await startServerProcess(env);
      try {
        await receiver.until(() => receiver.delivered().size === EVENTS, `all ${EVENTS} event ids taken`, WAIT_MS);
        // An event the endpoint took just before the kill, which the killed server had not yet written
        // down, is still pending: it goes again, with its id, once the dead server's claim lapses.
        await until(() => sqliteEvents(file).every((e) => e.endedAt !== null), 'the outbox emptied', WAIT_MS);
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
      const ended = sqliteEvents(file);
      assert.deepEqual(
        [...receiver.delivered()].sort(),
        written.map((e) => e.eventId).sort(),
        'every event written was delivered, by its own id',
      );
      assert.deepEqual(
        ended.filter((e) => e.endReason !== 'delivered'),
        [],
        'the outbox holds every event as delivered',
      );
      assertDuplicatesIdentical();
      const sent = receiver.received.filter((r) => r.answered === 204).length;
      assert.ok(sent >= EVENTS, `${sent} deliveries of ${EVENTS} events, ${killedAt} before the kill`);
    },
  );
});

describe('notifications from two instances on one PostgreSQL database', () => {
  it(
    'never sends one event twice at once, and delivers all 500, each instance sending some',
    { timeout: 3 * WAIT_MS },
    async () => {
      const database = await createMigratedTestDatabase();
      try {
        const seeding = PostgresStore.open(database.url);
        await seedSubscribedPayments(seeding, EVENTS, receiver.url);
        assert.equal(await seeding.countPendingNotifications(), EVENTS);
        await seeding.close();
        const dir = mkdtempSync(join(tmpdir(), 'psd2-notify-two-'));
        dirs.push(dir);
        const env = { DATA_DIR: dir, DATABASE_URL: database.url, TRUSTED_CA_CERTS: await trustedCa(dir) };
        receiver.delayMs = 20;
        // The first instance up would send all 500 before the second is listening on a busy machine:
        // its tries are held until the other's first arrives. A claim takes at most
        // NOTIFICATION_CONCURRENCY (256) events, so the other finds the rest due.
        receiver.holdUntil = () => receiver.arrivedKids.size === 2;
        // A signing key each: the kid of a notification's signature says which instance sent it.
        const servers = await Promise.all(
          [0, 1].map((i) => startServerProcess({ ...env, NOTIFICATION_SIGNING_KEY_FILE: signingKey(dir, i) })),
        );
        try {
          await receiver.until(() => receiver.delivered().size === EVENTS, `all ${EVENTS} event ids taken`, WAIT_MS);
        } finally {
          for (const server of servers) server.child.kill('SIGTERM');
          await Promise.all(servers.map((s) => s.exited));
        }
        assert.equal(receiver.maxInFlightPerEvent, 1, 'an event in flight from two instances at once');
        const kids = new Set(receiver.received.map((r) => r.kid));
        assert.equal(kids.size, 2, `both instances sent: ${[...kids].join(', ')}`);
        assertDuplicatesIdentical();
        const events = await postgresEvents(database.url);
        assert.deepEqual([...receiver.delivered()].sort(), events.map((e) => e.event_id).sort());
        assert.deepEqual(
          events.filter((e) => e.end_reason !== 'delivered'),
          [],
        );
      } finally {
        await database.drop();
      }
    },
  );
});

/** Resolves once `check` holds, looked at every 250 ms, or fails after `limitMs` (a bound, not a measure). */
async function until(check: () => boolean, what: string, limitMs: number): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what} not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A P-256 key for NOTIFICATION_SIGNING_KEY_FILE, in `dir`. */
function signingKey(dir: string, n: number): string {
  const path = join(dir, `notification-key-${n}.pem`);
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  return path;
}

function sqliteEvents(file: string): { eventId: string; endedAt: string | null; endReason: string | null }[] {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return db
      .prepare('select event_id as eventId, ended_at as endedAt, end_reason as endReason from notification_events')
      .all() as { eventId: string; endedAt: string | null; endReason: string | null }[];
  } finally {
    db.close();
  }
}

async function postgresEvents(url: string): Promise<{ event_id: string; end_reason: string | null }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (
      await client.query<{ event_id: string; end_reason: string | null }>(
        'select event_id, end_reason from notification_events order by seq',
      )
    ).rows;
  } finally {
    await client.end();
  }
}
