import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import type { StandingOrderListing } from '../periodic-records.js';

/**
 * The standing orders running from an account of a bank (authorised, not ended: ACTC, PDNG), oldest
 * first, at most `limit`: the sandbox's way to a standing order's paymentId, the default data set's
 * included (docs/decisions/0239). Read along payments_periodic_due (migration
 * 014), the bank's running orders, filtered by debtor.
 */
export async function listStandingOrders(
  db: Kysely<Database>,
  bank: string,
  account: { bban: string; iban: string },
  limit: number,
): Promise<StandingOrderListing[]> {
  const rows = await db
    .selectFrom('payments')
    .select(['id', 'product', 'status', 'body', 'requested_execution_date'])
    .where('bank', '=', bank)
    .where(sql<boolean>`service = 'periodic-payments' and status in ('ACTC', 'PDNG')`)
    .where((eb) => eb.or([eb('debtor_bban', '=', account.bban), eb('debtor_iban', '=', account.iban)]))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    paymentId: r.id,
    product: r.product,
    status: r.status,
    body: JSON.parse(r.body) as unknown,
    nextExecutionDate: r.requested_execution_date ?? undefined,
  }));
}
