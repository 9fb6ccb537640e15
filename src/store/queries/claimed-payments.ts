import { type Kysely, type Selectable, sql } from 'kysely';
import type { AccountKey, LedgerAccount, PaymentToExecute } from '../../domain/payment-execution.js';
import type { Database, PaymentTable } from '../database.js';
import { accountOf } from './account-rows.js';
import { type TransferRow, transfersToExecute } from './transfer-rows.js';

/** The columns of a payment that executing it reads. */
export const CLAIMED_COLUMNS = [
  'id',
  'service',
  'product',
  'fee_minor',
  'fee_currency',
  'body',
  'debtor_bban',
  'debtor_iban',
  'signed_by_customer_id',
] as const;

export type ClaimedRow = Pick<Selectable<PaymentTable>, (typeof CLAIMED_COLUMNS)[number]>;

/** The payment limits (øre) of the customers who signed these payments, of those who have one (sandbox data, migration 019). */
export async function signerLimits(
  trx: Kysely<Database>,
  rows: readonly Pick<ClaimedRow, 'signed_by_customer_id'>[],
): Promise<Map<string, bigint>> {
  const ids = [...new Set(rows.flatMap((r) => (r.signed_by_customer_id === null ? [] : [r.signed_by_customer_id])))];
  if (ids.length === 0) return new Map();
  const found = await trx
    .selectFrom('customers')
    .select(['id', 'payment_limit_minor'])
    .where('id', 'in', ids)
    .where('payment_limit_minor', 'is not', null)
    .execute();
  return new Map(found.map((r) => [r.id, BigInt(r.payment_limit_minor!)]));
}

export function toExecute(
  row: ClaimedRow,
  transfers: TransferRow[],
  limits: ReadonlyMap<string, bigint>,
): { payment: PaymentToExecute; debtorKey: AccountKey | undefined } {
  const payment: PaymentToExecute = {
    id: row.id,
    product: row.product,
    feeMinor: BigInt(row.fee_minor),
    feeCurrency: row.fee_currency,
    transfers: transfersToExecute(transfers, row.body, row.service),
    signerLimitMinor: row.signed_by_customer_id === null ? undefined : limits.get(row.signed_by_customer_id),
  };
  const debtorKey =
    row.debtor_iban !== null
      ? { iban: row.debtor_iban.toUpperCase() }
      : row.debtor_bban !== null
        ? { bban: row.debtor_bban }
        : undefined;
  return { payment, debtorKey };
}

/** The accounts of this bank that the keys name, each locked (in id order) and read under its lock. */
export async function lockAccounts(
  trx: Kysely<Database>,
  bank: string,
  keys: readonly AccountKey[],
): Promise<LedgerAccount[]> {
  const ibans = [...new Set(keys.flatMap((k) => ('iban' in k ? [k.iban] : [])))];
  const bbans = [...new Set(keys.flatMap((k) => ('bban' in k ? [k.bban] : [])))];
  if (ibans.length === 0 && bbans.length === 0) return [];
  const found = await trx
    .selectFrom('accounts')
    .select('id')
    .where('bank', '=', bank)
    .where((eb) =>
      eb.or([
        ...(ibans.length > 0 ? [eb('iban', 'in', ibans)] : []),
        ...(bbans.length > 0 ? [eb('bban', 'in', bbans)] : []),
      ]),
    )
    .execute();
  const accounts: LedgerAccount[] = [];
  for (const id of found.map((a) => a.id).sort()) {
    // An update that changes nothing takes the row lock on PostgreSQL (SQLite's transaction holds the
    // whole database already) and answers the row as it is once the lock is held.
    const row = await trx
      .updateTable('accounts')
      .set({ transaction_count: sql<number>`transaction_count` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (row === undefined) continue;
    accounts.push({ ...accountOf(row), transactionCount: Number(row.transaction_count) });
  }
  return accounts;
}
