import type { AccountStatus } from '../domain/bank.js';
import type { ArmedScenario } from '../domain/sandbox-scenarios.js';
import type { BankData } from './sca-records.js';
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
} from './sandbox-records.js';

/** The sandbox's test data: what a TPP's setup scripts write into its bank's embedded core (the platform's mock-data API), and the scenarios its tests arm (docs/scenarios.md). */
export interface SandboxDataStore {
  /** False when the customer number is taken in the bank. */
  createSandboxCustomer(bank: string, customer: NewSandboxCustomer): Promise<boolean>;
  findSandboxCustomer(
    bank: string,
    by: { id: string } | { customerNumber: string },
  ): Promise<SandboxCustomer | undefined>;
  /** The bank's customers, the default data set's first, in a stable order. */
  listSandboxCustomers(bank: string, offset: number, limit: number): Promise<SandboxCustomer[]>;
  /** Agreements, accounts and card accounts of each customer of the bank. */
  sandboxCustomerHoldings(bank: string, customerIds: readonly string[]): Promise<Map<string, SandboxCustomerHoldings>>;
  /** Sets (or with null removes) the payment limit of the bank's customer, in NOK øre; false when there is no such customer. */
  updateSandboxCustomerLimit(bank: string, id: string, limitMinor: bigint | null): Promise<boolean>;
  /** Removes the bank's customer with everything it holds (cascade). */
  deleteSandboxCustomer(bank: string, id: string): Promise<boolean>;
  /** False when the BBAN or IBAN is taken in the bank. */
  createSandboxAccount(bank: string, account: NewSandboxAccount): Promise<boolean>;
  findSandboxAccount(bank: string, id: string): Promise<SandboxAccount | undefined>;
  /** Sets the status of the bank's account (enabled, blocked, deleted); false when there is no such account. */
  updateSandboxAccountStatus(bank: string, id: string, status: AccountStatus): Promise<boolean>;
  deleteSandboxAccount(bank: string, id: string): Promise<boolean>;
  createSandboxAgreement(bank: string, agreement: NewSandboxAgreement): Promise<void>;
  findSandboxAgreement(bank: string, id: string): Promise<SandboxAgreement | undefined>;
  deleteSandboxAgreement(bank: string, id: string): Promise<boolean>;
  /** Masked card numbers need not be unique: false only when the id is taken. */
  createSandboxCardAccount(bank: string, card: NewSandboxCardAccount): Promise<boolean>;
  findSandboxCardAccount(bank: string, id: string): Promise<SandboxCardAccount | undefined>;
  deleteSandboxCardAccount(bank: string, id: string): Promise<boolean>;
  /** Appends transactions at the account's next dense positions; undefined when the account is gone. The balance is not changed. */
  addSandboxTransactions(
    accountId: string,
    transactions: readonly NewSandboxTransaction[],
    createdAt: Date,
  ): Promise<SandboxTransaction[] | undefined>;
  listSandboxTransactions(accountId: string, page: TransactionPage): Promise<SandboxTransaction[]>;
  addSandboxCardTransactions(
    cardAccountId: string,
    transactions: readonly NewSandboxCardTransaction[],
    createdAt: Date,
  ): Promise<SandboxCardTransaction[] | undefined>;
  listSandboxCardTransactions(cardAccountId: string, page: TransactionPage): Promise<SandboxCardTransaction[]>;
  findSandboxCardTransaction(cardAccountId: string, id: string): Promise<SandboxCardTransaction | undefined>;
  /** Arms a scenario unless the bank has `limit` armed already (false then); maintenance windows ended by `now` are removed first. */
  armSandboxScenario(bank: string, scenario: ArmedScenario, limit: number, now: Date): Promise<boolean>;
  /** The bank's armed scenarios, oldest first; maintenance windows ended by `now` are removed. */
  listSandboxScenarios(bank: string, now: Date): Promise<ArmedScenario[]>;
  disarmSandboxScenario(bank: string, id: string): Promise<boolean>;
  /** The bank's armed bank faults (throttled, maintenance, slow, error), oldest first: read by a signed request when one is armed. */
  listBankFaults(bank: string): Promise<ArmedScenario[]>;
  /** The bank's clock offset, whether a bank fault is armed, and their version (services/bank-facts.ts holds them). */
  readBankFacts(bank: string): Promise<BankFactsRead>;
  /** The facts' versions of these banks; a bank that no longer exists is missing. */
  bankFactsVersions(banks: readonly string[]): Promise<Map<string, number>>;
  /** Takes one of the scenario's times: false when none was left (another request took the last); the last one deletes it. */
  spendSandboxScenario(scenario: ArmedScenario): Promise<boolean>;
  /** Empties the bank and loads the default data set into it, in one transaction; its armed scenarios go too. */
  initializeSandbox(bank: string, defaults: BankData): Promise<SandboxInitializeResult>;
}

/** What every signed sandbox request needs of its bank, as read together (migration 029). */
export interface BankFactsRead {
  clockOffsetMs: bigint;
  faultArmed: boolean;
  /** Raised by every change of either; -1 for a bank without a row. */
  version: number;
}
