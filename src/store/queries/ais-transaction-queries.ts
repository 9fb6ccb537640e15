import { type Kysely, sql } from 'kysely';
import type { AisCardTransaction, AisTransaction, AisTransactionQuery } from '../ais-records.js';
import type { Database } from '../database.js';
import { toTransaction } from './sandbox-transaction-queries.js';
import { TRANSACTION_COLUMNS } from './account-transaction-columns.js';

/** The pages of booked transactions account information reads, in booking-date order from a cursor. */

/** The sandbox's transaction columns (sandbox-transaction-queries.ts), of the table the page joins as `t`. */
const PAGE_COLUMNS = TRANSACTION_COLUMNS.map((column) => `t.${column}` as const);

/**
 * A page of an account's booked transactions in booking-date order, then posting order, after a
 * position: one range of the (account, booking date, seq) index (migration 004), however deep the
 * page, and a primary-key look-up of the payment that booked each (to know a bulk payment's entries).
 */
export async function transactionsPage(
  db: Kysely<Database>,
  accountId: string,
  query: AisTransactionQuery,
): Promise<AisTransaction[]> {
  let select = db
    .selectFrom('account_transactions as t')
    .leftJoin('payments as p', 'p.id', 't.payment_id')
    .select([...PAGE_COLUMNS, 'p.service'])
    .where('t.account_id', '=', accountId);
  const after = startAfter(query);
  if (after !== undefined)
    select = select.where(sql<boolean>`(t.booking_date, t.seq) > (${after.bookingDate}, ${after.seq})`);
  else if (query.dateFrom !== undefined) select = select.where('t.booking_date', '>=', query.dateFrom);
  if (query.dateTo !== undefined) select = select.where('t.booking_date', '<=', query.dateTo);
  const rows = await select.orderBy('t.booking_date').orderBy('t.seq').limit(query.limit).execute();
  return rows.map((row) => ({ ...toTransaction(row, accountId), bulk: row.service === 'bulk-payments' }));
}

/**
 * The one lower bound a page is read from: the cursor when it is at or after dateFrom (it implies
 * dateFrom), else dateFrom. Given both, SQLite would range the index on dateFrom and filter every row
 * from there to the cursor, a cost that grows with the page's depth (docs/decisions/0207).
 */
function startAfter(query: AisTransactionQuery): AisTransactionQuery['after'] {
  return query.after !== undefined && (query.dateFrom === undefined || query.after.bookingDate >= query.dateFrom)
    ? query.after
    : undefined;
}

/** A page of a card account's transactions in booking-date order, then posting order, after a position (migration 011's index). */
export async function cardTransactionsPage(
  db: Kysely<Database>,
  cardAccountId: string,
  query: AisTransactionQuery,
): Promise<AisCardTransaction[]> {
  let select = db
    .selectFrom('card_transactions')
    .select(['id', 'seq', 'booking_date', 'body'])
    .where('card_account_id', '=', cardAccountId);
  const after = startAfter(query);
  if (after !== undefined)
    select = select.where(sql<boolean>`(booking_date, seq) > (${after.bookingDate}, ${after.seq})`);
  else if (query.dateFrom !== undefined) select = select.where('booking_date', '>=', query.dateFrom);
  if (query.dateTo !== undefined) select = select.where('booking_date', '<=', query.dateTo);
  const rows = await select.orderBy('booking_date').orderBy('seq').limit(query.limit).execute();
  return rows.map((r) => ({
    id: r.id,
    seq: Number(r.seq),
    bookingDate: r.booking_date,
    body: JSON.parse(r.body) as Record<string, unknown>,
  }));
}
