import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, sql } from 'kysely';
import pg from 'pg';
import { LOGICAL_DUPLICATE_MAX_DAYS } from '../../src/domain/limits.js';
import type { Database } from '../../src/store/database.js';
import { duplicateDay, duplicateDays } from '../../src/store/duplicate-hash.js';
import { migrations } from '../../src/store/migrations/index.js';
import { transferRows } from '../../src/store/payment-rows.js';
import type { Store } from '../../src/store/store.js';
import { insertPaymentAsBefore, newPayment, requestFor } from '../support/new-payment.js';
import { createAsInstanceBefore } from '../support/old-instance.js';
import { postgresOverOldRows, sqliteOverOldRows, withMigratedPostgres } from '../support/migration-over-rows.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const before013 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '013'));
const DAY_WINDOW = { duplicatesSince: new Date(Date.now() - 86_400_000) };

type Payment = ReturnType<typeof newPayment>;

/**
 * Payments stored as the version before migration 013 stored them (transfers without duplicate_scope
 * and duplicate_day): `earlier`, made 20 hours ago, and `ancient`, made five days ago, beyond the
 * window and the day more that the migration gives keys to.
 */
async function storeTheOldWay(db: Kysely<Database>): Promise<{ earlier: Payment; ancient: Payment }> {
  assert.equal(
    (await new Migrator({ db, provider: { getMigrations: async () => before013 } }).migrateToLatest()).error,
    undefined,
  );
  const earlier = newPayment({ psuKey: 'psu:before-013', createdAt: new Date(Date.now() - 20 * 3_600_000) });
  const ancient = newPayment({ psuKey: 'psu:ancient', createdAt: new Date(Date.now() - 5 * 86_400_000) });
  await insertPaymentAsBefore('013', db, earlier);
  await insertPaymentAsBefore('013', db, ancient);
  return { earlier, ancient };
}

/** The keys the migration gave: Node's to the payment within the window, none (0) to the one beyond it. */
function assertBackfilled(
  rowOf: (payment: Payment) => { duplicate_scope: string | bigint; duplicate_day: string | bigint },
  old: { earlier: Payment; ancient: Payment },
): void {
  assertKeysOf(rowOf(old.earlier), old.earlier);
  const ancient = rowOf(old.ancient);
  assert.deepEqual(
    [BigInt(ancient.duplicate_scope), BigInt(ancient.duplicate_day)],
    [0n, 0n],
    'a row no look-up reaches is left as it was',
  );
}

/** After the migration, the same transfer again is a logical duplicate of the payment stored before it; another PSU's is not. */
async function assertFoundAfterMigration(store: Store, { earlier }: { earlier: Payment }): Promise<void> {
  await store.migrate();
  const again = newPayment({ psuKey: 'psu:before-013' });
  const result = await store.createPayment(again, requestFor(again), DAY_WINDOW);
  assert.deepEqual(result.outcome === 'duplicate' ? result.duplicates.map((d) => d.paymentId) : result.outcome, [
    earlier.id,
  ]);
  const otherPsu = newPayment({ psuKey: 'psu:another' });
  assert.equal((await store.createPayment(otherPsu, requestFor(otherPsu), DAY_WINDOW)).outcome, 'created');
}

/** The scope and day a row of the store holds, against what Node computes for the payment's first transfer. */
function assertKeysOf(
  stored: { duplicate_scope: string | bigint | number; duplicate_day: string | number | bigint },
  payment: Payment,
): void {
  const expected = transferRows(payment)[0]!;
  assert.equal(BigInt(stored.duplicate_scope), expected.duplicate_scope, 'the scope Node computes');
  assert.equal(Number(stored.duplicate_day), expected.duplicate_day, 'the day Node computes');
}

