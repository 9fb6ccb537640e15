import { Kysely, PostgresDialect, type Transaction, sql } from 'kysely';
import pg from 'pg';
import { POSTGRES_CONNECT_TIMEOUT_MS, POSTGRES_POOL_SIZE } from '../../domain/limits.js';
import type { Database } from '../database.js';
import { KyselyStore } from '../kysely-store.js';
import type { NewPayment } from '../../domain/payments/payment.js';
import type { RequestBinding } from '../../domain/request-binding.js';
import type { CreatePaymentOptions, CreatePaymentResult, StoredPayment, TppRequestRecord } from '../store.js';
import { PostgresHotPath } from './postgres-hot-path.js';
import { postgresSchema } from '../migrations/postgres-schema.js';
import type { SchemaScript } from '../migrations/schema-script.js';

/** 64-bit integers (amounts in minor units) come back as bigint, never as a lossy number or text. */
const INT8_OID = 20;
/** The key of the advisory lock Kysely's migrator holds while it migrates (kysely/dist/esm/dialect/postgres/postgres-adapter.js). */
const MIGRATION_LOCK_ID = '3853314791062309107';

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (value: string) => BigInt(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** PostgreSQL, for a bank running several server instances on one database. */
export class PostgresStore extends KyselyStore {
  readonly kind = 'postgres' as const;

  private readonly hot: PostgresHotPath;

  private constructor(
    db: Kysely<Database>,
    readonly pool: pg.Pool,
  ) {
    super(db);
    this.hot = new PostgresHotPath(pool);
  }

  // The operations of every signed request and every create, one round trip each (postgres-hot-path.ts).
  override createPayment(
    payment: NewPayment,
    request: TppRequestRecord,
    options: CreatePaymentOptions,
  ): Promise<CreatePaymentResult> {
    return this.hot.createPayment(payment, request, options);
  }

  override bindRequest(binding: RequestBinding, now: Date): Promise<RequestBinding | undefined> {
    return this.hot.bindRequest(binding, now);
  }

  override findPayment(tppId: string, paymentId: string, bank: string): Promise<StoredPayment | undefined> {
    return this.hot.findPayment(tppId, paymentId, bank);
  }

  override readClockOffset(bank: string): Promise<bigint> {
    return this.hot.readClockOffset(bank);
  }

  /** A transaction-scoped advisory lock on the key, released at commit or rollback. */
  protected override async lock(trx: Transaction<Database>, key: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  }

  protected override readonly schemaScript = postgresSchema;

  /**
   * Instances starting together on an empty database all find it empty: the first to take the
   * migrator's lock runs the script, and the others, once they have the lock, find the migration
   * table and return false (their migrator then finds every migration applied).
   */
  protected override async runSchemaScript(script: SchemaScript): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${sql.raw(MIGRATION_LOCK_ID)})`.execute(trx);
      const { rows } = await sql<{ made: boolean }>`select to_regclass('kysely_migration') is not null as made`.execute(
        trx,
      );
      if (rows[0]?.made !== false) return false;
      // Without parameters the statements go as one simple query: one round trip.
      await sql.raw(script.statements.join(';\n')).execute(trx);
      await sql`insert into kysely_migration (name, timestamp) select unnest(${[...script.migrations]}::text[]), ${new Date().toISOString()}`.execute(
        trx,
      );
      return true;
    });
  }

  static open(url: string): PostgresStore {
    const pool = new pg.Pool({
      connectionString: url,
      max: POSTGRES_POOL_SIZE,
      connectionTimeoutMillis: connectTimeoutMs(url),
      types,
    });
    // An idle client that loses its connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    // Nor a client checked out between two statements of a transaction (PostgreSQL restarted, or an
    // administrator ended the connection): the transaction's next statement fails, and is answered.
    pool.on('connect', (client) => client.on('error', () => undefined));
    return new PostgresStore(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pool);
  }
}

/** The URL's libpq `connect_timeout` (whole seconds, at least 1), else POSTGRES_CONNECT_TIMEOUT_MS. */
function connectTimeoutMs(url: string): number {
  let seconds: string | null = null;
  try {
    seconds = new URL(url).searchParams.get('connect_timeout');
  } catch {
    // Not a URL (a libpq key=value string): pg reads it; the default applies.
  }
  const n = seconds === null ? NaN : Number(seconds);
  return Number.isInteger(n) && n > 0 ? n * 1000 : POSTGRES_CONNECT_TIMEOUT_MS;
}
