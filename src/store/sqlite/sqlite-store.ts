import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, type Transaction } from 'kysely';
import { FALLBACK_AUTOCHECKPOINT_PAGES } from './checkpointer.js';
import { type SqliteDurability, sqliteDialect } from './sqlite-dialect.js';
import { SqliteHotPath } from './sqlite-hot-path.js';
import type { ArmedScenario } from '../../domain/sandbox-scenarios.js';
import { StatementCache } from './statement-cache.js';
import { openSnapshotReader } from './snapshot-reader.js';
import type { RowReader } from '../queries/row-reader.js';
import { SqliteWriteBatch } from './write-batch.js';
import { openInWalMode } from './wal-mode.js';
import type { NewPayment } from '../../domain/payments/payment.js';
import type { RequestBinding } from '../../domain/request-binding.js';
import type { SandboxTransaction, TransactionPage } from '../sandbox-records.js';
import type {
  CreatePaymentOptions,
  CreatePaymentResult,
  StoredPayment,
  StoredTppRequest,
  TppRequestRecord,
} from '../store.js';
import type { Database } from '../database.js';
import { KyselyStore } from '../kysely-store.js';
import type { SchemaScript } from '../migrations/schema-script.js';
import { sqliteSchema } from '../migrations/sqlite-schema.js';

/**
 * The embedded store: one SQLite file through better-sqlite3. WAL lets status reads run beside
 * writes. Commits are made durable in groups: synchronous=NORMAL writes them to the WAL, and the
 * driver flushes the WAL (one fsync for every commit made before it) before it answers, so a payment
 * answered 201 is on disk (see sqlite-dialect.ts and wal-sync.ts). A worker thread checkpoints the
 * WAL (checkpointer.ts).
 */
export class SqliteStore extends KyselyStore {
  readonly kind = 'sqlite' as const;

  private readonly hot: SqliteHotPath;
  /** The writes of every signed request and every create, committed in groups (write-batch.ts). */
  private readonly batch: SqliteWriteBatch;

  private constructor(
    db: Kysely<Database>,
    readonly connection: BetterSqlite3.Database,
    statements: StatementCache,
    private readonly durability: SqliteDurability,
  ) {
    super(db);
    this.hot = new SqliteHotPath(connection, statements);
    // The batch's commit is not waited for while the connection is held: each write's caller waits
    // for the flush that covers it (createPayment below; a binding's answer, durable()).
    this.batch = new SqliteWriteBatch(connection, (work) => this.exclusive(work, { deferDurability: true }));
  }

  // The operations of every signed request and every create, on prepared statements (sqlite-hot-path.ts).
  override async createPayment(
    payment: NewPayment,
    request: TppRequestRecord,
    options: CreatePaymentOptions,
  ): Promise<CreatePaymentResult> {
    const result = await this.batch.run(() => this.hot.createPayment(payment, request, options));
    await this.durable();
    return result;
  }

  /**
   * Committed before the request goes on, but not waited for: the request's own write, or its answer
   * (durable()), waits for a flush that covers the binding too, since the WAL is flushed in order.
   * A create then waits for one flush, not two.
   */
  override bindRequest(binding: RequestBinding, now: Date): Promise<RequestBinding | undefined> {
    return this.batch.run(() => this.hot.bindRequest(binding, now));
  }

  protected override openSnapshotReader(): RowReader | undefined {
    return openSnapshotReader(this.connection);
  }

  override durable(): Promise<void> {
    return this.durability.wal.durable();
  }

  override findTppRequest(tppId: string, requestId: string): Promise<StoredTppRequest | undefined> {
    return this.exclusive(() => this.hot.findTppRequest(tppId, requestId));
  }

  override findPayment(tppId: string, paymentId: string, bank: string): Promise<StoredPayment | undefined> {
    return this.exclusive(() => this.hot.findPayment(tppId, paymentId, bank));
  }

  override listSandboxTransactions(accountId: string, page: TransactionPage): Promise<SandboxTransaction[]> {
    return this.exclusive(() => this.hot.listSandboxTransactions(accountId, page));
  }

