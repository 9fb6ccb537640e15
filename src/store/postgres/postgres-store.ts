import { Kysely, PostgresDialect, type Transaction, sql } from 'kysely';
import pg from 'pg';
import { POSTGRES_POOL_SIZE } from '../../domain/limits.js';
import type { Database } from '../database.js';
import { KyselyStore } from '../kysely-store.js';
import type { NewPayment } from '../../domain/payments/payment.js';
import type { RequestBinding } from '../../domain/request-binding.js';
import type { CreatePaymentOptions, CreatePaymentResult, StoredPayment, TppRequestRecord } from '../store.js';
import { PostgresHotPath } from './postgres-hot-path.js';

/** 64-bit integers (amounts in minor units) come back as bigint, never as a lossy number or text. */
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => BigInt(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** PostgreSQL, for a bank running several server instances on one database. */
export class PostgresStore extends KyselyStore {
  readonly kind = 'postgres' as const;

  private readonly hot: PostgresHotPath;

  private constructor(db: Kysely<Database>, readonly pool: pg.Pool) {
    super(db);
    this.hot = new PostgresHotPath(pool);
  }

  // The operations of every signed request and every create, one round trip each (postgres-hot-path.ts).
  override createPayment(payment: NewPayment, request: TppRequestRecord, options: CreatePaymentOptions): Promise<CreatePaymentResult> {
    return this.hot.createPayment(payment, request, options);
  }

  override bindRequest(binding: RequestBinding, now: Date): Promise<RequestBinding | undefined> {
    return this.hot.bindRequest(binding, now);
  }

  override findPayment(tppId: string, paymentId: string): Promise<StoredPayment | undefined> {
    return this.hot.findPayment(tppId, paymentId);
  }

  override readClockOffset(bank: string): Promise<bigint> {
    return this.hot.readClockOffset(bank);
  }

  /** A transaction-scoped advisory lock on the key, released at commit or rollback. */
  protected override async lock(trx: Transaction<Database>, key: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  }

  static open(url: string): PostgresStore {
    const pool = new pg.Pool({ connectionString: url, max: POSTGRES_POOL_SIZE, types });
    // An idle client that loses its connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    // Nor a client checked out between two statements of a transaction (PostgreSQL restarted, or an
    // administrator ended the connection): the transaction's next statement fails, and is answered.
    pool.on('connect', (client) => client.on('error', () => undefined));
    return new PostgresStore(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pool);
  }
}
