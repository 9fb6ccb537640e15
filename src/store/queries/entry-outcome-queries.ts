import type { Kysely } from 'kysely';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type { Database } from '../database.js';
import type { EntryOutcome } from '../ledger-records.js';

/** Each transfer of a payment with its status and reason, in the order of the payment's entries. */
export async function findEntryOutcomes(db: Kysely<Database>, paymentId: string): Promise<EntryOutcome[]> {
  const rows = await db
    .selectFrom('transfers')
    .select(['seq', 'status', 'status_reason'])
    .where('payment_id', '=', paymentId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({
    seq: Number(r.seq),
    status: r.status as TransactionStatus,
    statusReason: r.status_reason ?? undefined,
  }));
}
