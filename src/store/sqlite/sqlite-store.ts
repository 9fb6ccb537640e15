import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../database.js';
import { KyselyStore } from '../kysely-store.js';

/**
 * The embedded store: one SQLite file through better-sqlite3. WAL lets status reads run beside
 * writes; synchronous=FULL makes every commit durable before it returns, so a payment answered 201
 * is on disk.
 */
export class SqliteStore extends KyselyStore {
  readonly kind = 'sqlite' as const;

  private constructor(db: Kysely<Database>, readonly connection: BetterSqlite3.Database) {
    super(db);
  }

  static open(path: string): SqliteStore {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const connection = new BetterSqlite3(path);
    connection.pragma('journal_mode = WAL');
    connection.pragma('synchronous = FULL');
    connection.pragma('foreign_keys = ON');
    connection.pragma('busy_timeout = 5000');
    connection.defaultSafeIntegers(true);
    return new SqliteStore(new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) }), connection);
  }
}
