import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/** The transfers' columns this migration's function inserts, each from the JSON's field of its name. */
const TRANSFER_COLUMNS =
  'payment_id, seq, tpp_id, psu_key, amount_minor, currency, creditor_name, creditor_account, duplicate_key, status, status_reason, created_at';

/** The tpp_requests columns this migration's function inserts. */
export const REQUEST_COLUMNS =
  'tpp_id, request_id, operation, body_sha256, response_status, response_body, payment_id, created_at';

/** The parts of this migration's function that migration 012 changed (its down puts them back). */
export const FUNCTION_PARTS = {
  duplicateWhere: `      where t.tpp_id = pay->>'tpp_id' and t.psu_key = pay->>'psu_key'
        and t.duplicate_key in (select x->>'duplicate_key' from jsonb_array_elements(xfers) x)`,
  transferColumns: TRANSFER_COLUMNS,
  transferValues: TRANSFER_COLUMNS,
};

/**
 * PostgreSQL: a payment create in one round trip (src/store/postgres/postgres-hot-path.ts). The
 * function takes the PSU's advisory lock, answers a retried X-Request-ID with its stored request,
 * looks for logical duplicates, and inserts the request, the payment, its SCA authorisation and its
 * transfers, in the one transaction of the call: the lock is held for the function's run, not over
 * a round trip per statement (docs/decisions/0102). The
 * rows arrive as JSON objects keyed by column (src/store/payment-rows.ts); the columns are named
 * here, so that a column added later with a default keeps it. SQLite needs no function: its creates
 * run in-process (sqlite-hot-path.ts).
 */
export const createPaymentFunctionMigration: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    await sql.raw(createPaymentFunction({ ...FUNCTION_PARTS, head: 'create function' })).execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    await sql`drop function psd2_create_payment(text, jsonb, jsonb, jsonb, jsonb, text)`.execute(db);
  },
};

/**
 * The function's text, with what later migrations change in it as parameters (migration 012: the
 * duplicate look-up by duplicate_hash and the transfers' new column), so that each migration's
 * function stays what it was when it ran and the rest is written once.
 */
export function createPaymentFunction(parts: {
  head: string;
  duplicateWhere: string;
  transferColumns: string;
  transferValues: string;
  /** The tpp_requests columns inserted (migration 026 adds response_headers); this migration's when left out. */
  requestColumns?: string;
  /** Statements after the transfers' insert (migration 026: the notification subscription); none when left out. */
  afterTransfers?: string;
}): string {
  const { head, duplicateWhere, transferColumns, transferValues } = parts;
  const requestColumns = parts.requestColumns ?? REQUEST_COLUMNS;
  const afterTransfers = parts.afterTransfers ?? '';
  return `
${head} psd2_create_payment(lock_key text, req jsonb, pay jsonb, auth jsonb, xfers jsonb, duplicates_since text) returns jsonb
language plpgsql as $fn$
declare
  earlier jsonb;
  duplicates jsonb;
begin
  perform pg_advisory_xact_lock(hashtextextended(lock_key, 0));
  select to_jsonb(r) into earlier from tpp_requests r where r.tpp_id = req->>'tpp_id' and r.request_id = req->>'request_id';
  if earlier is not null then
    return jsonb_build_object('outcome', 'replayed', 'request', earlier);
  end if;
  if duplicates_since is not null then
    select jsonb_agg(jsonb_build_object('payment_id', t.payment_id, 'duplicate_key', t.duplicate_key, 'created_at', t.created_at) order by t.created_at desc)
      into duplicates
      from transfers t
${duplicateWhere}
        and t.created_at >= duplicates_since and t.status not in ('RJCT', 'CANC');
    if duplicates is not null then
      return jsonb_build_object('outcome', 'duplicate', 'rows', duplicates);
    end if;
  end if;
  -- A concurrent create with the same X-Request-ID (another PSU, so another lock) may commit first:
  -- the primary key decides, and the loser answers with the winner's stored request.
  insert into tpp_requests (${requestColumns})
    select ${requestColumns}
    from jsonb_populate_record(null::tpp_requests, req)
    on conflict (tpp_id, request_id) do nothing;
  if not found then
    select to_jsonb(r) into earlier from tpp_requests r where r.tpp_id = req->>'tpp_id' and r.request_id = req->>'request_id';
    return jsonb_build_object('outcome', 'replayed', 'request', earlier);
  end if;
  insert into payments (id, bank, tpp_id, service, product, status, psu_key, psu_id, psu_national_id_hash, psu_corporate_id, psu_context,
      debtor_bban, debtor_iban, debtor_currency, requested_execution_date, entry_count, fee_minor, fee_currency, body, accept_fixes,
      tpp_redirect_uri, tpp_session_id, funds_available, status_reason, created_at, updated_at)
    select id, bank, tpp_id, service, product, status, psu_key, psu_id, psu_national_id_hash, psu_corporate_id, psu_context,
      debtor_bban, debtor_iban, debtor_currency, requested_execution_date, entry_count, fee_minor, fee_currency, body, accept_fixes,
      tpp_redirect_uri, tpp_session_id, funds_available, status_reason, created_at, updated_at
    from jsonb_populate_record(null::payments, pay);
  if auth is not null then
    insert into authorisations (id, token_hash, stage, kind, object_id, tpp_id, tpp_name, psu_id, psu_national_id_hash, psu_corporate_id, psu_context,
        auth_method, redirect_preferred, tpp_redirect_uri, tpp_session_id, status, customer_id, attempts, expires_at, created_at, updated_at)
      select id, token_hash, stage, kind, object_id, tpp_id, tpp_name, psu_id, psu_national_id_hash, psu_corporate_id, psu_context,
        auth_method, redirect_preferred, tpp_redirect_uri, tpp_session_id, status, customer_id, attempts, expires_at, created_at, updated_at
      from jsonb_populate_record(null::authorisations, auth);
  end if;
  insert into transfers (${transferColumns})
    select ${transferValues}
    from jsonb_populate_recordset(null::transfers, xfers);
${afterTransfers}  return jsonb_build_object('outcome', 'created');
end
$fn$`;
}
