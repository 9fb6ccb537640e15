import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { TransactionLock } from '../queries/transaction-lock.js';
import * as cardTransactions from '../queries/card-transaction-queries.js';
import * as sandboxAccounts from '../queries/sandbox-account-queries.js';
import * as sandboxAgreements from '../queries/sandbox-agreement-queries.js';
import * as sandboxCustomers from '../queries/sandbox-customer-queries.js';
import * as sandboxTransactions from '../queries/sandbox-transaction-queries.js';
import * as scenarios from '../queries/sandbox-scenario-queries.js';
import * as facts from '../queries/bank-facts-queries.js';
import type { BankFactsRead } from '../sandbox-data-store.js';
import type { AccountStatus } from '../../domain/bank.js';
import type { ArmedScenario } from '../../domain/sandbox-scenarios.js';
import type { BankData } from '../sca-records.js';
import type {
  NewSandboxAccount,
  NewSandboxAgreement,
  NewSandboxCardAccount,
  NewSandboxCardTransaction,
  NewSandboxCustomer,
  NewSandboxTransaction,
  SandboxAccount,
  SandboxAgreement,
  SandboxCardAccount,
  SandboxCardTransaction,
  SandboxCustomer,
  SandboxCustomerHoldings,
  SandboxInitializeResult,
  SandboxTransaction,
  TransactionPage,
} from '../sandbox-records.js';
import { initialize } from '../queries/sandbox-initialize-queries.js';
import type { RowKey } from '../queries/retention-queries.js';
import type { SandboxDataStore } from '../sandbox-data-store.js';

/** The sandbox's test data, the Kysely store's part: what the mock-data API writes into a bank's embedded core, and the scenarios. */
export class KyselySandboxData implements SandboxDataStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly lock: TransactionLock,
    private readonly rowKey: () => RowKey,
  ) {}

  createSandboxCustomer(bankKey: string, customer: NewSandboxCustomer): Promise<boolean> {
    return sandboxCustomers.createCustomer(this.db, bankKey, customer);
  }

  findSandboxCustomer(
    bankKey: string,
    by: { id: string } | { customerNumber: string },
  ): Promise<SandboxCustomer | undefined> {
    return sandboxCustomers.findCustomer(this.db, bankKey, by);
  }

  listSandboxCustomers(bankKey: string, offset: number, limit: number): Promise<SandboxCustomer[]> {
    return sandboxCustomers.listCustomers(this.db, bankKey, offset, limit);
  }

  sandboxCustomerHoldings(
    bankKey: string,
    customerIds: readonly string[],
  ): Promise<Map<string, SandboxCustomerHoldings>> {
    return sandboxCustomers.customerHoldings(this.db, bankKey, customerIds);
  }

  updateSandboxCustomerLimit(bankKey: string, id: string, limitMinor: bigint | null): Promise<boolean> {
    return sandboxCustomers.updateCustomerLimit(this.db, bankKey, id, limitMinor);
  }

  deleteSandboxCustomer(bankKey: string, id: string): Promise<boolean> {
    return sandboxCustomers.deleteCustomer(this.db, bankKey, id);
  }

  createSandboxAccount(bankKey: string, account: NewSandboxAccount): Promise<boolean> {
    return sandboxAccounts.createAccount(this.db, bankKey, account);
  }

  findSandboxAccount(bankKey: string, id: string): Promise<SandboxAccount | undefined> {
    return sandboxAccounts.findAccount(this.db, bankKey, id);
  }

  updateSandboxAccountStatus(bankKey: string, id: string, status: AccountStatus): Promise<boolean> {
    return sandboxAccounts.updateAccountStatus(this.db, bankKey, id, status);
  }

  deleteSandboxAccount(bankKey: string, id: string): Promise<boolean> {
    return sandboxAccounts.deleteAccount(this.db, bankKey, id);
  }

  createSandboxAgreement(bankKey: string, agreement: NewSandboxAgreement): Promise<void> {
    return sandboxAgreements.createAgreement(this.db, bankKey, agreement);
  }

  findSandboxAgreement(bankKey: string, id: string): Promise<SandboxAgreement | undefined> {
    return sandboxAgreements.findAgreement(this.db, bankKey, id);
  }

  deleteSandboxAgreement(bankKey: string, id: string): Promise<boolean> {
    return sandboxAgreements.deleteAgreement(this.db, bankKey, id);
  }

  createSandboxCardAccount(bankKey: string, card: NewSandboxCardAccount): Promise<boolean> {
    return sandboxAccounts.createCardAccount(this.db, bankKey, card);
  }

  findSandboxCardAccount(bankKey: string, id: string): Promise<SandboxCardAccount | undefined> {
    return sandboxAccounts.findCardAccount(this.db, bankKey, id);
  }

  deleteSandboxCardAccount(bankKey: string, id: string): Promise<boolean> {
    return sandboxAccounts.deleteCardAccount(this.db, bankKey, id);
  }

  addSandboxTransactions(
    accountId: string,
    transactions: readonly NewSandboxTransaction[],
    createdAt: Date,
  ): Promise<SandboxTransaction[] | undefined> {
    return sandboxTransactions.addTransactions(this.db, accountId, transactions, createdAt);
  }

  listSandboxTransactions(accountId: string, page: TransactionPage): Promise<SandboxTransaction[]> {
    return sandboxTransactions.listTransactions(this.db, accountId, page);
  }

  addSandboxCardTransactions(
    cardAccountId: string,
    transactions: readonly NewSandboxCardTransaction[],
    createdAt: Date,
  ): Promise<SandboxCardTransaction[] | undefined> {
    return cardTransactions.addCardTransactions(this.db, this.lock, cardAccountId, transactions, createdAt);
  }

  listSandboxCardTransactions(cardAccountId: string, page: TransactionPage): Promise<SandboxCardTransaction[]> {
    return cardTransactions.listCardTransactions(this.db, cardAccountId, page);
  }

  findSandboxCardTransaction(cardAccountId: string, id: string): Promise<SandboxCardTransaction | undefined> {
    return cardTransactions.findCardTransaction(this.db, cardAccountId, id);
  }

  armSandboxScenario(bankKey: string, scenario: ArmedScenario, limit: number, now: Date): Promise<boolean> {
    return scenarios.armScenario(this.db, this.lock, bankKey, scenario, limit, now);
  }

  listSandboxScenarios(bankKey: string, now: Date): Promise<ArmedScenario[]> {
    return scenarios.listScenarios(this.db, bankKey, now);
  }

  disarmSandboxScenario(bankKey: string, id: string): Promise<boolean> {
    return scenarios.disarmScenario(this.db, bankKey, id);
  }

  listBankFaults(bankKey: string): Promise<ArmedScenario[]> {
    return scenarios.listBankFaults(this.db, bankKey);
  }

  readBankFacts(bankKey: string): Promise<BankFactsRead> {
    return facts.readBankFacts(this.db, bankKey);
  }

  bankFactsVersions(banks: readonly string[]): Promise<Map<string, number>> {
    return facts.bankFactsVersions(this.db, banks);
  }

  spendSandboxScenario(scenario: ArmedScenario): Promise<boolean> {
    return scenarios.spendScenario(this.db, scenario);
  }

  initializeSandbox(bankKey: string, defaults: BankData): Promise<SandboxInitializeResult> {
    return initialize(this.db, this.lock, this.rowKey(), bankKey, defaults);
  }
}
