import type { Selectable } from 'kysely';
import { type Account, isAccountStatus } from '../../domain/bank.js';
import type { AccountTable } from '../database.js';

/** The columns every read of an account selects, whatever it joins. */
export type AccountRow = Pick<
  Selectable<AccountTable>,
  | 'id'
  | 'customer_id'
  | 'bban'
  | 'iban'
  | 'currency'
  | 'name'
  | 'product'
  | 'cash_account_type'
  | 'credit_line_minor'
  | 'balance_minor'
  | 'status'
>;

/** An account as the domain holds it: one mapping from its row, so a new column is added in one place. */
export function accountOf(row: AccountRow): Account {
  return {
    id: row.id,
    customerId: row.customer_id,
    bban: row.bban,
    iban: row.iban,
    currency: row.currency,
    name: row.name,
    product: row.product,
    cashAccountType: row.cash_account_type,
    creditLineMinor: BigInt(row.credit_line_minor),
    balanceMinor: BigInt(row.balance_minor),
    // A status the domain does not know would be a broken row: crash rather than pay from it.
    status: isAccountStatus(row.status) ? row.status : unknownStatus(row.id, row.status),
  };
}

function unknownStatus(id: string, status: string): never {
  throw new Error(`account ${id} has status '${status}', which is none of enabled, blocked, deleted`);
}
