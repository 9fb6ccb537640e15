import type { Kysely } from 'kysely';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type { Database } from '../database.js';
import type { PaymentChange, PaymentChangeQuery } from '../payment-store.js';

/**
 * Payments of one creator in a bank by when they last changed (updated_at, which every status change
 * writes), then id, after a position, oldest first; or one payment's. The reference core's feed of
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
    .select(['id', 'service', 'status', 'status_reason', 'updated_at'])
    .where('tpp_id', '=', tppId)
    .where('bank', '=', bank);
  if ('paymentId' in query) {
    select = select.where('id', '=', query.paymentId);
  } else {
    const after = query.after;
    if (after !== undefined)
      select = select.where((eb) =>
        eb.or([
          eb('updated_at', '>', after.updatedAt),
          eb.and([eb('updated_at', '=', after.updatedAt), eb('id', '>', after.paymentId)]),
        ]),
      );
    select = select.where('updated_at', '<=', query.until).orderBy('updated_at').orderBy('id').limit(query.limit);
  }
  const rows = await select.execute();
  return rows.map((row) => ({
    paymentId: row.id,
    service: row.service,
    status: row.status as TransactionStatus,
    statusReason: row.status_reason ?? undefined,
    updatedAt: row.updated_at,
  }));
}
