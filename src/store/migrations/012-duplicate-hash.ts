import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';
import { duplicateHash } from '../duplicate-hash.js';
import { backfillTransfers } from './transfer-backfill.js';
import { FUNCTION_PARTS, createPaymentFunction } from './009-create-payment-function.js';

/** The transfers' columns as psd2_create_payment inserts them since this migration: migration 009's and duplicate_hash. */
const TRANSFER_COLUMNS = FUNCTION_PARTS.transferColumns.replace('duplicate_key,', 'duplicate_key, duplicate_hash,');

/** A transfer's hash as its JSON gives it, or for an instance of the version before, which sends none, as SQL computes it. */
const HASH_OF_TRANSFER = `coalesce((x->>'duplicate_hash')::bigint, psd2_duplicate_hash(pay->>'tpp_id', pay->>'psu_key', x->>'duplicate_key'))`;

/** The same of a row of jsonb_populate_recordset(null::transfers, xfers), as the function inserts it. */
const HASH_OF_ROW = 'coalesce(duplicate_hash, psd2_duplicate_hash(tpp_id, psu_key, duplicate_key))';

/** The parts of psd2_create_payment this migration made, and what migration 013 builds on (its down puts them back). */
export const DUPLICATE_HASH_PARTS = {
  transferColumns: TRANSFER_COLUMNS,
  hashOfTransfer: HASH_OF_TRANSFER,
  hashOfRow: HASH_OF_ROW,
  function: {
    duplicateWhere: `      where t.duplicate_hash in (select ${HASH_OF_TRANSFER} from jsonb_array_elements(xfers) x)
        and t.tpp_id = pay->>'tpp_id' and t.psu_key = pay->>'psu_key'
        and t.duplicate_key in (select x->>'duplicate_key' from jsonb_array_elements(xfers) x)`,
    transferColumns: TRANSFER_COLUMNS,
    transferValues: TRANSFER_COLUMNS.replace('duplicate_hash', HASH_OF_ROW),
  },
};

/**
 * src/store/duplicate-hash.ts in SQL, for the rows stored before this migration and for the
 * instances of the version before it: during a rolling upgrade they still call psd2_create_payment
 * without duplicate_hash in their transfers, and the function computes it for them.
 */
const DUPLICATE_HASH_FUNCTION = `create function psd2_duplicate_hash(tpp_id text, psu_key text, duplicate_key text) returns bigint
language sql immutable strict parallel safe as $$
  select ('x' || substr(duplicate_key, 1, 16))::bit(64)::bigint
    # ('x' || substr(encode(sha256(convert_to(tpp_id || chr(10) || psu_key, 'UTF8')), 'hex'), 1, 16))::bit(64)::bigint
$$`;

/**
 * transfers.duplicate_hash (src/store/duplicate-hash.ts): the logical-duplicate look-up by one
 * integer, in place of the index on (tpp_id, psu_key, duplicate_key), whose wide entries at random
 * places are most of what a bulk create costs with it (bench/history.md, "Bulk").
 * - The rows stored before are given their hash: PostgreSQL computes it in SQL (psd2_duplicate_hash);
 *   SQLite, which has neither SHA-256 nor hexadecimal numbers in SQL, in the migration, row by row.
 * - PostgreSQL's psd2_create_payment looks duplicates up by the hash, and inserts the one it is given
 *   or, from an instance of the version before, computes it.
 */
export const duplicateHashMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('transfers')
      .addColumn('duplicate_hash', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await backfillTransfers(
        db,
        (row) =>
          sql`update transfers set duplicate_hash = ${duplicateHash(row.scope, row.duplicate_key)} where rowid = ${row.id}`,
      );
    } else {
      await sql.raw(DUPLICATE_HASH_FUNCTION).execute(db);
      await sql`update transfers set duplicate_hash = psd2_duplicate_hash(tpp_id, psu_key, duplicate_key)`.execute(db);
      await sql
        .raw(createPaymentFunction({ ...DUPLICATE_HASH_PARTS.function, head: 'create or replace function' }))
        .execute(db);
    }
    await db.schema.dropIndex('transfers_duplicates').execute();
    await db.schema.createIndex('transfers_duplicate_hash').on('transfers').column('duplicate_hash').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('transfers_duplicate_hash').execute();
    await db.schema
      .createIndex('transfers_duplicates')
      .on('transfers')
      .columns(['tpp_id', 'psu_key', 'duplicate_key'])
      .execute();
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
      await sql.raw(createPaymentFunction({ ...FUNCTION_PARTS, head: 'create or replace function' })).execute(db);
      await sql`drop function psd2_duplicate_hash(text, text, text)`.execute(db);
    }
    await db.schema.alterTable('transfers').dropColumn('duplicate_hash').execute();
  },
};