describe('the duplicate scope and day (migration 013)', () => {
  it('gives a transfer the UTC day of its instant, and a look-up the days of its window and the day after', () => {
    assert.equal(duplicateDay(new Date('1970-01-01T23:59:59.999Z')), 0);
    assert.equal(
      duplicateDay(new Date('2026-11-25T00:00:00.000Z')),
      duplicateDay(new Date('2026-11-24T23:59:59.999Z')) + 1,
    );
    const day = duplicateDay(new Date('2026-11-25T10:00:00.000Z'));
    assert.deepEqual(duplicateDays(new Date('2026-11-24T10:00:00.000Z'), new Date('2026-11-25T10:00:00.000Z')), [
      day - 1,
      day,
      day + 1,
    ]);
    assert.deepEqual(duplicateDays(new Date('2026-11-25T00:00:00.000Z'), new Date('2026-11-25T10:00:00.000Z')), [
      day,
      day + 1,
    ]);
  });

  it(`refuses a look-up that would probe more than ${LOGICAL_DUPLICATE_MAX_DAYS} days, rather than making its probes grow`, () => {
    assert.throws(() => duplicateDays(new Date(0), new Date('2026-11-25T10:00:00.000Z')), /spans more than \d+ days/);
    assert.equal(
      duplicateDays(new Date('2026-11-23T00:00:01.000Z'), new Date('2026-11-24T23:59:59.000Z')).length,
      LOGICAL_DUPLICATE_MAX_DAYS,
    );
  });

  it('gives the transfers SQLite stored before it their scope and day, so that a duplicate of one is still found', async () => {
    const { path, old } = await sqliteOverOldRows(dirs, storeTheOldWay, assertFoundAfterMigration);
    const check = new BetterSqlite3(path, { readonly: true });
    try {
      check.defaultSafeIntegers(true);
      const read = check.prepare('select duplicate_scope, duplicate_day from transfers where payment_id = ?');
      assertBackfilled((payment) => read.get(payment.id) as { duplicate_scope: bigint; duplicate_day: bigint }, old);
    } finally {
      check.close();
    }
  });

  it('gives the transfers PostgreSQL stored before it the scope and day Node computes, in SQL, so that a duplicate of one is still found', async () => {
    await postgresOverOldRows(storeTheOldWay, async (store, old, url) => {
      await assertFoundAfterMigration(store, old);
      const client = new pg.Client(url);
      await client.connect();
      try {
        const rows = new Map(
          (
            await client.query<{ payment_id: string; duplicate_scope: string; duplicate_day: string }>(
              'select payment_id, duplicate_scope, duplicate_day from transfers',
            )
          ).rows.map((r) => [r.payment_id, r]),
        );
        assertBackfilled((payment) => rows.get(payment.id)!, old);
      } finally {
        await client.end();
      }
    });
  });

  it('on PostgreSQL, computes the scope and day of a create from an instance of the version before (a rolling upgrade), whose transfers come without them', async () => {
    await withMigratedPostgres(async (store, url) => {
      const earlier = newPayment({ psuKey: 'psu:old-instance' });
      // As PostgresHotPath called it before migration 013: duplicate_hash, and no duplicate_scope or duplicate_day, in the transfers.
      assertKeysOf(await createAsInstanceBefore('013', url, earlier, DAY_WINDOW.duplicatesSince), earlier);
      const again = newPayment({ psuKey: 'psu:old-instance' });
      const result = await store.createPayment(again, requestFor(again), DAY_WINDOW);
      assert.deepEqual(result.outcome === 'duplicate' ? result.duplicates.map((d) => d.paymentId) : result.outcome, [
        earlier.id,
      ]);
    });
  });

  it('on PostgreSQL, gives every instant Node writes the day Node gives it, years after 9999 (+010000-…) included', async () => {
    await withMigratedPostgres(async (_store, url) => {
      const client = new pg.Client(url);
      await client.connect();
      try {
        for (const at of [
          new Date(0),
          new Date('2026-11-24T23:59:59.999Z'),
          new Date('2026-11-25T00:00:00.000Z'),
          new Date(Date.UTC(10_000, 0, 1)),
          new Date(Date.UTC(275_000, 5, 1, 23)),
        ]) {
          const { rows } = await client.query<{ day: number }>('select psd2_duplicate_day($1) as day', [
            at.toISOString(),
          ]);
          assert.equal(rows[0]!.day, duplicateDay(at), at.toISOString());
        }
      } finally {
        await client.end();
      }
    });
  });

  it('lets an instance of an earlier version start on a database a later version migrated further (a rolling upgrade), on SQLite and PostgreSQL', async () => {
    // As the version before 013 sees a database 013 has migrated: every migration it knows is applied, and one more it does not know.
    const migratedFurther = async (db: Kysely<Database>) => {
      assert.equal(
        (await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest()).error,
        undefined,
      );
      await sql`insert into kysely_migration (name, timestamp) values ('999-of-a-later-version', ${new Date().toISOString()})`.execute(
        db,
      );
    };
    const startsAndCreates = async (store: Store) => {
      await store.migrate();
      const payment = newPayment({ psuKey: 'psu:rolling' });
      assert.equal((await store.createPayment(payment, requestFor(payment), DAY_WINDOW)).outcome, 'created');
      assert.deepEqual(
        await store.appliedMigrations(),
        Object.keys(migrations).sort(),
        'every migration this version knows, as readiness asks',
      );
    };
    await sqliteOverOldRows(dirs, migratedFurther, startsAndCreates);
    await postgresOverOldRows(migratedFurther, startsAndCreates);
  });
});
