import type { Account, Agreement, Customer, Engagement } from '../domain/bank.js';
import type { ExecutionOutcome, Planner } from './ledger-records.js';
import type { NextExecution, PeriodicOutcome, StandingOrderListing } from './periodic-records.js';
import type { BankData } from './sca-records.js';
import type { SandboxTransaction } from './sandbox-records.js';
import type {
  AisCardTransaction,
  AisTransaction,
  AisTransactionQuery,
  PendingPayment,
  Shareable,
} from './ais-records.js';

/** The embedded core's data (src/core/embedded/): the banks and their clocks, customers, agreements, accounts, card accounts and transactions, and executing payments in the batch runs. Every look-up of a bank's data is within one bank. */
export interface LedgerStore {
  /**
   * Makes the bank with the data `defaults` gives, unless it exists, in one transaction that two
   * requests or instances cannot both pass. Returns whether it made it. With a limit, a bank that
   * does not exist is made only while fewer than `limit` exist (BankLimitReached otherwise); banks
   * are then made one at a time, so instances cannot together pass it.
   */
  openBank(bank: string, at: Date, defaults: (at: Date) => BankData, limit?: number): Promise<boolean>;
  /** The banks made so far, in a stable order. */
  listBanks(): Promise<string[]>;
  /** The banks made so far with their clocks' offsets from the wall clock, in one read, in the same order. */
  listBankClocks(): Promise<{ bank: string; clockOffsetMs: bigint }[]>;
  /** The bank's customers, accounts and agreements. */
  saveBankData(bank: string, data: BankData): Promise<void>;
  findCustomer(bank: string, by: { id: string } | { customerNumber: string }): Promise<Customer | undefined>;
  findAccount(bank: string, by: { bban?: string | undefined; iban?: string | undefined }): Promise<Account | undefined>;
  findAgreement(bank: string, id: string): Promise<Agreement | undefined>;
  findEngagement(
    bank: string,
    agreementId: string,
    customerId: string,
    accountId: string,
  ): Promise<Engagement | undefined>;
  findSandboxTransaction(accountId: string, id: string): Promise<SandboxTransaction | undefined>;
  /**
   * The earliest date anything of the bank is due: an authorised payment (one with no requested date
   * as '0000-01-01') or a running standing order's next execution; undefined when nothing waits.
   */
  earliestDueDate(bank: string): Promise<string | undefined>;
  /** The bank's authorised payments due on a date (no requested date, or one not after it), authorised by `authorisedBy` when given. */
  findDuePaymentIds(bank: string, date: string, limit: number, authorisedBy?: Date): Promise<string[]>;
  /**
   * Executes payments of the bank in one transaction, each at most once, against the bank's accounts
   * (docs/batch.md); with `scenarios` (the sandbox), the bank's armed payment scenarios hold or reject
   * the payments they match (docs/scenarios.md). A held payment's outcome is PDNG or ACSP.
   */
  executePayments(
    bank: string,
    paymentIds: readonly string[],
    bookingDate: string,
    at: Date,
    plan: Planner,
    scenarios?: boolean,
  ): Promise<ExecutionOutcome[]>;
  /** The offset of the bank's business clock from the wall clock; 0 for a bank not made yet. */
  readClockOffset(bank: string): Promise<bigint>;
  /** Moves the bank's clock offset to `offsetMs` only if that is larger than the one stored; false when it was not (another move got there first). */
  writeClockOffset(bank: string, offsetMs: bigint, at: Date): Promise<boolean>;
  /** Claims a batch slot of the bank; false when it was run (or is running) already. */
  claimBatchRun(bank: string, slot: string, at: Date): Promise<boolean>;
  finishBatchRun(bank: string, slot: string, executed: number, rejected: number, at: Date): Promise<void>;
  lastBatchSlot(bank: string): Promise<string | undefined>;
  /** The bank's running standing orders whose next execution is on or before a date, earliest first. */
  findDuePeriodicPayments(bank: string, date: string, limit: number): Promise<string[]>;
  /**
   * Books the due execution of each of these standing orders of the bank, in one transaction, each
   * execution at most once whatever instances run at once (docs/batch.md, "Standing orders"), and
   * moves each order to its next execution (`next`), or ends it (ACSC) when there is none.
   */
  executePeriodicPayments(
    bank: string,
    paymentIds: readonly string[],
    date: string,
    at: Date,
    plan: Planner,
    next: NextExecution,
  ): Promise<PeriodicOutcome[]>;
  /** Sandbox: the standing orders running (ACTC, PDNG) from an account of the bank, oldest first, at most `limit`. */
  listStandingOrders(
    bank: string,
    account: { bban: string; iban: string },
    limit: number,
  ): Promise<StandingOrderListing[]>;
  /** The accounts and card accounts a customer may share: their own, or an agreement's they may VIEW. */
  shareableAccounts(bank: string, customerId: string, agreementId: string | undefined): Promise<Shareable>;
  /** Booked transactions of an account in booking-date order, then posting order, after a position. */
  aisTransactions(accountId: string, query: AisTransactionQuery): Promise<AisTransaction[]>;
  aisCardTransactions(cardAccountId: string, query: AisTransactionQuery): Promise<AisCardTransaction[]>;
  /** Authorised payments not yet executed from an account, oldest first. */
  pendingPayments(bank: string, account: { bban: string; iban: string }, limit: number): Promise<PendingPayment[]>;
}
