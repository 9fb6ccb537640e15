import type { Account, Agreement, Customer, Engagement } from '../domain/bank.js';
import type {
  AisCardTransaction,
  AisTransaction,
  AisTransactionQuery,
  PendingPayment,
  Shareable,
} from '../store/ais-records.js';
import type { SandboxTransaction } from '../store/sandbox-records.js';
import type { CoreCancellation, CoreReport, CoreReportPage, PaymentOrder } from './core-records.js';

/**
 * Where a bank's core is: `embedded`, the ledger this server keeps in its own database (each TPP's
 * sandbox bank, or production that chose it with CORE=embedded); `http`, the bank's own core reached
 * over the contract of docs/core-api.yaml (CORE_URL).
 */
export type CoreKind = 'embedded' | 'http';

/**
 * The bank's core behind one port (docs/core.md): the system that keeps the bank's customers, their
 * agreements, accounts and card accounts, balances and transactions, and that executes payments.
 * The interface's own records (payments as initiated, SCA, consents, baskets, bindings) are not its
 * business; it is asked for what only the bank knows, and handed each authorised payment once.
 *
 * Each call names the bank: a TPP's sandbox bank, or production's one (''). An implementation that
 * cannot answer (down, slow, a broken answer) throws CoreUnavailable, which the TPP reads as a 503
 * with Retry-After: never as a 500, and never as "not found".
 */
export interface BankCore {
  readonly kind: CoreKind;

  // Customers and agreements: who the PSU is at the bank, and what they may act for.
  findCustomer(bank: string, by: { id: string } | { customerNumber: string }): Promise<Customer | undefined>;
  findAgreement(bank: string, id: string): Promise<Agreement | undefined>;
  findEngagement(
    bank: string,
    agreementId: string,
    customerId: string,
    accountId: string,
  ): Promise<Engagement | undefined>;

  // Accounts, card accounts, balances and transactions.
  findAccount(bank: string, by: { bban?: string | undefined; iban?: string | undefined }): Promise<Account | undefined>;
  /** The accounts and card accounts a customer may share: their own, or an agreement's they may VIEW. */
  shareableAccounts(bank: string, customerId: string, agreementId: string | undefined): Promise<Shareable>;
  /** Booked transactions of an account in booking-date order, then posting order, after a position. */
  aisTransactions(accountId: string, query: AisTransactionQuery): Promise<AisTransaction[]>;
  findTransaction(accountId: string, transactionId: string): Promise<SandboxTransaction | undefined>;
  aisCardTransactions(cardAccountId: string, query: AisTransactionQuery): Promise<AisCardTransaction[]>;
  /** Payments handed to the core and not yet executed from an account, oldest first. */
  pendingPayments(bank: string, account: { bban: string; iban: string }, limit: number): Promise<PendingPayment[]>;

  // Payments handed over (docs/core.md, "Exactly once").
  /**
   * Hands an authorised payment to the core; idempotent by its paymentId: a second hand-over of the
   * same payment executes nothing more and answers the payment's status as it stands.
   */
  submitPayment(bank: string, order: PaymentOrder): Promise<CoreReport>;
  /** Asks the core to cancel a payment handed to it; one it never received is remembered as cancelled. */
  cancelPayment(bank: string, paymentId: string): Promise<CoreCancellation>;
  /** The status of a payment handed to the core; undefined when it has none. */
  paymentReport(bank: string, paymentId: string): Promise<CoreReport | undefined>;
  /** Status changes after a cursor, oldest first: what a core without callbacks is polled for. */
  statusReports(bank: string, after: string | undefined, limit: number): Promise<CoreReportPage>;
}

/**
 * The core did not answer in time, answered something that is not the contract, or is held off by the
 * circuit breaker: the request that needed it is a 503 with Retry-After, and nothing was spent on it.
 */
export class CoreUnavailable extends Error {
  constructor(
    readonly reason: string,
    /** When to try again, in seconds (the breaker's remaining open time, or a default). */
    readonly retryAfterSeconds: number,
  ) {
    super(`the bank's core is not available: ${reason}`);
    this.name = 'CoreUnavailable';
  }
}
