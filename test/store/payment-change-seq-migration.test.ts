import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { Kysely, Migrator } from 'kysely';
import { CORE_CREATOR } from '../../src/core/embedded/ledger-payments.js';
import type { Database } from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations/index.js';
import type { Store } from '../../src/store/store.js';
import { insertPaymentAsBefore, newPayment, requestFor } from '../support/new-payment.js';
import { postgresOverOldRows, sqliteOverOldRows } from '../support/migration-over-rows.js';
import { readFeedUntil } from '../support/core-feed.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const before030 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '030'));
const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 9, minute));

interface OldRows {
  /** The ledger's payments in the order of their updated_at, which the feed followed before. */
  ledger: string[];
  tpps: string;
}

/** The reference core's payments as the version before migration 030 stored them, out of creation order, and one of a TPP. */
async function storeTheOldWay(db: Kysely<Database>): Promise<OldRows> {
  assert.equal(
    (await new Migrator({ db, provider: { getMigrations: async () => before030 } }).migrateToLatest()).error,
    undefined,
  );
  const ledger = [at(3), at(1), at(2)].map((createdAt) => newPayment({ tppId: CORE_CREATOR, createdAt }));
  for (const payment of ledger) await insertPaymentAsBefore('030', db, payment);
  const tpps = newPayment({ createdAt: at(0) });
  await insertPaymentAsBefore('030', db, tpps);
  return { ledger: [ledger[1]!.id, ledger[2]!.id, ledger[0]!.id], tpps: tpps.id };
}

const everything = { after: { transaction: 0, seq: 0 }, limit: 100 };

/** Numbered in the former order; a TPP's payment not at all; a change and a new payment after them, at once. */
const assertNumbered = (sqlite: boolean) => async (store: Store, old: OldRows) => {
  await store.migrate();
  const numbered = await store.paymentChanges(CORE_CREATOR, '', everything);
  assert.deepEqual(
    numbered.map((c) => [c.paymentId, c.place]),
    old.ledger.map((id, i) => [id, { transaction: 0, seq: i + 1 }]),
  );
  assert.deepEqual(
    await store.paymentChanges('PSDNO-FSA-111111111', '', everything),
    [],
    'a TPP’s payment has no place',
  );
  // A change at a bank time earlier than every other still comes after them.
  await store.cancelPayment(CORE_CREATOR, old.ledger[0]!, at(0), 'cancel-1');
  const added = newPayment({ tppId: CORE_CREATOR, createdAt: at(0) });
  assert.equal((await store.createPayment(added, requestFor(added), { duplicatesSince: null })).outcome, 'created');
  // On PostgreSQL another test file's transaction may hold the two back for a while (docs/decisions/0348).
  const numberedBefore = JSON.stringify({ transaction: 0, seq: old.ledger.length });
  const read = async (cursor: string | undefined) => {
    const changes = await store.paymentChanges(CORE_CREATOR, '', { ...everything, after: JSON.parse(cursor!) });
    return { reports: changes, cursor: changes.length === 0 ? cursor : JSON.stringify(changes.at(-1)!.place) };
  };
  const later = (await readFeedUntil(read, numberedBefore, (changes) => changes.length >= 2)).reports;
  assert.deepEqual(
    later.map((c) => [c.paymentId, c.status, c.place.seq]),
    [
      [old.ledger[0], 'CANC', 4],
      [added.id, added.status, 5],
    ],
  );
  // Migration 031: SQLite's changes all in transaction 0, PostgreSQL's each in its own, after the
  // ones numbered before it (0).
  const [cancelled, created] = later.map((c) => c.place.transaction);
  if (sqlite) assert.deepEqual([cancelled, created], [0, 0]);
  else assert.ok(0 < cancelled! && cancelled! < created!, `transactions ${cancelled}, ${created}`);
};

describe('the order of the reference core’s changes (migrations 030 and 031)', () => {
  it('numbers the changes SQLite stored before it in their former order, and every later change after them', async () => {
    await sqliteOverOldRows(dirs, storeTheOldWay, assertNumbered(true));
  });

  it('does the same on PostgreSQL', async () => {
    await postgresOverOldRows(storeTheOldWay, assertNumbered(false));
  });
});
