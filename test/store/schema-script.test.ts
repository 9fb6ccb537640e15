import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrations } from '../../src/store/migrations/index.js';
import type { SchemaScript } from '../../src/store/migrations/schema-script.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createTestDatabase } from '../support/postgres.js';

/**
 * An empty database is made with one script (src/store/migrations/schema-script.ts): it must come
 * out as the migrations run one by one make it, schema and rows, on both engines.
 */
const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const names = Object.keys(migrations);

/** Counts the runs of the schema script that made the schema (true) and those that found it made (false). */
function watchScript(prototype: { runSchemaScript(script: SchemaScript): Promise<boolean> }): {
  made: number;
  found: number;
  restore(): void;
} {
  const original = prototype.runSchemaScript;
  const counts = {
    made: 0,
    found: 0,
    restore: () => {
      prototype.runSchemaScript = original;
    },
  };
  prototype.runSchemaScript = async function run(this: unknown, script: SchemaScript) {
    const made = await original.call(this, script);
    counts[made ? 'made' : 'found'] += 1;
    return made;
  };
  return counts;
}

const sqlitePrototype = SqliteStore.prototype as unknown as { runSchemaScript(script: SchemaScript): Promise<boolean> };
const postgresPrototype = PostgresStore.prototype as unknown as {
  runSchemaScript(script: SchemaScript): Promise<boolean>;
};

function sqliteCatalog(connection: BetterSqlite3.Database): unknown {
  const objects = connection
    .prepare("select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%' order by type, name")
    .all() as { type: string; name: string }[];
  const rows = objects
    .filter((o) => o.type === 'table' && o.name !== 'kysely_migration')
    .map((o) => ({
      table: o.name,
      rows: connection.prepare(`select * from "${o.name}" order by 1`).safeIntegers(true).all(),
    }));
  return { objects, rows };
}

async function postgresCatalog(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const query = async (text: string) => (await client.query(text)).rows;
    const tables = (await query(
      'select table_name from information_schema.tables where table_schema = current_schema() order by 1',
    )) as { table_name: string }[];
    const rows = [];
    for (const { table_name: table } of tables.filter((t) => t.table_name !== 'kysely_migration')) {
      rows.push({ table, rows: await query(`select * from "${table}" order by 1`) });
    }
    return {
      tables,
      columns:
        await query(`select table_name, column_name, ordinal_position, data_type, character_maximum_length, is_nullable, column_default
        from information_schema.columns where table_schema = current_schema() order by 1, 3`),
      constraints:
        await query(`select conrelid::regclass::text as table_name, conname, contype, pg_get_constraintdef(oid) as definition
        from pg_constraint where connamespace = current_schema()::regnamespace order by 1, 2`),
      indexes: await query(
        'select tablename, indexname, indexdef from pg_indexes where schemaname = current_schema() order by 1, 2',
      ),
      rows,
    };
  } finally {
    await client.end();
  }
}

describe('the schema script of an empty database', () => {
  it('makes on SQLite the schema and rows that the migrations run one by one make, and records every migration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'psd2-schema-'));
    dirs.push(dir);
    const watch = watchScript(sqlitePrototype);
    const store = SqliteStore.open(join(dir, 'script.db'));
    const stepwise = new BetterSqlite3(join(dir, 'steps.db'));
    stepwise.pragma('foreign_keys = OFF');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: stepwise }) });
    try {
      await store.migrate();
      assert.equal(watch.made, 1, 'the script made the schema');
      assert.deepEqual(await store.appliedMigrations(), names);
      assert.equal(
        (await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest()).error,
        undefined,
      );
      assert.deepEqual(sqliteCatalog(store.connection), sqliteCatalog(stepwise));
    } finally {
      watch.restore();
      await store.close();
      await db.destroy();
    }
  });

  it('makes on PostgreSQL the schema and rows that the migrations run one by one make, once among instances starting together', async () => {
    const viaScript = await createTestDatabase();
    const stepwise = await createTestDatabase();
    const watch = watchScript(postgresPrototype);
    const stores = [
      PostgresStore.open(viaScript.url),
      PostgresStore.open(viaScript.url),
      PostgresStore.open(viaScript.url),
    ];
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: stepwise.url }) }),
    });
    try {
      await Promise.all(stores.map((store) => store.migrate()));
      assert.equal(watch.made, 1, 'one instance ran the script');
      for (const store of stores) assert.deepEqual(await store.appliedMigrations(), names);
      assert.equal(
        (await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest()).error,
        undefined,
      );
      assert.deepEqual(await postgresCatalog(viaScript.url), await postgresCatalog(stepwise.url));
    } finally {
      watch.restore();
      await Promise.all(stores.map((store) => store.close()));
      await db.destroy();
      await viaScript.drop();
      await stepwise.drop();
    }
  });
});
