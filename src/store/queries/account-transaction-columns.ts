import type { Insertable } from 'kysely';
import type { AccountTransactionTable } from '../database.js';

/** Every column a new account transaction is written with: a batch run's bookings and a TPP's posted test transactions. */
export const ACCOUNT_TRANSACTION_INSERT_COLUMNS = [
  'id',
  'account_id',
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
  'end_to_end_id',
  'payment_id',
  'created_at',
] as const satisfies readonly (keyof Insertable<AccountTransactionTable>)[];
