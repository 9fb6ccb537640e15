import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { TransactionLock } from '../queries/transaction-lock.js';
import * as bank from '../queries/bank-queries.js';
import * as batchRuns from '../queries/batch-run-queries.js';
import * as clock from '../queries/clock-queries.js';
import * as ledger from '../queries/ledger-queries.js';
import * as periodic from '../queries/periodic-queries.js';
import * as sandboxTransactions from '../queries/sandbox-transaction-queries.js';
import type { Account, Agreement, Customer, Engagement } from '../../domain/bank.js';
import type {
  AisCardTransaction,
  AisTransaction,
  AisTransactionQuery,
  PendingPayment,
  Shareable,
} from '../ais-records.js';
import type { BankData } from '../sca-records.js';
import type { ExecutionOutcome, Planner } from '../ledger-records.js';
import type { NextExecution, PeriodicOutcome, StandingOrderListing } from '../periodic-records.js';
import type { SandboxTransaction } from '../sandbox-records.js';
import { cardTransactionsPage, transactionsPage } from '../queries/ais-transaction-queries.js';
import { earliestDueDate } from '../queries/due-date-queries.js';
import { listStandingOrders } from '../queries/standing-order-list-queries.js';
import { pendingPayments } from '../queries/pending-payment-queries.js';
import { shareable } from '../queries/shareable-queries.js';
import type { LedgerStore } from '../ledger-store.js';

/** The embedded core's part of the Kysely store: banks and their clocks, the bank's data, executing payments and standing orders. */
export class KyselyLedger implements LedgerStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly lock: TransactionLock,
  ) {}

  openBank(bankKey: string, at: Date, defaults: (at: Date) => BankData, limit?: number): Promise<boolean> {
    return bank.openBank(this.db, this.lock, bankKey, at, defaults, limit);
  }

  listBanks(): Promise<string[]> {
    return bank.listBanks(this.db);
  }

  listBankClocks(): Promise<{ bank: string; clockOffsetMs: bigint }[]> {
    return bank.listBankClocks(this.db);
  }

  saveBankData(bankKey: string, data: BankData): Promise<void> {
    return this.db.transaction().execute((trx) => bank.saveBankData(trx, bankKey, data));
  }

  findCustomer(bankKey: string, by: { id: string } | { customerNumber: string }): Promise<Customer | undefined> {
    return bank.findCustomer(this.db, bankKey, by);
  }

  findAccount(
    bankKey: string,
    by: { bban?: string | undefined; iban?: string | undefined },
  ): Promise<Account | undefined> {
    return bank.findAccount(this.db, bankKey, by);
  }

  findAgreement(bankKey: string, id: string): Promise<Agreement | undefined> {
    return bank.findAgreement(this.db, bankKey, id);
  }

  findEngagement(
    bankKey: string,
    agreementId: string,
    customerId: string,
    accountId: string,
  ): Promise<Engagement | undefined> {
    return bank.findEngagement(this.db, bankKey, agreementId, customerId, accountId);
  }

  shareableAccounts(bankKey: string, customerId: string, agreementId: string | undefined): Promise<Shareable> {
    return shareable(this.db, bankKey, customerId, agreementId);
  }

  aisTransactions(accountId: string, query: AisTransactionQuery): Promise<AisTransaction[]> {
    return transactionsPage(this.db, accountId, query);
  }

  aisCardTransactions(cardAccountId: string, query: AisTransactionQuery): Promise<AisCardTransaction[]> {
    return cardTransactionsPage(this.db, cardAccountId, query);
  }

  pendingPayments(bankKey: string, account: { bban: string; iban: string }, limit: number): Promise<PendingPayment[]> {
    return pendingPayments(this.db, bankKey, account, limit);
  }

  earliestDueDate(bank: string): Promise<string | undefined> {
    return earliestDueDate(this.db, bank);
  }

  findDuePaymentIds(bankKey: string, date: string, limit: number, authorisedBy?: Date): Promise<string[]> {
    return ledger.findDuePaymentIds(this.db, bankKey, date, limit, authorisedBy);
  }

  executePayments(
    bankKey: string,
    paymentIds: readonly string[],
    bookingDate: string,
    at: Date,
    plan: Planner,
    scenarios?: boolean,
  ): Promise<ExecutionOutcome[]> {
    return ledger.executePayments(this.db, bankKey, paymentIds, bookingDate, at, plan, scenarios);
  }

  readClockOffset(bankKey: string): Promise<bigint> {
    return clock.readClockOffset(this.db, bankKey);
  }

  writeClockOffset(bankKey: string, offsetMs: bigint, at: Date): Promise<boolean> {
    return clock.writeClockOffset(this.db, bankKey, offsetMs, at);
  }

  claimBatchRun(bankKey: string, slot: string, at: Date): Promise<boolean> {
    return batchRuns.claimBatchRun(this.db, bankKey, slot, at);
  }

  finishBatchRun(bankKey: string, slot: string, executed: number, rejected: number, at: Date): Promise<void> {
    return batchRuns.finishBatchRun(this.db, bankKey, slot, executed, rejected, at);
  }

  lastBatchSlot(bankKey: string): Promise<string | undefined> {
    return batchRuns.lastBatchSlot(this.db, bankKey);
  }

  findDuePeriodicPayments(bank: string, date: string, limit: number): Promise<string[]> {
    return periodic.findDuePeriodicPayments(this.db, bank, date, limit);
  }

  executePeriodicPayments(
    bank: string,
    paymentIds: readonly string[],
    date: string,
    at: Date,
    plan: Planner,
    next: NextExecution,
  ): Promise<PeriodicOutcome[]> {
    return periodic.executePeriodicPayments(this.db, bank, paymentIds, date, at, plan, next);
  }

  listStandingOrders(
    bank: string,
    account: { bban: string; iban: string },
    limit: number,
  ): Promise<StandingOrderListing[]> {
    return listStandingOrders(this.db, bank, account, limit);
  }

  findSandboxTransaction(accountId: string, id: string): Promise<SandboxTransaction | undefined> {
    return sandboxTransactions.findTransaction(this.db, accountId, id);
  }
}
