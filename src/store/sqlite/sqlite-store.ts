import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import { KyselyStore } from '../kysely-store.js';

/**
 * The embedded store: one SQLite file through better-sqlite3. WAL lets status reads run beside
 * writes; synchronous=FULL makes every commit durable before it returns, so a payment answered 201
 * is on disk.
 */
const migrationsByFile = new Map<string, Promise<void>>();

export class SqliteStore extends KyselyStore {
  readonly kind = 'sqlite' as const;

  private constructor(db: Kysely<Database>, readonly connection: BetterSqlite3.Database, private readonly file: string) {
    super(db);
  }

  /** One connection serves every query, one transaction at a time: writers are serialised already. */
  protected override async lockPsu(_trx: Transaction<Database>, _key: string): Promise<void> {}

  /**
   * Kysely's SQLite migrator takes no lock (it assumes one connection), so two processes starting on
   * one file would run the same migration twice. BEGIN IMMEDIATE takes SQLite's write lock around the
   * whole run: the second process waits (busy_timeout), then finds the migrations applied.
   */
  override async migrate(): Promise<void> {
    // Within one process the wait would block the event loop that the first migration needs: queue instead.
    const previous = migrationsByFile.get(this.file) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(async () => {
      this.connection.exec('BEGIN IMMEDIATE');
      try {
        await super.migrate();
        this.connection.exec('COMMIT');
      } catch (error) {
        if (this.connection.inTransaction) this.connection.exec('ROLLBACK');
        throw error;
      }
    });
    migrationsByFile.set(this.file, run);
    return run;
  }

  static open(path: string): SqliteStore {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const connection = new BetterSqlite3(path);
    connection.pragma('journal_mode = WAL');
    connection.pragma('synchronous = FULL');
    connection.pragma('foreign_keys = ON');
    connection.pragma('busy_timeout = 5000');
    connection.defaultSafeIntegers(true);
    return new SqliteStore(new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) }), connection, resolve(path));
  }
}
