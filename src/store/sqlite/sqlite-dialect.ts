import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Dialect, type Kysely, SqliteAdapter, SqliteDriver, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';

/**
 * Kysely's SQLite dialect, with write transactions begun IMMEDIATE. A deferred transaction that
 * reads and then writes fails at once (SQLITE_BUSY) when another process wrote in between; an
 * immediate one takes the write lock first and waits its turn (busy_timeout). Within one process,
 * Kysely's single connection already runs one transaction at a time.
 */
class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export function sqliteDialect(database: BetterSqlite3.Database): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ImmediateTransactionDriver({ database }),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}
