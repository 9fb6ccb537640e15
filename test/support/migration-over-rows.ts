import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../../src/store/database.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { sqliteDialect } from '../../src/store/sqlite/sqlite-dialect.js';
import { StatementCache } from '../../src/store/sqlite/statement-cache.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase } from './postgres.js';

/**
 * A test of a migration over rows stored before it, on SQLite: `storeOld` migrates an empty file as
 * far as it likes and writes rows as that version did; then today's store opens the file and
 * `check` runs against it. Returns the file's path (in a folder added to `dirs`).
 */
export async function sqliteOverOldRows<T>(
  dirs: string[],
  storeOld: (db: Kysely<Database>) => Promise<T>,
  check: (store: Store, old: T) => Promise<void>,
): Promise<{ path: string; old: T }> {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-migration-'));
  dirs.push(dir);
  const path = join(dir, 'store.db');
  const connection = new BetterSqlite3(path);
  // As SqliteStore.migrate runs them: migration 008 rebuilds tables that others refer to.
  connection.pragma('foreign_keys = OFF');
  const db = new Kysely<Database>({ dialect: sqliteDialect(new StatementCache(connection), undefined).dialect });
  const old = await storeOld(db);
  await db.destroy();
  const store = SqliteStore.open(path);
  try {
    await check(store, old);
  } finally {
    await store.close();
  }
  return { path, old };
}

/** The same on a fresh PostgreSQL database; `check` also gets the database's URL, and the database is dropped after. */
export async function postgresOverOldRows<T>(
  storeOld: (db: Kysely<Database>) => Promise<T>,
  check: (store: Store, old: T, url: string) => Promise<void>,
): Promise<void> {
  const database = await createTestDatabase();
  try {
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }),
    });
    let old: T;
    try {
      old = await storeOld(db);
    } finally {
      await db.destroy();
    }
    const store = PostgresStore.open(database.url);
    try {
      await check(store, old, database.url);
    } finally {
      await store.close();
    }
  } finally {
    await database.drop();
  }
}

/** A store of today's version on a fresh, migrated PostgreSQL database, given to `check` with the database's URL. */
export async function withMigratedPostgres(check: (store: Store, url: string) => Promise<void>): Promise<void> {
  await postgresOverOldRows(
    async () => undefined,
    async (store, _old, url) => {
      await store.migrate();
      await check(store, url);
    },
  );
}
