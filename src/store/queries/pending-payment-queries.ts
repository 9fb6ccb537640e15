import { type Kysely, sql } from 'kysely';
import type { PendingPayment } from '../ais-records.js';
import type { Database } from '../database.js';
import { TRANSFER_COLUMNS, transfersToExecute } from './transfer-rows.js';

/**
 * The payments authorised and not yet executed from an account (statuses ACTC and PDNG), oldest
 * authorisation first, at most `limit`, with their transfers. Read in the order of payments_due
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
  const rows = await db
    .selectFrom('payments')
    .select(['id', 'service', 'product', 'fee_minor', 'fee_currency', 'body', 'requested_execution_date'])
    .where('bank', '=', bank)
    .where(sql<boolean>`status in ('ACTC', 'PDNG') and service <> 'periodic-payments' and held_until is null`)
    .where((eb) => eb.or([eb('debtor_bban', '=', account.bban), eb('debtor_iban', '=', account.iban)]))
    .orderBy('authorised_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const transfers = await db
    .selectFrom('transfers')
    .select(TRANSFER_COLUMNS)
    .where(
      'payment_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('payment_id')
    .orderBy('seq')
    .execute();
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
