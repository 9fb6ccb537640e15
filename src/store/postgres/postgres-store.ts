import { Kysely, PostgresDialect, type Transaction, sql } from 'kysely';
import pg from 'pg';
import { POSTGRES_POOL_SIZE } from '../../domain/limits.js';
import type { Database } from '../database.js';
import { KyselyStore } from '../kysely-store.js';

/** 64-bit integers (amounts in minor units) come back as bigint, never as a lossy number or text. */
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => BigInt(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** PostgreSQL, for a bank running several server instances on one database. */
export class PostgresStore extends KyselyStore {
  readonly kind = 'postgres' as const;

  private constructor(db: Kysely<Database>, readonly pool: pg.Pool) {
    super(db);
  }

  /** A transaction-scoped advisory lock on the key, released at commit or rollback. */
  protected override async lock(trx: Transaction<Database>, key: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  }

  static open(url: string): PostgresStore {
    const pool = new pg.Pool({ connectionString: url, max: POSTGRES_POOL_SIZE, types });
    // An idle client that loses its connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    return new PostgresStore(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pool);
  }
}
