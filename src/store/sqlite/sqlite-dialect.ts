import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Kysely,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { Checkpointer } from './checkpointer.js';
import type { StatementCache } from './statement-cache.js';
import { WalSync } from './wal-sync.js';

/**
 * Kysely's SQLite driver with three changes:
 * - write transactions begin IMMEDIATE. A deferred transaction that reads and then writes fails at
 *   once (SQLITE_BUSY) when another process wrote in between; an immediate one takes the write lock
 *   first and waits its turn (busy_timeout). Within one process, Kysely's single connection already
 *   runs one transaction at a time;
 * - prepared statements are kept (StatementCache);
 * - a use of the connection that wrote is answered only once the WAL is flushed (WalSync); the
 *   connection is released first, so that the next requests run while the flush is under way. A use
 *   marked `deferDurability()` (the X-Request-ID binding) is not held: the request goes on, and its
 *   answer waits for the flush instead (Store.durable);
 * - the WAL is checkpointed by a worker thread (Checkpointer), not inside a request's commit.
 */
class DurableSqliteDriver extends SqliteDriver {
  /** Set by the use of the connection now running; read and cleared when it releases the connection. */
  deferred = false;
  /** Whether a use through Kysely holds the connection (between its acquire and its release). */
  private held = false;

  constructor(
    private readonly statements: StatementCache,
    private readonly wal: WalSync,
    private readonly checkpointer: Checkpointer | undefined,
  ) {
    super({ database: statements });
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.held = true;
    return connection;
  }

  override async releaseConnection(): Promise<void> {
    this.noteWrites();
    const deferred = this.deferred;
    this.deferred = false;
    this.held = false;
    await super.releaseConnection();
    if (!deferred) await this.wal.durable();
  }

  /**
   * Runs synchronous work on the connection at once when no use through Kysely holds it (none is
   * in the middle of a transaction), as a use of its own: writes noted for the WAL's flush, and the
   * answer, unless `deferDurability`, once the commits it may have seen are flushed. Undefined when
   * the connection is held: the caller then waits its turn through Kysely.
   */
  runNow<T>(work: () => T, deferDurability: boolean): Promise<T> | undefined {
    if (this.held) return undefined;
    let result: T;
    try {
      result = work();
    } catch (error) {
      return Promise.reject(error as Error);
    } finally {
      this.noteWrites();
    }
    return deferDurability ? Promise.resolve(result) : this.wal.durable().then(() => result);
  }

  private noteWrites(): void {
    // Writes inside a transaction still open (the migration's, begun outside Kysely) are not
    // committed yet: there is nothing to make durable, and nobody is answered from them.
    if (this.statements.takeWrote() && !this.statements.inTransaction) {
      this.wal.wrote();
      this.checkpointer?.started();
    }
  }

  override async destroy(): Promise<void> {
    await this.wal.close();
    await this.checkpointer?.close();
    await super.destroy();
  }
}

/** What the store needs of its driver beside Kysely: the WAL's flushes, the deferral of one use's wait, and uses without Kysely. */
export interface SqliteDurability {
  wal: WalSync;
  /** Called within a use of the connection: its writes are not waited for when it releases the connection. */
  deferDurability: () => void;
  /** DurableSqliteDriver.runNow. */
  runNow: <T>(work: () => T, deferDurability: boolean) => Promise<T> | undefined;
}

/**
 * `statements`: the connection's prepared statements (shared with sqlite-hot-path.ts); `path`: the
 * database file, whose WAL is flushed before writers are answered; undefined for `:memory:`.
 */
export function sqliteDialect(
  statements: StatementCache,
  path: string | undefined,
): { dialect: Dialect; durability: SqliteDurability } {
  const wal = new WalSync(path === undefined ? undefined : `${path}-wal`);
  const driver = new DurableSqliteDriver(statements, wal, path === undefined ? undefined : new Checkpointer(path));
  const durability: SqliteDurability = {
    wal,
    deferDurability: () => {
      driver.deferred = true;
    },
    runNow: (work, defer) => driver.runNow(work, defer),
  };
  return {
    durability,
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => driver,
      createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  };
}
