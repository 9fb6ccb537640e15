import type BetterSqlite3 from 'better-sqlite3';

interface Queued {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** What one queued write came to, within the batch's transaction. */
interface Outcome {
  value?: unknown;
  error?: unknown;
  failed: boolean;
}

/**
 * Group commit of the hot writes (a request's X-Request-ID binding, a create): the writes asked for
 * in one turn of the event loop run in one IMMEDIATE transaction, in the order they were asked for,
 * each in a savepoint of its own, so that one that fails is undone alone and fails alone.
 *
 * What a commit costs on SQLite is mostly the pages it writes to the WAL, each whole, once per
 * commit (bench/history.md, "Where the time goes"). Rows of one moment share their tables' last
 * pages (time-ordered ids, src/domain/time-ordered-id.ts), so a commit of many creates writes those
 * pages once for all of them, and the BEGIN and COMMIT are paid once too.
 *
 * Nothing changes for the callers: each write sees the ones before it in the batch, as it would
 * have seen them committed before it; durability is still waited for (WalSync) before any answer.
 */
export class SqliteWriteBatch {
  private queue: Queued[] = [];
  private scheduled = false;
  private readonly runAll: BetterSqlite3.Transaction<(batch: readonly Queued[]) => Outcome[]>;
  private readonly savepoint: BetterSqlite3.Transaction<(work: () => unknown) => unknown>;

  /**
   * `hold`: runs synchronous work while holding the connection (no other use of it in between), and
   * resolves once the connection is released and the commit counted for the WAL's next flush
   * (without waiting for that flush); a failure of the work, or of holding, is its rejection.
   */
  constructor(
    private readonly connection: BetterSqlite3.Database,
    private readonly hold: (work: () => void) => Promise<void>,
  ) {
    // Nested in runAll's transaction, better-sqlite3 makes each of these a savepoint.
    this.savepoint = connection.transaction((work: () => unknown) => work());
    this.runAll = connection.transaction((batch: readonly Queued[]) => {
      const outcomes: Outcome[] = [];
      for (const queued of batch) {
        try {
          outcomes.push({ value: this.savepoint(queued.work), failed: false });
        } catch (error) {
          // A failure that ended the whole transaction (SQLITE_FULL, an I/O error) leaves nothing to
          // run the rest in, nor to commit: every write of the batch fails with that cause.
          if (!connection.inTransaction) throw error;
          outcomes.push({ error, failed: true });
        }
      }
      return outcomes;
    });
  }

  /** Runs `work` (synchronous, on the connection) in the next batch; resolves once that batch is committed. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the I/O of this turn: every request whose data arrived in it has asked for its write.
        setImmediate(() => this.commit());
      }
    });
  }

  private commit(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    let outcomes: Outcome[] = [];
    const failAll = (error: unknown) => {
      for (const queued of batch) queued.reject(error);
    };
    const held = this.hold(() => {
      // Inside another transaction (the migration's, begun outside Kysely) the batch would be a
      // savepoint of it, committed or rolled back with it after its writers were answered.
      if (this.connection.inTransaction)
        throw new Error('the write batch cannot run inside another transaction on its connection');
      outcomes = this.runAll.immediate(batch);
    });
    held.then(() => {
      // Settled only once the connection is released: the commit is then counted for the WAL's
      // flush, so a caller's wait for durability covers it.
      outcomes.forEach((outcome, index) => {
        if (outcome.failed) batch[index]!.reject(outcome.error);
        else batch[index]!.resolve(outcome.value);
      });
    }, failAll); // BEGIN or COMMIT failed, or a write ended the transaction: nothing of the batch is committed.
  }
}
