import type { Account } from './bank.js';
import { type Currency, isCurrency } from './currency.js';
import { CROSS_BORDER, GENERAL_CROSS_BORDER, SEPA } from './payment-product.js';
import type { ReferenceRates } from './reference-rates.js';
import { INSUFFICIENT_FUNDS, creditorRefusal, debtorRefusal, limitRefusal, statusReason } from './status-reasons.js';
import type { TransactionStatus } from './transaction-status.js';

export { INSUFFICIENT_FUNDS } from './status-reasons.js';

/**
 * What executing a payment books. The batch run debits each transfer (the cross-border fee with the
 * first one) from the debtor account, in the account's currency at the reference rates, and credits
 * the creditor account when it is in this bank. A transfer the account cannot cover is rejected, and
 * so is one the bank refuses: from or to a blocked or closed account, to an account of the bank's own
 * registration numbers that does not exist, over the signing PSU's limit (status-reasons.ts).
 */

/** One transfer of a payment, as the batch run executes it. */
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
  /** The payment's endToEndIdentification, booked with its debit; '' when it has none. */
  endToEndId: string;
}

export interface PaymentToExecute {
  id: string;
  product: string;
  feeMinor: bigint;
  feeCurrency: string;
  transfers: TransferToExecute[];
  /** The most one transfer may be, in NOK øre: the limit of the PSU who signed it; undefined when none. */
  signerLimitMinor?: bigint | undefined;
}

export interface PlannedTransfer {
  transfer: TransferToExecute;
  /** Debited from the debtor account, in its currency: the amount, plus the fee with the first transfer. */
  debitMinor: bigint;
  amountInAccountCurrency: bigint;
  feeInAccountCurrency: bigint;
  bankTransactionCode: string;
  /** Why the bank rejects this transfer whatever the funds (status-reasons.ts); undefined when it does not. */
  refusal?: string | undefined;
}

/** What the planner knows of the bank beside the debtor account. */
export interface BankFacts {
  /** The account of this bank a transfer's creditor account (IBAN or BBAN) names, as the ledger holds it. */
  creditorOf(creditorAccount: string): Account | undefined;
  /** The bank's registration numbers: an account number there that is no account of the bank does not exist. Empty: unknown (production). */
  registrationNumbers: ReadonlySet<string>;
}

export type ExecutionPlan = { ok: true; transfers: PlannedTransfer[] } | { ok: false; reason: string };

/** ISO 20022 bank transaction codes (Domain-Family-SubFamily), 4 to 14 characters as the specification asks. */
export const BANK_TRANSACTION_CODES = {
  crossBorderDebit: 'PMNT-ICDT-XBCT',
  sepaDebit: 'PMNT-ICDT-ESCT',
  domesticDebit: 'PMNT-ICDT-DMCT',
  domesticCredit: 'PMNT-RCDT-DMCT',
  crossBorderCredit: 'PMNT-RCDT-XBCT',
  fee: 'ACMT-MDOP-CHRG',
} as const;

export function planExecution(
  payment: PaymentToExecute,
  debtor: Account | undefined,
  rates: ReferenceRates,
  bank?: BankFacts,
): ExecutionPlan {
  if (debtor === undefined) return { ok: false, reason: DEBTOR_UNKNOWN };
  const refused = debtorRefusal(debtor);
  if (refused !== undefined) return { ok: false, reason: refused };
  const accountCurrency = debtor.currency;
  if (!isCurrency(accountCurrency))
    return {
      ok: false,
      reason: statusReason('CURR', `the debtor account's currency ${accountCurrency} is not traded`),
    };
  const debitCode = debitCodeOf(payment.product);
  const planned: PlannedTransfer[] = [];
  for (const [index, transfer] of payment.transfers.entries()) {
    if (!isCurrency(transfer.currency))
      return { ok: false, reason: statusReason('CURR', `${transfer.currency} is not traded`) };
    const amount = rates.convert(transfer.amountMinor, transfer.currency, accountCurrency);
    const fee =
      index === 0 && payment.feeMinor > 0n && isCurrency(payment.feeCurrency)
        ? rates.convert(payment.feeMinor, payment.feeCurrency, accountCurrency)
        : 0n;
    if (amount === undefined || fee === undefined)
      return {
        ok: false,
        reason: statusReason(
          'CURR',
          `the bank has no reference rate to convert ${transfer.currency} to ${accountCurrency}`,
        ),
      };
    const refusal =
      (bank === undefined
        ? undefined
        : creditorRefusal(
            transfer.creditorAccount,
            bank.creditorOf(transfer.creditorAccount),
            bank.registrationNumbers,
          )) ?? overLimit(payment, transfer, rates);
    planned.push({
      transfer,
      debitMinor: amount + fee,
      amountInAccountCurrency: amount,
      feeInAccountCurrency: fee,
      bankTransactionCode: debitCode,
      refusal,
    });
  }
  return { ok: true, transfers: planned };
}

