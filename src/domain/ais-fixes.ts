import { ACCOUNT_NAME_MAX_LENGTH } from './limits.js';

/** What each published change (x-accept-fix, docs/accept-fix.md) does to an account-information answer. */

/**
 * The changes in force for a request (each function's `fixes`): asked for, or past its default date
 * by the bank's clock (acceptedFixes in accept-fix.ts).
 */
export type Fixes = ReadonlySet<string>;

export const FIX = {
  cashAccountTypeIso: 'cash-account-type-iso',
  longerName: 'longer-name',
  cardAmountSwitch: 'cardaccount-switch-originalamount-and-transactionamount',
  bankTransactionCodeIso: 'bank-transaction-code-iso',
  batchTransactions: 'batch-transactions',
} as const;

/**
 * The platform's names for cash account types before `cash-account-type-iso` (the ones its clients
 * map: "Current", "Savings", "Commission", "TransactingAccount"). A type without an old name is
 * answered with its ISO code either way.
 */
const LEGACY_CASH_ACCOUNT_TYPES: Readonly<Record<string, string>> = {
  CACC: 'Current',
  SVGS: 'Savings',
  COMM: 'Commission',
  TRAN: 'TransactingAccount',
  TAXE: 'Tax',
  LOAN: 'Loan',
};

/** cash-account-type-iso: the ISO 20022 ExternalCashAccountType1Code the account is stored with, or its old name. */
export function cashAccountTypeOf(isoCode: string, fixes: Fixes): string {
  return fixes.has(FIX.cashAccountTypeIso) ? isoCode : (LEGACY_CASH_ACCOUNT_TYPES[isoCode] ?? isoCode);
}

/** longer-name: an account's or card account's name in full (up to 70), or its first 35 characters. */
export function accountNameOf(name: string, fixes: Fixes): string {
  return fixes.has(FIX.longerName) ? name : [...name].slice(0, ACCOUNT_NAME_MAX_LENGTH).join('');
}

/** An ISO 20022 bank transaction code: Domain-Family-SubFamily, four letters each (PMNT-RCDT-DMCT). */
const ISO_BANK_TRANSACTION_CODE = /^[A-Z]{4}-[A-Z]{4}-[A-Z]{4}$/;

/**
 * bank-transaction-code-iso: `bankTransactionCode` carries only an ISO 20022 code; a code of another
 * form (a posted `PMNT`) is left out. Before, the code is given as stored, whatever its form. The
 * platform's own code (`proprietaryBankTransactionCode`) is there either way (docs/accept-fix.md).
 */
export function bankTransactionCodeOf(code: string, fixes: Fixes): { bankTransactionCode?: string } {
  if (code === '') return {};
  return !fixes.has(FIX.bankTransactionCodeIso) || ISO_BANK_TRANSACTION_CODE.test(code)
    ? { bankTransactionCode: code }
    : {};
}

/**
 * cardaccount-switch-originalamount-and-transactionamount: `transactionAmount` is the amount in the
 * card account's currency and `originalAmount` the amount in the currency of the purchase, as a card
 * transaction is stored. Before the change the platform answered them the other way round.
 */
export function cardAmountsOf<T>(
  stored: { transactionAmount: T; originalAmount?: T | undefined },
  fixes: Fixes,
): { transactionAmount: T; originalAmount?: T } {
  if (fixes.has(FIX.cardAmountSwitch) || stored.originalAmount === undefined) {
    return stored.originalAmount === undefined
      ? { transactionAmount: stored.transactionAmount }
      : { transactionAmount: stored.transactionAmount, originalAmount: stored.originalAmount };
  }
  return { transactionAmount: stored.originalAmount, originalAmount: stored.transactionAmount };
}

/** batch-transactions: the entries of a bulk payment on its debtor account are answered as one batch entry. */
export function batchesEntries(fixes: Fixes): boolean {
  return fixes.has(FIX.batchTransactions);
}
