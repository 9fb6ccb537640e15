import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../../src/store/database.js';
import { duplicateHash, duplicateHashScope } from '../../src/store/duplicate-hash.js';
import { paymentRow, tppRequestRow, transferRows } from '../../src/store/payment-rows.js';
import { migrations } from '../../src/store/migrations/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { sqliteDialect } from '../../src/store/sqlite/sqlite-dialect.js';
import { StatementCache } from '../../src/store/sqlite/statement-cache.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase } from '../support/postgres.js';
import { insertPaymentAsBefore012, newPayment, requestFor } from '../support/new-payment.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const before012 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '012'));

/** A payment stored as the version before migration 012 stored it: its transfers without duplicate_hash. */
async function storeTheOldWay(db: Kysely<Database>): Promise<ReturnType<typeof newPayment>> {
  assert.equal((await new Migrator({ db, provider: { getMigrations: async () => before012 } }).migrateToLatest()).error, undefined);
  const earlier = newPayment({ psuKey: 'psu:migrated' });
  await insertPaymentAsBefore012(db, earlier);
  return earlier;
}

/** After the migration, the same transfer again is a logical duplicate of the payment stored before it; another PSU's is not. */
async function assertFoundAfterMigration(store: Store, earlier: ReturnType<typeof newPayment>): Promise<void> {
  await store.migrate();
  const again = newPayment({ psuKey: 'psu:migrated' });
  const result = await store.createPayment(again, requestFor(again), { duplicatesSince: new Date(Date.now() - 86_400_000) });
  assert.equal(result.outcome, 'duplicate');
  assert.deepEqual(result.outcome === 'duplicate' ? result.duplicates.map((d) => d.paymentId) : [], [earlier.id]);
  const otherPsu = newPayment({ psuKey: 'psu:another' });
  assert.equal((await store.createPayment(otherPsu, requestFor(otherPsu), { duplicatesSince: new Date(Date.now() - 86_400_000) })).outcome, 'created');
}

describe('the duplicate hash (migration 012)', () => {
  it('is equal for equal transfers of one TPP and PSU, and differs for another TPP or PSU with the same transfer', () => {
    const key = 'ab'.repeat(32);
    const mine = duplicateHash(duplicateHashScope('PSDNO-FSA-1', 'psu:a'), key);
    assert.equal(mine, duplicateHash(duplicateHashScope('PSDNO-FSA-1', 'psu:a'), key));
    assert.notEqual(mine, duplicateHash(duplicateHashScope('PSDNO-FSA-2', 'psu:a'), key));
    assert.notEqual(mine, duplicateHash(duplicateHashScope('PSDNO-FSA-1', 'psu:b'), key));
    assert.equal(BigInt.asIntN(64, mine), mine, 'a signed 64-bit integer, as SQLite and PostgreSQL store it');
  });

  it('gives the transfers SQLite stored before it their hash, so that a duplicate of one is still found', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'psd2-m012-'));
    dirs.push(dir);
    const path = join(dir, 'store.db');
    const connection = new BetterSqlite3(path);
    // As SqliteStore.migrate runs them: migration 008 rebuilds tables that others refer to.
    connection.pragma('foreign_keys = OFF');
    const db = new Kysely<Database>({ dialect: sqliteDialect(new StatementCache(connection), undefined).dialect });
    const earlier = await storeTheOldWay(db);
    await db.destroy();
    const store = SqliteStore.open(path);
    try {
      await assertFoundAfterMigration(store, earlier);
    } finally {
      await store.close();
    }
  });

  it('on PostgreSQL, computes the hash of a create from an instance of the version before (a rolling upgrade), whose transfers come without it', async () => {
    const database = await createTestDatabase();
    try {
      const store = PostgresStore.open(database.url);
      try {
        await store.migrate();
        const earlier = newPayment({ psuKey: 'psu:old-instance' });
        const createdAt = earlier.createdAt.toISOString();
        const json = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
        const client = new pg.Client(database.url);
        await client.connect();
        try {
          // As PostgresHotPath called it before migration 012: no duplicate_hash in the transfers.
          const { rows } = await client.query<{ result: { outcome: string } }>('select psd2_create_payment($1, $2, $3, $4, $5, $6) as result', [
            `psu|${earlier.tppId}|${earlier.psu.key}`, json(tppRequestRow(requestFor(earlier), earlier.id, createdAt)), json(paymentRow(earlier, '')), null,
            json(transferRows(earlier).map(({ duplicate_hash: _hash, ...row }) => row)), null,
          ]);
          assert.equal(rows[0]!.result.outcome, 'created');
          const stored = await client.query<{ duplicate_hash: string }>('select duplicate_hash from transfers where payment_id = $1', [earlier.id]);
          assert.equal(BigInt(stored.rows[0]!.duplicate_hash), transferRows(earlier)[0]!.duplicate_hash, 'the hash Node computes for the same transfer');
        } finally {
          await client.end();
        }
        const again = newPayment({ psuKey: 'psu:old-instance' });
        const result = await store.createPayment(again, requestFor(again), { duplicatesSince: new Date(Date.now() - 86_400_000) });
        assert.deepEqual(result.outcome === 'duplicate' ? result.duplicates.map((d) => d.paymentId) : result.outcome, [earlier.id]);
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('gives the transfers PostgreSQL stored before it the hash Node computes, in SQL, so that a duplicate of one is still found', async () => {
    const database = await createTestDatabase();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }) });
    try {
      const earlier = await storeTheOldWay(db);
      await db.destroy();
      const store = PostgresStore.open(database.url);
      try {
        await assertFoundAfterMigration(store, earlier);
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
    }
  });
});
