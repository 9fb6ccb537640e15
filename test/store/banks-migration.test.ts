import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrations } from '../../src/store/migrations/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { sqliteDialect } from '../../src/store/sqlite/sqlite-dialect.js';
import { StatementCache } from '../../src/store/sqlite/statement-cache.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase } from '../support/postgres.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The shared world as the previous version kept it: a default customer with an account and an agreement, a TPP's own customer, the clock, a batch run. */
async function sharedWorld(db: Kysely<unknown>): Promise<void> {
  const at = '2026-11-01T10:00:00.000Z';
  await sql`insert into customers (id, customer_number, name, type, created_at, tpp_id) values ('ola', '13039319955', 'Ola Nordmann', 'PRIVATE', ${at}, null), ('nordlys', '18129215603', 'Nordlys Handel AS', 'CORPORATE', ${at}, null), ('own', '01078900497', 'Own', 'PRIVATE', ${at}, 'PSDNO-FSA-A')`.execute(
    db,
  );
  await sql`insert into accounts (id, customer_id, bban, iban, currency, name, product, cash_account_type, credit_line_minor, balance_minor, created_at, transaction_count)
    values ('acc-n', 'nordlys', '90413355566', 'NO5090413355566', 'NOK', 'Driftskonto', 'Bedriftskonto', 'CACC', 0, 100, ${at}, 0)`.execute(
    db,
  );
  await sql`insert into card_accounts (id, customer_id, masked_pan, name, product, currency, credit_limit_minor, balance_minor, body, created_at)
    values ('card', 'own', '1234xxxxxxxx4321', 'Visa', 'Basic', 'NOK', 0, 0, '{}', ${at})`.execute(db);
  await sql`insert into agreements (id, owner_customer_id, name, created_at, tpp_id) values ('AGR-18129215603', 'nordlys', 'Nordlys nettbank', ${at}, null)`.execute(
    db,
  );
  await sql`insert into engagements (agreement_id, customer_id, account_id, roles) values ('AGR-18129215603', 'ola', 'acc-n', '["VIEW"]')`.execute(
    db,
  );
  await sql`insert into psu_sessions (psu_id, tpp_id, customer_id, last_sca_at, tpp_session_id, created_at) values ('psu', 'PSDNO-FSA-A', 'ola', ${at}, null, ${at})`.execute(
    db,
  );
  await sql`insert into sandbox_clock (id, offset_ms, updated_at) values (1, 3600000, ${at})`.execute(db);
  await sql`insert into batch_runs (slot, started_at, finished_at, executed, rejected) values ('2026-11-01T08:00:00.000Z', ${at}, ${at}, 0, 0)`.execute(
    db,
  );
}

async function checkMigrated(store: Store): Promise<void> {
  assert.ok(
    await store.findCustomer('', { customerNumber: '13039319955' }),
    "the shared rows are production's bank now",
  );
  assert.equal(
    await store.findCustomer('PSDNO-FSA-A', { customerNumber: '01078900497' }),
    undefined,
    "and no TPP's sandbox bank",
  );
  assert.ok(await store.findEngagement('', 'AGR-18129215603', 'ola', 'acc-n'));
  assert.equal(await store.readClockOffset(''), 3_600_000n, "the shared clock is bank ''s");
  assert.equal(await store.lastBatchSlot(''), '2026-11-01T08:00:00.000Z');
  assert.deepEqual(await store.listBanks(), ['']);
  // The cascades hold after the rebuild: a customer goes with its accounts, agreements, engagements and sessions.
  assert.equal(await store.deleteSandboxCustomer('', 'nordlys'), true);
  assert.equal(await store.findAccount('', { bban: '90413355566' }), undefined);
  assert.equal(await store.findAgreement('', 'AGR-18129215603'), undefined);
  assert.equal(await store.findEngagement('', 'AGR-18129215603', 'ola', 'acc-n'), undefined);
  assert.equal(await store.deleteSandboxCustomer('', 'own'), true);
  assert.equal(await store.findSandboxCardAccount('', 'card'), undefined);
  assert.ok(await store.findPsuSession('PSDNO-FSA-A', 'psu'));
  assert.equal(await store.deleteSandboxCustomer('', 'ola'), true);
  assert.equal(await store.findPsuSession('PSDNO-FSA-A', 'psu'), undefined);
}

const before008 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '008'));

describe('migration 008: one bank per TPP, on a database of the shared world', () => {
  it("moves every row into bank '' and keeps the foreign keys, on SQLite (tables rebuilt)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'psd2-m008-'));
    dirs.push(dir);
    const path = join(dir, 'store.db');
    const old = new Kysely<unknown>({
      dialect: sqliteDialect(new StatementCache(new BetterSqlite3(path)), undefined).dialect,
    });
    assert.equal(
      (await new Migrator({ db: old, provider: { getMigrations: async () => before008 } }).migrateToLatest()).error,
      undefined,
    );
    await sharedWorld(old);
    await old.destroy();
    const store = SqliteStore.open(path);
    try {
      await store.migrate();
      await checkMigrated(store);
    } finally {
      await store.close();
    }
  });

  it("moves every row into bank '' and keeps the foreign keys, on PostgreSQL (constraints altered)", async () => {
    const database = await createTestDatabase();
    try {
      const old = new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url }) }),
      });
      assert.equal(
        (await new Migrator({ db: old, provider: { getMigrations: async () => before008 } }).migrateToLatest()).error,
        undefined,
      );
      await sharedWorld(old);
      await old.destroy();
      const store = PostgresStore.open(database.url);
      try {
        await store.migrate();
        await checkMigrated(store);
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
    }
  });
});
