import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type { Database } from '../database.js';
import type { PaymentChange, PaymentChangeQuery } from '../payment-store.js';

/**
 * Payments of one creator in a bank in the order their status changed (change_seq, which the triggers
 * of migration 030 write with every change), after a place, oldest first, up to the first change too
 * recent to give out (written less than `settleMs` ago); or one payment's. The reference core's feed of
 * status reports (src/core/embedded/ledger-payments.ts) reads it.
 *
 * "Ago" is by the database's clock, the one its triggers wrote changed_at_ms with: a PostgreSQL
 * server's clock that differs from the process's cannot shorten the settle time.
 */
export async function paymentChanges(
  db: Kysely<Database>,
  tppId: string,
  bank: string,
  query: PaymentChangeQuery,
): Promise<PaymentChange[]> {
  const settleMs = 'paymentId' in query ? 0 : query.settleMs;
  const databaseNowMs =
    db.getExecutor().adapter instanceof SqliteAdapter
      ? sql<number>`cast(unixepoch('subsec') * 1000 as integer)`
      : sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
  let select = db
    .selectFrom('payments')
    .select(['id', 'service', 'status', 'status_reason', 'updated_at', 'change_seq'])
    .select(sql<number>`case when changed_at_ms <= ${databaseNowMs} - ${settleMs} then 1 else 0 end`.as('settled'))
    .where('tpp_id', '=', tppId)
    .where('bank', '=', bank);
  // `change_seq >` also names the partial index's predicate (is not null) to both engines.
  if ('paymentId' in query) select = select.where('id', '=', query.paymentId);
  else select = select.where('change_seq', '>', query.after).orderBy('change_seq').limit(query.limit);
  const rows = await select.execute();
  const unsettled = 'paymentId' in query ? -1 : rows.findIndex((row) => Number(row.settled) !== 1);
  return (unsettled === -1 ? rows : rows.slice(0, unsettled)).map((row) => ({
    paymentId: row.id,
    service: row.service,
    status: row.status as TransactionStatus,
    statusReason: row.status_reason ?? undefined,
    updatedAt: row.updated_at,
    changeSeq: Number(row.change_seq ?? 0),
  }));
}