/** The transfer is over the signing PSU's limit (in NOK, at the reference rates): the reason; undefined when within, or without a limit. */
function overLimit(payment: PaymentToExecute, transfer: TransferToExecute, rates: ReferenceRates): string | undefined {
  if (payment.signerLimitMinor === undefined) return undefined;
  const inNok = rates.convert(transfer.amountMinor, transfer.currency as Currency, 'NOK');
  // A payment in the account's own currency needs no rate, but its comparison with a NOK limit does.
  if (inNok === undefined)
    return statusReason(
      'CURR',
      `the bank has no reference rate to compare ${transfer.currency} with the PSU's limit in NOK`,
    );
  return limitRefusal(inNok, payment.signerLimitMinor);
}

/** The debtor account is not in this bank (deleted after the PSU signed): AC01. */
const DEBTOR_UNKNOWN = statusReason('AC01', 'the debtor account is not an account in this bank');

/** The code of a product's debit: cross-border (both products), SEPA, or domestic (NDCT single and bulk, Straks). */
export function debitCodeOf(product: string): string {
  if (product === CROSS_BORDER || product === GENERAL_CROSS_BORDER) return BANK_TRANSACTION_CODES.crossBorderDebit;
  return product === SEPA ? BANK_TRANSACTION_CODES.sepaDebit : BANK_TRANSACTION_CODES.domesticDebit;
}

/** The payment's status from its transfers' outcomes: ACSC, PART (a bulk with some rejected) or RJCT. */
export function executedStatus(executed: number, total: number): TransactionStatus {
  if (executed === total) return 'ACSC';
  return executed === 0 ? 'RJCT' : 'PART';
}

/** An account as a batch chunk holds it: its balance and transaction count move as payments are booked. */
export interface LedgerAccount extends Account {
  transactionCount: number;
}

/** One transaction a payment books on an account, at the account's next position. */
export interface Booking {
  account: Account;
  seq: number;
  /** Negative for a debit or a fee, positive for a credit. */
  amountMinor: bigint;
  kind: 'debit' | 'fee' | 'credit';
  transfer: TransferToExecute;
  bankTransactionCode: string;
}

export interface BookedPayment {
  paymentId: string;
  status: TransactionStatus;
  /** Whether something executed; undefined when the payment could not be planned. */
  fundsAvailable: boolean | undefined;
  reason: string | undefined;
  /** Per transfer, in seq order. */
  transferStatuses: TransactionStatus[];
  /** Per transfer, in seq order: why it was rejected; undefined for one executed. */
  transferReasons: (string | undefined)[];
  debtor: Account | undefined;
  bookings: Booking[];
}

/** A reference to an account of this bank: by IBAN when the payment gives one, else by BBAN. */
export type AccountKey = { iban: string } | { bban: string };

/** A creditor account as a transfer holds it is an IBAN when it starts like one, else a BBAN. */
const IBAN_START = /^[A-Z]{2}\d{2}/;

/** The creditor account of a transfer (an IBAN or a BBAN) as a key. */
export function creditorKey(creditorAccount: string): AccountKey {
  return IBAN_START.test(creditorAccount) ? { iban: creditorAccount.toUpperCase() } : { bban: creditorAccount };
}

/** The creditor's numbers as a transaction lists them: a Norwegian IBAN gives its BBAN too; a BBAN alone has no IBAN. */
export function creditorNumbers(creditorAccount: string): { iban: string; bban: string } {
  if (!IBAN_START.test(creditorAccount)) return { iban: '', bban: creditorAccount };
  return { iban: creditorAccount, bban: creditorAccount.startsWith('NO') ? creditorAccount.slice(4) : '' };
}

/**
 * Books payments one after the other against the accounts a batch chunk holds (the store has locked
 * them, so nothing else moves them meanwhile): each transfer is debited, the fee with the first,
 * only if the account's balance plus credit line covers it, else that transfer is rejected; a
 * transfer to an account of this bank in its currency is credited there. Each booking takes its
 * account's next position. What the accounts hold at the end is what the store writes back.
 */
export class ChunkLedger {
  private readonly byIban = new Map<string, LedgerAccount>();
  private readonly byBban = new Map<string, LedgerAccount>();
  private readonly changed = new Set<LedgerAccount>();

  constructor(accounts: readonly LedgerAccount[]) {
    for (const account of accounts) {
      const held = { ...account };
      this.byIban.set(held.iban.toUpperCase(), held);
      this.byBban.set(held.bban, held);
    }
  }

