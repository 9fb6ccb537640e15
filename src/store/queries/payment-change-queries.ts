import type { Kysely } from 'kysely';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type { Database } from '../database.js';
import type { PaymentChange, PaymentChangeQuery } from '../payment-store.js';

/**
 * Payments of one creator in a bank in the order their status changed (change_seq, which the triggers
 * of migration 030 write with every change), after a place, oldest first, up to the first change too
 * recent to give out (changed_at_ms after `settledBy`); or one payment's. The reference core's feed of
 * status reports (src/core/embedded/ledger-payments.ts) reads it.
 */
export async function paymentChanges(
  db: Kysely<Database>,
  tppId: string,
  bank: string,
  query: PaymentChangeQuery,
): Promise<PaymentChange[]> {
  let select = db
    .selectFrom('payments')
    .select(['id', 'service', 'status', 'status_reason', 'updated_at', 'change_seq', 'changed_at_ms'])
    .where('tpp_id', '=', tppId)
    .where('bank', '=', bank);
  const settledBy = 'paymentId' in query ? undefined : query.settledBy;
  if ('paymentId' in query) select = select.where('id', '=', query.paymentId);
  // `change_seq >` also names the partial index's predicate (is not null) to both engines.
  else select = select.where('change_seq', '>', query.after).orderBy('change_seq').limit(query.limit);
  const rows = await select.execute();
  const unsettled = settledBy === undefined ? -1 : rows.findIndex((row) => Number(row.changed_at_ms) > settledBy);
  return (unsettled === -1 ? rows : rows.slice(0, unsettled)).map((row) => ({
    paymentId: row.id,
    service: row.service,
    status: row.status as TransactionStatus,
    statusReason: row.status_reason ?? undefined,
    updatedAt: row.updated_at,
    changeSeq: Number(row.change_seq ?? 0),
  }));
}
