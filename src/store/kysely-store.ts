import { type Kysely, type Transaction, sql } from 'kysely';
import type { NewPayment } from '../domain/payments/payment.js';
import type { RequestBinding } from '../domain/request-binding.js';
import type { Database } from './database.js';
import { KyselyBaskets } from './kysely/kysely-baskets.js';
import { KyselyBindings } from './kysely/kysely-bindings.js';
import { KyselyConsents } from './kysely/kysely-consents.js';
import { KyselyConsoleSessions } from './kysely/kysely-console-sessions.js';
import { KyselyHandovers } from './kysely/kysely-handovers.js';
import { KyselyLedger } from './kysely/kysely-ledger.js';
import { KyselyOverview } from './kysely/kysely-overview.js';
import { KyselyNotifications } from './kysely/kysely-notifications.js';
import { KyselyPayments } from './kysely/kysely-payments.js';
import { KyselySandboxData } from './kysely/kysely-sandbox-data.js';
import { KyselySca } from './kysely/kysely-sca.js';
import { KyselySnapshots } from './kysely/kysely-snapshots.js';
import { KyselyUpkeep } from './kysely/kysely-upkeep.js';
import { composeInto } from './kysely/compose-into.js';
import { appliedMigrations, migrateToLatest } from './migrations/migrate.js';
import type { SchemaScript } from './migrations/schema-script.js';
import type { RowKey } from './queries/retention-queries.js';
import type { RowReader } from './queries/row-reader.js';
import type { CreatePaymentOptions, CreatePaymentResult, Store, StoredPayment, TppRequestRecord } from './store.js';

/** What the parts composed in the constructor provide (composeInto): every area's methods of Store. */
export interface KyselyStore extends Store {}

/**
 * What both implementations share: the queries are Kysely's and run unchanged on either dialect.
 * The store is composed of one part per area (src/store/kysely/, each the implementation of one
 * area's interface), never a chain of classes; the subclasses open the connection and supply what
 * differs between the engines: locking, the hot path of every signed request and create, and the
 * schema script. A method a subclass defines itself (its hot path) is kept over the area's.
 */
export abstract class KyselyStore implements Store {
  abstract readonly kind: 'sqlite' | 'postgres';

  protected constructor(protected readonly db: Kysely<Database>) {
    const lock = (trx: Transaction<Database>, key: string) => this.lock(trx, key);
    // The key a chunked delete names rows by; read when used, since `kind` is the subclass's.
    const rowKey = (): RowKey => (this.kind === 'sqlite' ? 'rowid' : 'ctid');
    composeInto(this, [
      new KyselyBindings(db),
      new KyselyPayments(db),
      new KyselySca(db, lock),
      new KyselyBaskets(db, lock),
      new KyselyConsents(db, lock),
      new KyselyLedger(db, lock),
      new KyselySandboxData(db, lock, rowKey),
      new KyselyHandovers(db),
      new KyselyUpkeep(db, lock, rowKey),
      new KyselySnapshots(db, lock, rowKey, () => this.openSnapshotReader()),
      new KyselyOverview(db),
      new KyselyConsoleSessions(db, lock),
      new KyselyNotifications(db),
    ]);
  }

  /**
   * A reader of the rows a snapshot saves outside the store's connection (SQLite's second connection);
   * undefined where the store's own transaction does (PostgreSQL), or none can (a database in memory).
   */
  protected openSnapshotReader(): RowReader | undefined {
    return undefined;
  }

  /**
   * Serialises writers that take the same key within a transaction: two creates for one PSU cannot
   * both miss each other's logical duplicate, two instances cannot both load the default data.
   */
  protected abstract lock(trx: Transaction<Database>, key: string): Promise<void>;

  async migrate(): Promise<void> {
    await this.migrateSchema();
  }

  /** migrate, and whether it changed the schema (false when every migration was applied already). */
  protected migrateSchema(): Promise<boolean> {
    return migrateToLatest(this.db, this.schemaScript, (script) => this.runSchemaScript(script));
  }

  /** The schema script of this engine. */
  protected abstract readonly schemaScript: SchemaScript;

  /**
   * Runs the schema script and records its migrations as applied, all in one transaction, if the
   * database is still empty once this holds the migration lock; false when another instance made it first.
   */
  protected abstract runSchemaScript(script: SchemaScript): Promise<boolean>;

  appliedMigrations(): Promise<string[]> {
    return appliedMigrations(this.db);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }

  // The operations of every signed request and every create are each engine's own, on statements
  // written by hand (sqlite-hot-path.ts, postgres-hot-path.ts; docs/decisions/0102): the logical-duplicate
  // rule lives there and nowhere else.
  abstract createPayment(
    payment: NewPayment,
    request: TppRequestRecord,
    options: CreatePaymentOptions,
  ): Promise<CreatePaymentResult>;
  abstract bindRequest(binding: RequestBinding, now: Date): Promise<RequestBinding | undefined>;
  abstract findPayment(tppId: string, paymentId: string, bank: string): Promise<StoredPayment | undefined>;

  /** Every commit is on disk when it returns (PostgreSQL's synchronous_commit); SQLite's store overrides it. */
  durable(): Promise<void> {
    return Promise.resolve();
  }
}
