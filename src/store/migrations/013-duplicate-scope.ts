import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';
import { LOGICAL_DUPLICATE_WINDOW_HOURS } from '../../domain/limits.js';
import { duplicateDay } from '../duplicate-hash.js';
import { backfillTransfers } from './transfer-backfill.js';
import { createPaymentFunction } from './009-create-payment-function.js';
import { DUPLICATE_HASH_PARTS } from './012-duplicate-hash.js';

/** The transfers' columns as psd2_create_payment inserts them since this migration: migration 012's, duplicate_scope and duplicate_day. */
const TRANSFER_COLUMNS = DUPLICATE_HASH_PARTS.transferColumns.replace(
  'duplicate_hash,',
  'duplicate_hash, duplicate_scope, duplicate_day,',
);

/**
 * The rows the migration gives their scope and day: those no older than the logical-duplicate window
 * and a day more, by the wall clock. No look-up reaches an older row (a sandbox bank's clock is never
 * behind the wall clock, so its window starts no earlier), and older rows keep 0: on a table of
 * years of transfers the migration rewrites days of them, not all.
 */
const BACKFILL_HOURS = LOGICAL_DUPLICATE_WINDOW_HOURS + 24;

/**
 * src/store/duplicate-hash.ts in SQL, for the rows stored before this migration and for the
 * instances of the version before it: during a rolling upgrade they still call psd2_create_payment
 * without duplicate_scope and duplicate_day in their transfers, and the function computes them.
 * created_at is an ISO instant in UTC (Date.toISOString), so its date is its UTC day; a year after
 * 9999 is written with six digits and a sign (+010000-01-01T…), which the day reads too.
 */
const SCOPE_FUNCTIONS = [
  `create function psd2_duplicate_scope(tpp_id text, psu_key text) returns bigint
language sql immutable strict parallel safe as $$
  select ('x' || substr(encode(sha256(convert_to(tpp_id || chr(10) || psu_key, 'UTF8')), 'hex'), 1, 16))::bit(64)::bigint
$$`,
  `create function psd2_duplicate_day(created_at text) returns integer
language sql immutable strict parallel safe as $$
  select make_date(p[1]::int, p[2]::int, p[3]::int) - date '1970-01-01' from regexp_match(created_at, '^\\+?(\\d{4,6})-(\\d\\d)-(\\d\\d)') p
$$`,
];

/**
 * The look-up: one probe of the index for each hash on each day from the window's start to the day
 * after the payment's (src/store/duplicate-hash.ts, duplicateDays), both lists made before the scan
 * so that PostgreSQL takes them as the index's keys.
 */
const DUPLICATE_WHERE = `      where t.duplicate_scope = psd2_duplicate_scope(pay->>'tpp_id', pay->>'psu_key')
        and t.duplicate_day = any (array(select generate_series(psd2_duplicate_day(duplicates_since), psd2_duplicate_day(pay->>'created_at') + 1)))
        and t.duplicate_hash = any (array(select ${DUPLICATE_HASH_PARTS.hashOfTransfer} from jsonb_array_elements(xfers) x))
        and t.tpp_id = pay->>'tpp_id' and t.psu_key = pay->>'psu_key'
        and t.duplicate_key in (select x->>'duplicate_key' from jsonb_array_elements(xfers) x)`;

/** The parts of psd2_create_payment this migration made, and what migration 026 builds on (its down puts them back). */
export const DUPLICATE_SCOPE_PARTS = {
  duplicateWhere: DUPLICATE_WHERE,
  transferColumns: TRANSFER_COLUMNS,
  transferValues: TRANSFER_COLUMNS.replace(
    'duplicate_hash, duplicate_scope, duplicate_day,',
    `${DUPLICATE_HASH_PARTS.hashOfRow},
      coalesce(duplicate_scope, psd2_duplicate_scope(tpp_id, psu_key)), coalesce(duplicate_day, psd2_duplicate_day(created_at)),`,
  ),
};

/**
 * transfers.duplicate_scope and duplicate_day, and the logical-duplicate look-up by the index on
 * (duplicate_scope, duplicate_day, duplicate_hash) in place of the one on duplicate_hash alone, whose
 * entries go to random pages: a bulk dirties about a page of it per entry, each written whole to the
 * WAL, more the larger the table (bench/history.md, "Bulk"). Led by the PSU and the day,
 * a bulk's entries go into its PSU's run of that day.
 * - The rows stored within the window before are given theirs (BACKFILL_HOURS): PostgreSQL computes
 *   them in SQL; SQLite, which has no SHA-256 in SQL, in the migration, row by row.
 * - PostgreSQL's psd2_create_payment looks duplicates up by the three, and inserts the ones it is
 *   given or, from an instance of the version before, computes them.
 */
export const duplicateScopeMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('transfers')
      .addColumn('duplicate_scope', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('transfers')
      .addColumn('duplicate_day', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await backfillTransfers(
        db,
        (row) =>
          sql`update transfers set duplicate_scope = ${row.scope}, duplicate_day = ${duplicateDay(new Date(row.created_at))} where rowid = ${row.id}`,
        new Date(Date.now() - BACKFILL_HOURS * 3_600_000).toISOString(),
      );
    } else {
      for (const statement of SCOPE_FUNCTIONS) await sql.raw(statement).execute(db);
      // The same instant in SQL, written as Node writes created_at, so that the recorded script (schema-script.ts) stays the same text.
      await sql
        .raw(
          `update transfers set duplicate_scope = psd2_duplicate_scope(tpp_id, psu_key), duplicate_day = psd2_duplicate_day(created_at)
        where created_at >= to_char(now() at time zone 'UTC' - interval '${BACKFILL_HOURS} hours', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
        )
        .execute(db);
      await sql
        .raw(createPaymentFunction({ head: 'create or replace function', ...DUPLICATE_SCOPE_PARTS }))
        .execute(db);
    }
    await db.schema.dropIndex('transfers_duplicate_hash').execute();
    await db.schema
      .createIndex('transfers_duplicate_scope')
      .on('transfers')
      .columns(['duplicate_scope', 'duplicate_day', 'duplicate_hash'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('transfers_duplicate_scope').execute();
    await db.schema.createIndex('transfers_duplicate_hash').on('transfers').column('duplicate_hash').execute();
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
      await sql
        .raw(createPaymentFunction({ ...DUPLICATE_HASH_PARTS.function, head: 'create or replace function' }))
        .execute(db);
      await sql`drop function psd2_duplicate_day(text)`.execute(db);
      await sql`drop function psd2_duplicate_scope(text, text)`.execute(db);
    }
    await db.schema.alterTable('transfers').dropColumn('duplicate_day').execute();
    await db.schema.alterTable('transfers').dropColumn('duplicate_scope').execute();
  },
};
