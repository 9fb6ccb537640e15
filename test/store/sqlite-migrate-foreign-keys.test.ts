import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { type Kysely, Migrator, sql } from 'kysely';
import type { Database } from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations/index.js';
import { sqliteOverOldRows } from '../support/migration-over-rows.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const last = Object.keys(migrations).sort().at(-1)!;
const beforeLast = Object.fromEntries(Object.entries(migrations).filter(([name]) => name !== last));

/** Migrates to `upTo`'s migrations and stores a basket entry whose basket and payment do not exist (foreign keys are off here). */
async function withDanglingRow(db: Kysely<Database>, upTo: typeof migrations): Promise<void> {
  assert.equal(
    (await new Migrator({ db, provider: { getMigrations: async () => upTo } }).migrateToLatest()).error,
    undefined,
  );
  await sql`insert into basket_payments (basket_id, payment_id, seq) values ('no-basket', 'no-payment', 1)`.execute(db);
}

describe('SQLite: the foreign key check of a migration', () => {
  it('refuses to commit a migration that leaves a row whose foreign keys name nothing', async () => {
    await sqliteOverOldRows(
      dirs,
      (db) => withDanglingRow(db, beforeLast),
      async (store) => {
        await assert.rejects(store.migrate(), /2 rows whose foreign keys name nothing: \[{"table":"basket_payments"/);
        // Rolled back: the migration is not recorded, and the next start tries it again.
        assert.ok(!(await store.appliedMigrations()).includes(last), `${last} was recorded`);
      },
    );
  });

  it('reads no row when every migration is applied: a start on a large database does not scan its tables', async () => {
    await sqliteOverOldRows(
      dirs,
      (db) => withDanglingRow(db, migrations),
      // The check would find the row above; a start that migrates nothing does not look.
      async (store) => assert.equal(await store.migrate(), undefined),
    );
  });
});
