import type { Kysely, Selectable } from 'kysely';
import type { TransferToExecute } from '../../domain/payment-execution.js';
import { entriesOf } from '../../domain/payments/transfer-entries.js';
import type { Database, TransferTable } from '../database.js';

/** The columns of a transfer that executing it, or showing it pending, reads. */
export const TRANSFER_COLUMNS = [
  'payment_id',
  'seq',
  'amount_minor',
  'currency',
  'creditor_name',
  'creditor_account',
] as const;

export type TransferRow = Pick<Selectable<TransferTable>, (typeof TRANSFER_COLUMNS)[number]>;

/** The transfers of these payments in one statement, by payment and then in the order of its entries. */
export async function transfersOfPayments(db: Kysely<Database>, paymentIds: readonly string[]): Promise<TransferRow[]> {
  return db
    .selectFrom('transfers')
    .select(TRANSFER_COLUMNS)
    .where('payment_id', 'in', paymentIds)
    .orderBy('payment_id')
    .orderBy('seq')
    .execute();
}

/**
 * A payment's transfers as the batch run executes them: the stored columns, and what the body as
 * submitted says of each (the domain reads the body; the store only decodes the text it keeps).
 */
export function transfersToExecute(rows: readonly TransferRow[], body: string, service: string): TransferToExecute[] {
  const entries = entriesOf(JSON.parse(body), service);
  return rows.map((t) => {
    const entry = entries[Number(t.seq)];
    return {
      seq: Number(t.seq),
      amountMinor: BigInt(t.amount_minor),
      currency: t.currency,
      creditorName: t.creditor_name,
      creditorAccount: t.creditor_account,
      remittance: entry?.remittance ?? '',
      ultimateDebtor: entry?.ultimateDebtor ?? '',
      purposeCode: entry?.purposeCode ?? '',
      endToEndId: entry?.endToEndId ?? '',
    };
  });
}
