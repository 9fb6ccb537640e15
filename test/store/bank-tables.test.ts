import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { BANK_TABLES, NOT_BANK_SCOPED, SNAPSHOT_TABLES } from '../../src/store/queries/bank-tables.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { type TestDatabase, createTestDatabase } from '../support/postgres.js';

/**
 * The one list of tables holding a bank's rows (src/store/queries/bank-tables.ts), which the bank's
 * removal and the snapshots both go by: every table the migrations make is in it or declared not
 * bank-scoped, on both databases (the build checks the same against the Database interface), and
 * it names children before the rows they point to.
 */
const MIGRATOR_TABLES = ['kysely_migration', 'kysely_migration_lock'];
const listed = [...BANK_TABLES.map((t) => t.table), ...Object.keys(NOT_BANK_SCOPED)].sort();

const databases: TestDatabase[] = [];
after(() => Promise.all(databases.map((d) => d.drop())));

describe('the tables of a bank (bank-tables.ts)', () => {
  it('names each table once', () => {
    assert.equal(new Set(listed).size, listed.length);
  });

  it('names every table of a migrated SQLite database, and no other', async () => {
    const store = SqliteStore.open(':memory:');
    try {
      await store.migrate();
      const tables = (
        store.connection
          .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
          .all() as { name: string }[]
      )
        .map((r) => r.name)
        .filter((name) => !MIGRATOR_TABLES.includes(name));
      assert.deepEqual(tables.sort(), listed);
    } finally {
      await store.close();
    }
  });

  it('names every table of a migrated PostgreSQL database, and no other', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const store = PostgresStore.open(database.url);
    try {
      await store.migrate();
      const { rows } = await store.pool.query<{ name: string }>(
        "select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'",
      );
      assert.deepEqual(
        rows
          .map((r) => r.name)
          .filter((name) => !MIGRATOR_TABLES.includes(name))
          .sort(),
        listed,
      );
    } finally {
      await store.close();
    }
  });

  it('names a table before every bank table its foreign keys point to: deletes go children first, a restore inserts parents first', async () => {
    const store = SqliteStore.open(':memory:');
    try {
      await store.migrate();
      const order = BANK_TABLES.map((t) => t.table as string);
      for (const child of order) {
        const parents = store.connection.pragma(`foreign_key_list(${child})`) as { table: string }[];
        for (const { table: parent } of parents) {
          if (!order.includes(parent)) continue;
          assert.ok(order.indexOf(child) < order.indexOf(parent), `${child} points to ${parent}, named after it`);
        }
      }
    } finally {
      await store.close();
    }
  });

  it("saves every bank table but the snapshots, the request bindings, the console's sessions and used links, and the notifications sent (docs/decisions/0277)", () => {
    assert.deepEqual(
      BANK_TABLES.filter((t) => !SNAPSHOT_TABLES.includes(t)).map((t) => t.table),
      [
        'sandbox_snapshots',
        'request_bindings',
        'console_sessions',
        'console_link_uses',
        'notification_attempts',
        'notification_events',
      ],
    );
  });
});