  override listBankFaults(bank: string): Promise<ArmedScenario[]> {
    return this.exclusive(() => this.hot.listBankFaults(bank));
  }

  override readClockOffset(bank: string): Promise<bigint> {
    return this.exclusive(() => this.hot.readClockOffset(bank));
  }

  /**
   * Runs synchronous work on the connection with no other use of it in between: at once when no use
   * through Kysely holds it, else in its turn as Kysely's own uses are. Once done, a use that wrote
   * or read waits for the WAL flush of what it may have seen, unless `deferDurability` (its caller
   * waits for that itself).
   */
  private exclusive<T>(work: () => T, options: { deferDurability: boolean } = { deferDurability: false }): Promise<T> {
    return (
      this.durability.runNow(work, options.deferDurability) ??
      this.db.connection().execute(async () => {
        if (options.deferDurability) this.durability.deferDurability();
        return work();
      })
    );
  }

  /** Transactions begin IMMEDIATE: they hold SQLite's write lock, so writers are serialised already. */
  protected override async lock(_trx: Transaction<Database>, _key: string): Promise<void> {}

  /**
   * Kysely's SQLite migrator takes no lock (it assumes one connection), so two processes starting on
   * one file would run the same migration twice. BEGIN IMMEDIATE takes SQLite's write lock around the
   * whole run: the second process waits (busy_timeout), then finds the migrations applied.
   */
  override migrate(): Promise<void> {
    // One connection holds one transaction: a second call waits for the first.
    // Foreign keys are off while migrations run (a pragma that only works outside a transaction):
    // SQLite rebuilds a table to change its constraints, and dropping the old one must not cascade
    // (migration 008). They are checked before the commit, so nothing dangling is committed. A start
    // that finds every migration applied checks nothing: the check reads every row of every table
    // with a foreign key, which grows with the data, and no row changed.
    this.migration = this.migration
      .catch(() => undefined)
      .then(async () => {
        this.connection.pragma('foreign_keys = OFF');
        this.connection.exec('BEGIN IMMEDIATE');
        try {
          const changed = await this.migrateSchema();
          const dangling = changed ? (this.connection.pragma('foreign_key_check') as unknown[]) : [];
          if (dangling.length > 0)
            throw new Error(
              `database migration left ${dangling.length} rows whose foreign keys name nothing: ${JSON.stringify(dangling.slice(0, 3), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`,
            );
          this.connection.exec('COMMIT');
        } catch (error) {
          if (this.connection.inTransaction) this.connection.exec('ROLLBACK');
          throw error;
        } finally {
          this.connection.pragma('foreign_keys = ON');
        }
      });
    return this.migration;
  }

  private migration: Promise<void> = Promise.resolve();

  protected override readonly schemaScript = sqliteSchema;

  /** Runs within migrate()'s BEGIN IMMEDIATE: no other process can have made the schema since it found the database empty. */
  protected override async runSchemaScript(script: SchemaScript): Promise<boolean> {
    // One at a time: SQLite keeps each CREATE's text as written, and a joined script would add to it.
    for (const statement of script.statements) this.connection.exec(statement);
    const record = this.connection.prepare('insert into kysely_migration (name, timestamp) values (?, ?)');
    const now = new Date().toISOString();
    for (const name of script.migrations) record.run(name, now);
    return true;
  }

  static open(path: string): SqliteStore {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const connection = new BetterSqlite3(path);
    openInWalMode(connection);
    connection.pragma('synchronous = NORMAL');
    connection.pragma('foreign_keys = ON');
    // Each create's savepoint copies the pages it changes into the sub-journal; kept on file, that
    // copy cost every create a temporary file's writes (docs/decisions/0364).
    connection.pragma('temp_store = MEMORY');
    connection.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    connection.defaultSafeIntegers(true);
    const statements = new StatementCache(connection);
    const { dialect, durability } = sqliteDialect(statements, path === ':memory:' ? undefined : path);
    return new SqliteStore(new Kysely<Database>({ dialect }), connection, statements, durability);
  }
}
