import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { Kysely, Migrator } from 'kysely';
import type { Database } from '../../src/store/database.js';
import { duplicateHash, duplicateHashScope } from '../../src/store/duplicate-hash.js';
import { transferRows } from '../../src/store/payment-rows.js';
import { migrations } from '../../src/store/migrations/index.js';
import type { Store } from '../../src/store/store.js';
import { insertPaymentAsBefore, newPayment, requestFor } from '../support/new-payment.js';
import { createAsInstanceBefore } from '../support/old-instance.js';
import { postgresOverOldRows, sqliteOverOldRows, withMigratedPostgres } from '../support/migration-over-rows.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const before012 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '012'));

/** A payment stored as the version before migration 012 stored it: its transfers without duplicate_hash. */
async function storeTheOldWay(db: Kysely<Database>): Promise<ReturnType<typeof newPayment>> {
  assert.equal(
    (await new Migrator({ db, provider: { getMigrations: async () => before012 } }).migrateToLatest()).error,
    undefined,
  );
  const earlier = newPayment({ psuKey: 'psu:migrated' });
  await insertPaymentAsBefore('012', db, earlier);
  return earlier;
}

/** After the migration, the same transfer again is a logical duplicate of the payment stored before it; another PSU's is not. */
async function assertFoundAfterMigration(store: Store, earlier: ReturnType<typeof newPayment>): Promise<void> {
  await store.migrate();
  const again = newPayment({ psuKey: 'psu:migrated' });
  const result = await store.createPayment(again, requestFor(again), {
    duplicatesSince: new Date(Date.now() - 86_400_000),
  });
  assert.equal(result.outcome, 'duplicate');
  assert.deepEqual(result.outcome === 'duplicate' ? result.duplicates.map((d) => d.paymentId) : [], [earlier.id]);
  const otherPsu = newPayment({ psuKey: 'psu:another' });
  assert.equal(
    (await store.createPayment(otherPsu, requestFor(otherPsu), { duplicatesSince: new Date(Date.now() - 86_400_000) }))
      .outcome,
    'created',
  );
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
    await sqliteOverOldRows(dirs, storeTheOldWay, assertFoundAfterMigration);
  });

  it('on PostgreSQL, computes the hash of a create from an instance of the version before (a rolling upgrade), whose transfers come without it', async () => {
    await withMigratedPostgres(async (store, url) => {
      const earlier = newPayment({ psuKey: 'psu:old-instance' });
      // As PostgresHotPath called it before migration 012: no duplicate_hash in the transfers.
      const stored = await createAsInstanceBefore('012', url, earlier, null);
      assert.equal(
        BigInt(stored.duplicate_hash),
        transferRows(earlier)[0]!.duplicate_hash,
        'the hash Node computes for the same transfer',
      );
      const again = newPayment({ psuKey: 'psu:old-instance' });
      const result = await store.createPayment(again, requestFor(again), {
        duplicatesSince: new Date(Date.now() - 86_400_000),
      });
      assert.deepEqual(result.outcome === 'duplicate' ? result.duplicates.map((d) => d.paymentId) : result.outcome, [
        earlier.id,
      ]);
    });
  });

  it('gives the transfers PostgreSQL stored before it the hash Node computes, in SQL, so that a duplicate of one is still found', async () => {
    await postgresOverOldRows(storeTheOldWay, assertFoundAfterMigration);
  });
});
