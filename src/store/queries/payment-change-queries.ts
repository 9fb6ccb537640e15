import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type { Database } from '../database.js';
import { type ChangePlace, FEED_BEGINNING, type PaymentChange, type PaymentChangeQuery } from '../payment-store.js';

/**
 * Payments of one creator in a bank in the order their status changed (the transaction, then
 * change_seq, which the triggers of migrations 030 and 031 write with every change), after a place,
 * oldest first; or one payment's. The reference core's feed of status reports
 * (src/core/embedded/ledger-payments.ts) reads it.
 *
 * On PostgreSQL, only changes of transactions older than the oldest one still running
 * (pg_snapshot_xmin): those have all ended, so no change can still appear before a place given out,
 * however long a transaction takes to commit. A transaction still open holds the feed back, never
 * loses a change of it (docs/decisions/0348). SQLite needs no such limit: its one writer at a time
 * numbers the changes in the order they commit.
 */
export async function paymentChanges(
  db: Kysely<Database>,
  tppId: string,
  bank: string,
  query: PaymentChangeQuery,
): Promise<PaymentChange[]> {
  const changes = db
    .selectFrom('payments')
    .select(['id', 'service', 'status', 'status_reason', 'updated_at', 'change_xid', 'change_seq'])
    .where('tpp_id', '=', tppId)
    .where('bank', '=', bank);
  if ('paymentId' in query) return (await changes.where('id', '=', query.paymentId).execute()).map(changeOf);
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const from = sqlite ? query.after : await placeOnThisServer(db, query.after);
  let after = changes
    // Names the partial index's predicate to both engines.
    .where('change_seq', 'is not', null)
    .where(sql<boolean>`(change_xid, change_seq) > (${from.transaction}, ${from.seq})`);
  if (!sqlite) after = after.where(sql<boolean>`change_xid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`);
  const rows = await after.orderBy('change_xid').orderBy('change_seq').limit(query.limit).execute();
  return rows.map(changeOf);
}

/**
 * A transaction id is one PostgreSQL server's count: a dump restored on another server, or a standby
 * promoted, starts from its own, and a place or a change numbered by the other server's may lie
 * beyond every id this one has given (pg_snapshot_xmax). Changes of such ids take 0, and a cursor
 * past xmax or a feed with changes moved starts again from the beginning: nothing is left behind a
 * place given out, and reports are given at least once (docs/decisions/0348). When nothing moved,
 * the statement writes nothing and takes no transaction id.
 */
async function placeOnThisServer(db: Kysely<Database>, place: ChangePlace): Promise<ChangePlace> {
  const { rows } = await sql<{ moved: number | string; xmax: number | string }>`with moved as (
    update payments set change_xid = 0
    where change_seq is not null and change_xid >= pg_snapshot_xmax(pg_current_snapshot())::text::bigint
    returning 1)
  select (select count(*) from moved) as moved, pg_snapshot_xmax(pg_current_snapshot())::text::bigint as xmax`.execute(
    db,
  );
  const { moved, xmax } = rows[0]!;
  return Number(moved) > 0 || place.transaction >= Number(xmax) ? FEED_BEGINNING : place;
}

function changeOf(row: {
  id: string;
  service: string;
  status: string;
  status_reason: string | null;
  updated_at: string;
  change_xid: number | bigint | string | null;
  change_seq: number | bigint | null;
}): PaymentChange {
  return {
    paymentId: row.id,
    service: row.service,
    status: row.status as TransactionStatus,
    statusReason: row.status_reason ?? undefined,
    updatedAt: row.updated_at,
    place: { transaction: Number(row.change_xid ?? 0), seq: Number(row.change_seq ?? 0) },
  };
}
