import type { Kysely } from 'kysely';
import { LIFECYCLE } from '../../domain/payment-lifecycle.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';

const CANCELLED = LIFECYCLE.cancel.to[0];
import type { Database } from '../database.js';
import type { CancelResult } from '../store.js';

/**
 * Cancels a payment of the TPP not yet taken for execution, noting the DELETE's X-Request-ID; a
 * payment this X-Request-ID cancelled already is 'cancelled' again.
 */
export async function cancelPayment(
  db: Kysely<Database>,
  tppId: string,
  paymentId: string,
  at: Date,
  requestId: string,
): Promise<CancelResult> {
  return db.transaction().execute((trx) => cancelPaymentIn(trx, tppId, paymentId, at, requestId));
}

/** cancelPayment within the caller's transaction (a hand-over cancelled with its payment: core-handover-queries.ts). */
export async function cancelPaymentIn(
  trx: Kysely<Database>,
  tppId: string,
  paymentId: string,
  at: Date,
  requestId: string,
): Promise<CancelResult> {
  const updated = await trx
    .updateTable('payments')
    .set({ status: CANCELLED, cancel_request_id: requestId, updated_at: at.toISOString() })
    .where('id', '=', paymentId)
    .where('tpp_id', '=', tppId)
    .where('status', 'in', LIFECYCLE.cancel.from)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) {
    await trx.updateTable('transfers').set({ status: CANCELLED }).where('payment_id', '=', paymentId).execute();
    return { outcome: 'cancelled' } as const;
  }
  const row = await trx
    .selectFrom('payments')
    .select(['status', 'cancel_request_id'])
    .where('id', '=', paymentId)
    .where('tpp_id', '=', tppId)
    .executeTakeFirst();
  if (row === undefined) return { outcome: 'unknown' } as const;
  // Cancelled by this very request (a copy of it that ran first): the outcome it asked for.
  if (row.status === 'CANC' && row.cancel_request_id === requestId) return { outcome: 'cancelled' } as const;
  return { outcome: 'not-cancellable', status: row.status as TransactionStatus } as const;
}
