import type { Insertable } from 'kysely';
import type { AccountTransactionTable } from '../database.js';

/**
 * The columns a transaction is read with: not the account (the caller names it) nor created_at. A
 * page is 50 to 1000 rows, and each column of each row is a value the driver makes.
 */
export const TRANSACTION_COLUMNS = [
  'id',
  'seq',
  'amount_minor',
  'currency',
  'booking_date',
  'value_date',
  'remittance',
  'creditor_name',
  'creditor_iban',
  'creditor_bban',
  'debtor_name',
  'debtor_iban',
  'debtor_bban',
  'bank_transaction_code',
  'ultimate_debtor',
  'ultimate_creditor',
  'purpose_code',
  'payment_id',
  'end_to_end_id',
] as const;

/** Every column a new account transaction is written with: a batch run's bookings and a TPP's posted test transactions. */
export const ACCOUNT_TRANSACTION_INSERT_COLUMNS = [
  'account_id',
  ...TRANSACTION_COLUMNS,
  'created_at',
] as const satisfies readonly (keyof Insertable<AccountTransactionTable>)[];
