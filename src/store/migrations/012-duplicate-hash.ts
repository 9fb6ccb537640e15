import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';
import { duplicateHash, duplicateHashScope } from '../duplicate-hash.js';
import { FUNCTION_PARTS, createPaymentFunction } from './009-create-payment-function.js';

/** The transfers' columns as psd2_create_payment inserts them since this migration: migration 009's and duplicate_hash. */
const TRANSFER_COLUMNS = FUNCTION_PARTS.transferColumns.replace('duplicate_key,', 'duplicate_key, duplicate_hash,');

/** Rows of transfers SQLite's backfill reads at a time. */
const BACKFILL_BATCH_ROWS = 10_000;

/** A transfer's hash as its JSON gives it, or for an instance of the version before, which sends none, as SQL computes it. */
const HASH_OF_TRANSFER = `coalesce((x->>'duplicate_hash')::bigint, psd2_duplicate_hash(pay->>'tpp_id', pay->>'psu_key', x->>'duplicate_key'))`;

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
 * places were most of what a bulk create cost (bench/README.md, "Bulk").
 * - The rows stored before are given their hash: PostgreSQL computes it in SQL (psd2_duplicate_hash);
 *   SQLite, which has neither SHA-256 nor hexadecimal numbers in SQL, in the migration, row by row.
 * - PostgreSQL's psd2_create_payment looks duplicates up by the hash, and inserts the one it is given
 *   or, from an instance of the version before, computes it.
 */
export const duplicateHashMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('transfers').addColumn('duplicate_hash', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      const scopes = new Map<string, bigint>();
      // A batch of rows at a time, in rowid order: a sandbox's table of millions is never held whole.
      for (let after = 0; ;) {
        const { rows } = await sql<{ id: number; tpp_id: string; psu_key: string; duplicate_key: string }>`select rowid as id, tpp_id, psu_key, duplicate_key
          from transfers where rowid > ${after} order by rowid limit ${BACKFILL_BATCH_ROWS}`.execute(db);
        if (rows.length === 0) break;
        for (const row of rows) {
          const scopeKey = `${row.tpp_id}\n${row.psu_key}`;
          let scope = scopes.get(scopeKey);
          if (scope === undefined) scopes.set(scopeKey, (scope = duplicateHashScope(row.tpp_id, row.psu_key)));
          await sql`update transfers set duplicate_hash = ${duplicateHash(scope, row.duplicate_key)} where rowid = ${row.id}`.execute(db);
        }
        after = rows.at(-1)!.id;
      }
    } else {
      await sql.raw(DUPLICATE_HASH_FUNCTION).execute(db);
      await sql`update transfers set duplicate_hash = psd2_duplicate_hash(tpp_id, psu_key, duplicate_key)`.execute(db);
      await sql.raw(createPaymentFunction({
        head: 'create or replace function',
        duplicateWhere: `      where t.duplicate_hash in (select ${HASH_OF_TRANSFER} from jsonb_array_elements(xfers) x)
        and t.tpp_id = pay->>'tpp_id' and t.psu_key = pay->>'psu_key'
        and t.duplicate_key in (select x->>'duplicate_key' from jsonb_array_elements(xfers) x)`,
        transferColumns: TRANSFER_COLUMNS,
        transferValues: TRANSFER_COLUMNS.replace('duplicate_hash', 'coalesce(duplicate_hash, psd2_duplicate_hash(tpp_id, psu_key, duplicate_key))'),
      })).execute(db);
    }
    await db.schema.dropIndex('transfers_duplicates').execute();
    await db.schema.createIndex('transfers_duplicate_hash').on('transfers').column('duplicate_hash').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('transfers_duplicate_hash').execute();
    await db.schema.createIndex('transfers_duplicates').on('transfers').columns(['tpp_id', 'psu_key', 'duplicate_key']).execute();
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
      await sql.raw(createPaymentFunction({ ...FUNCTION_PARTS, head: 'create or replace function' })).execute(db);
      await sql`drop function psd2_duplicate_hash(text, text, text)`.execute(db);
    }
    await db.schema.alterTable('transfers').dropColumn('duplicate_hash').execute();
  },
};