  find(key: AccountKey): LedgerAccount | undefined {
    return 'iban' in key ? this.byIban.get(key.iban.toUpperCase()) : this.byBban.get(key.bban);
  }

  book(
    payment: PaymentToExecute,
    debtorKey: AccountKey | undefined,
    plan: (
      payment: PaymentToExecute,
      debtor: Account | undefined,
      creditorOf: (creditorAccount: string) => Account | undefined,
    ) => ExecutionPlan,
  ): BookedPayment {
    const debtor = debtorKey === undefined ? undefined : this.find(debtorKey);
    const creditorOf = (creditorAccount: string) => {
      const found = this.find(creditorKey(creditorAccount));
      return found === undefined ? undefined : { ...found };
    };
    const planned = plan(payment, debtor === undefined ? undefined : { ...debtor }, creditorOf);
    if (!planned.ok || debtor === undefined) {
      const reason = planned.ok ? DEBTOR_UNKNOWN : planned.reason;
      return rejectedPayment(payment, debtor, reason);
    }
    const bookings: Booking[] = [];
    const transferStatuses: TransactionStatus[] = [];
    const transferReasons: (string | undefined)[] = [];
    for (const step of planned.transfers) {
      const reason =
        step.refusal ??
        (debtor.balanceMinor + debtor.creditLineMinor >= step.debitMinor ? undefined : INSUFFICIENT_FUNDS);
      if (reason === undefined) bookings.push(...this.bookTransfer(debtor, step));
      transferStatuses.push(reason === undefined ? 'ACSC' : 'RJCT');
      transferReasons.push(reason);
    }
    const executed = transferStatuses.filter((s) => s === 'ACSC').length;
    const status = executedStatus(executed, transferStatuses.length);
    return {
      paymentId: payment.id,
      status,
      fundsAvailable: executed > 0,
      reason: paymentReason(transferReasons),
      transferStatuses,
      transferReasons,
      debtor,
      bookings,
    };
  }

  /** The accounts whose balance or count moved, as they now are. */
  changedAccounts(): LedgerAccount[] {
    return [...this.changed];
  }

  /**
   * Books one covered transfer: the debit and its fee on the debtor, and the credit on the creditor
   * when it is an account of this bank in the transfer's currency.
   */
  private bookTransfer(debtor: LedgerAccount, step: PlannedTransfer): Booking[] {
    const { transfer } = step;
    debtor.balanceMinor -= step.debitMinor;
    const bookings = [this.booking(debtor, -step.amountInAccountCurrency, 'debit', transfer, step.bankTransactionCode)];
    if (step.feeInAccountCurrency > 0n) {
      bookings.push(this.booking(debtor, -step.feeInAccountCurrency, 'fee', transfer, BANK_TRANSACTION_CODES.fee));
    }
    const creditor = this.find(creditorKey(transfer.creditorAccount));
    if (creditor !== undefined && creditor.currency === transfer.currency) {
      creditor.balanceMinor += transfer.amountMinor;
      bookings.push(
        this.booking(creditor, transfer.amountMinor, 'credit', transfer, BANK_TRANSACTION_CODES.domesticCredit),
      );
    }
    return bookings;
  }

  /** A booking at the account's next position. */
  private booking(
    account: LedgerAccount,
    amountMinor: bigint,
    kind: Booking['kind'],
    transfer: TransferToExecute,
    bankTransactionCode: string,
  ): Booking {
    return { account, seq: this.next(account), amountMinor, kind, transfer, bankTransactionCode };
  }

  private next(account: LedgerAccount): number {
    this.changed.add(account);
    account.transactionCount += 1;
    return account.transactionCount;
  }
}

/**
 * The payment's reason from its transfers': the one reason when its rejected transfers share it (a
 * single payment has one transfer), else how many reasons there were and the first; each entry's own
 * is in its transfer (a bulk's status read lists them).
 */
export function paymentReason(transferReasons: readonly (string | undefined)[]): string | undefined {
  const reasons = [...new Set(transferReasons.filter((r): r is string => r !== undefined))];
  if (reasons.length <= 1) return reasons[0];
  return `entries were rejected for ${reasons.length} reasons, each entry's own in the bulk's status; the first: ${reasons[0]}`;
}

/** A payment nothing of which is booked: every transfer rejected, for the one reason. */
export function rejectedPayment(payment: PaymentToExecute, debtor: Account | undefined, reason: string): BookedPayment {
  return {
    paymentId: payment.id,
    status: 'RJCT',
    fundsAvailable: undefined,
    reason,
    transferStatuses: payment.transfers.map(() => 'RJCT'),
    transferReasons: payment.transfers.map(() => reason),
    debtor,
    bookings: [],
  };
}
