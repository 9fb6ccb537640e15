import type { Account } from './bank.js';
import { isCurrency } from './currency.js';
import { CROSS_BORDER } from './payment-product.js';
import type { ReferenceRates } from './reference-rates.js';
import type { TransactionStatus } from './transaction-status.js';

/**
 * What executing a payment books. The batch run debits each transfer (the cross-border fee with the
 * first one) from the debtor account, in the account's currency at the reference rates, and credits
 * the creditor account when it is in this bank. A transfer the account cannot cover is rejected.
 */
export interface TransferToExecute {
  seq: number;
  amountMinor: bigint;
  currency: string;
  creditorName: string;
  /** IBAN or BBAN. */
  creditorAccount: string;
  remittance: string;
  ultimateDebtor: string;
  purposeCode: string;
}

export interface PaymentToExecute {
  id: string;
  product: string;
  feeMinor: bigint;
  feeCurrency: string;
  transfers: TransferToExecute[];
}

export interface PlannedTransfer {
  transfer: TransferToExecute;
  /** Debited from the debtor account, in its currency: the amount, plus the fee with the first transfer. */
  debitMinor: bigint;
  amountInAccountCurrency: bigint;
  feeInAccountCurrency: bigint;
  bankTransactionCode: string;
}

export type ExecutionPlan =
  | { ok: true; transfers: PlannedTransfer[] }
  | { ok: false; reason: string };

/** ISO 20022 bank transaction codes (Domain-Family-SubFamily), 4 to 14 characters as the specification asks. */
export const BANK_TRANSACTION_CODES = {
  crossBorderDebit: 'PMNT-ICDT-XBCT',
  domesticDebit: 'PMNT-ICDT-DMCT',
  domesticCredit: 'PMNT-RCDT-DMCT',
  crossBorderCredit: 'PMNT-RCDT-XBCT',
  fee: 'ACMT-MDOP-CHRG',
} as const;

export function planExecution(payment: PaymentToExecute, debtor: Account | undefined, rates: ReferenceRates): ExecutionPlan {
  if (debtor === undefined) return { ok: false, reason: 'the debtor account is not an account in this bank' };
  const accountCurrency = debtor.currency;
  if (!isCurrency(accountCurrency)) return { ok: false, reason: `the debtor account's currency ${accountCurrency} is not traded` };
  const crossBorder = payment.product === CROSS_BORDER;
  const planned: PlannedTransfer[] = [];
  for (const [index, transfer] of payment.transfers.entries()) {
    if (!isCurrency(transfer.currency)) return { ok: false, reason: `${transfer.currency} is not traded` };
    const amount = rates.convert(transfer.amountMinor, transfer.currency, accountCurrency);
    const fee = index === 0 && payment.feeMinor > 0n && isCurrency(payment.feeCurrency) ? rates.convert(payment.feeMinor, payment.feeCurrency, accountCurrency) : 0n;
    if (amount === undefined || fee === undefined) return { ok: false, reason: `the bank has no reference rate to convert ${transfer.currency} to ${accountCurrency}` };
    planned.push({
      transfer,
      debitMinor: amount + fee,
      amountInAccountCurrency: amount,
      feeInAccountCurrency: fee,
      bankTransactionCode: crossBorder ? BANK_TRANSACTION_CODES.crossBorderDebit : BANK_TRANSACTION_CODES.domesticDebit,
    });
  }
  return { ok: true, transfers: planned };
}

/** The payment's status from its transfers' outcomes: ACSC, PART (a bulk with some rejected) or RJCT. */
export function executedStatus(executed: number, total: number): TransactionStatus {
  if (executed === total) return 'ACSC';
  return executed === 0 ? 'RJCT' : 'PART';
}

export const INSUFFICIENT_FUNDS = 'insufficient funds: the debtor account\'s balance and credit line do not cover the amount and its fees';
