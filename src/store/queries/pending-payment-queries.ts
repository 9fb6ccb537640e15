import { type ExpressionBuilder, type Kysely } from 'kysely';
import type { PendingPayment } from '../ais-records.js';
import type { Database } from '../database.js';
import { HELD_BY_SCENARIO, WAITING_FOR_RUN } from './payment-index-conditions.js';
import { transfersOfPayments, transfersToExecute } from './transfer-rows.js';

/**
 * The payments authorised and not yet executed from an account (statuses ACTC and PDNG, and those a
 * sandbox scenario holds), oldest authorisation first, at most `limit`, with their transfers. Read in the order of payments_due
 * (migration 008), the bank's payments waiting for the next batch run, filtered by debtor: an index
 * of its own on payments would make every authorisation and execution of a payment write it, for
 * the sake of a read bounded by one batch interval's payments.
 */
export async function pendingPayments(
  db: Kysely<Database>,
  bank: string,
  account: { bban: string; iban: string },
  limit: number,
): Promise<PendingPayment[]> {
  const columns = [
    'id',
    'service',
    'product',
    'fee_minor',
    'fee_currency',
    'body',
    'requested_execution_date',
  ] as const;
  const ofAccount = (eb: ExpressionBuilder<Database, 'payments'>) =>
    eb.or([eb('debtor_bban', '=', account.bban), eb('debtor_iban', '=', account.iban)]);
  const waiting = await db
    .selectFrom('payments')
    .select(columns)
    .where('bank', '=', bank)
    .where(WAITING_FOR_RUN)
    .where(ofAccount)
    .orderBy('authorised_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  // Payments a sandbox scenario holds (PDNG, ACSP: migration 019) are not executed yet either.
  const held =
    waiting.length >= limit
      ? []
      : await db
          .selectFrom('payments')
          .select(columns)
          .where('bank', '=', bank)
          .where(HELD_BY_SCENARIO)
          .where(ofAccount)
          .orderBy('held_until')
          .orderBy('id')
          .limit(limit - waiting.length)
          .execute();
  const rows = [...waiting, ...held];
  if (rows.length === 0) return [];
  const transfers = await transfersOfPayments(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    service: r.service,
    product: r.product,
    feeMinor: BigInt(r.fee_minor),
    feeCurrency: r.fee_currency,
    requestedExecutionDate: r.requested_execution_date ?? undefined,
    transfers: transfersToExecute(
      transfers.filter((t) => t.payment_id === r.id),
      r.body,
      r.service,
    ),
  }));
}
