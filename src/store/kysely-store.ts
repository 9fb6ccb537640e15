import { type Transaction, sql } from 'kysely';
import type { NewPayment } from '../domain/payments/payment.js';
import type { Database } from './database.js';
import { KyselySnapshotStore } from './kysely-snapshot-store.js';
import { appliedMigrations, migrateToLatest } from './migrations/migrate.js';
import type { SchemaScript } from './migrations/schema-script.js';
import type { Account, AccountStatus, Agreement, Customer, Engagement } from '../domain/bank.js';
import * as bank from './queries/bank-queries.js';
import * as payments from './queries/payment-queries.js';
import * as baskets from './queries/basket-queries.js';
import * as sca from './queries/sca-queries.js';
import * as lockout from './queries/psu-lockout-queries.js';
import * as sandboxCustomers from './queries/sandbox-customer-queries.js';
import * as sandboxAccounts from './queries/sandbox-account-queries.js';
import * as sandboxAgreements from './queries/sandbox-agreement-queries.js';
import * as sandboxTransactions from './queries/sandbox-transaction-queries.js';
import * as cardTransactions from './queries/card-transaction-queries.js';
import { initialize } from './queries/sandbox-initialize-queries.js';
import * as scenarios from './queries/sandbox-scenario-queries.js';
import type { ArmedScenario } from '../domain/sandbox-scenarios.js';
import * as ledger from './queries/ledger-queries.js';
import * as clock from './queries/clock-queries.js';
import * as batchRuns from './queries/batch-run-queries.js';
import * as bindings from './queries/request-binding-queries.js';
import { findStoredRequest } from './queries/tpp-request-queries.js';
import type { RequestBinding } from '../domain/request-binding.js';
import * as aisConsents from './queries/ais-consent-queries.js';
import { shareable } from './queries/shareable-queries.js';
import { cardTransactionsPage, transactionsPage } from './queries/ais-transaction-queries.js';
import { pendingPayments } from './queries/pending-payment-queries.js';
import { countUnattendedReads, releaseUnattendedReads } from './queries/unattended-read-queries.js';
import * as overview from './queries/bank-overview-queries.js';
import * as handovers from './queries/core-handover-queries.js';
import type { ClaimedHandover, UnsentCancellation } from './handover-store.js';
import type { CoreReport, PaymentOrder } from './core-records.js';
import type { ConsentSummary, CustomerAccounts, PaymentHistory, PaymentSummary } from './bank-overview-records.js';
import type { ConsentResource } from '../domain/ais-consent.js';
import type {
  AisCardTransaction,
  AisConsent,
  AisTransaction,
  AisTransactionQuery,
  NewAisConsent,
  PendingPayment,
  Shareable,
} from './ais-records.js';
import type { ExecutionOutcome, Planner } from './ledger-records.js';
import type {
  Authorisation,
  AuthorisationStep,
  BankData,
  CreateBasketResult,
  NewAuthorisation,
  PaymentDecision,
  PsuSession,
  ScaPayment,
  StoredBasket,
} from './sca-records.js';
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
import type {
  CancelResult,
  CreatePaymentOptions,
  CreatePaymentResult,
  Store,
  StoredPayment,
  StoredTppRequest,
  TppRequestRecord,
} from './store.js';

/**
 * What both implementations share: the queries are Kysely's and run unchanged on either dialect.
 * The subclasses open the connection and supply what differs between the engines (locking).
 */
export abstract class KyselyStore extends KyselySnapshotStore implements Store {
  abstract override readonly kind: 'sqlite' | 'postgres';

  /**
   * Serialises writers that take the same key within a transaction: two creates for one PSU cannot
   * both miss each other's logical duplicate, two instances cannot both load the default data.
   */
  protected abstract override lock(trx: Transaction<Database>, key: string): Promise<void>;

  migrate(): Promise<void> {
    return migrateToLatest(this.db, this.schemaScript, (script) => this.runSchemaScript(script));
  }

  /** The schema script of this engine. */
  protected abstract readonly schemaScript: SchemaScript;

  /**
   * Runs the schema script and records its migrations as applied, all in one transaction, if the
   * database is still empty once this holds the migration lock; false when another instance made it first.
   */
  protected abstract runSchemaScript(script: SchemaScript): Promise<boolean>;

  appliedMigrations(): Promise<string[]> {
    return appliedMigrations(this.db);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }

  // The operations of every signed request and every create are each engine's own, on statements
  // written by hand (sqlite-hot-path.ts, postgres-hot-path.ts; docs/decisions.md, "The hot path
  // without the query builder"): the logical-duplicate rule lives there and nowhere else.
  abstract createPayment(
    payment: NewPayment,
    request: TppRequestRecord,
    options: CreatePaymentOptions,
  ): Promise<CreatePaymentResult>;
  abstract bindRequest(binding: RequestBinding, now: Date): Promise<RequestBinding | undefined>;
  abstract findPayment(tppId: string, paymentId: string, bank: string): Promise<StoredPayment | undefined>;

  /** Every commit is on disk when it returns (PostgreSQL's synchronous_commit); SQLite's store overrides it. */
  durable(): Promise<void> {
    return Promise.resolve();
  }

  purgeRequestBindings(now: Date): Promise<number> {
    return bindings.purgeRequestBindings(this.db, now);
  }

  async findTppRequest(tppId: string, requestId: string): Promise<StoredTppRequest | undefined> {
    return findStoredRequest(this.db, tppId, requestId);
  }

  cancelPayment(tppId: string, paymentId: string, at: Date, requestId: string): Promise<CancelResult> {
    return payments.cancelPayment(this.db, tppId, paymentId, at, requestId);
  }

  openBank(bankKey: string, at: Date, defaults: (at: Date) => BankData, limit?: number): Promise<boolean> {
    return bank.openBank(this.db, (trx, key) => this.lock(trx, key), bankKey, at, defaults, limit);
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
  findSandboxTransaction(accountId: string, id: string): Promise<SandboxTransaction | undefined> {
    return sandboxTransactions.findTransaction(this.db, accountId, id);
  }
  addSandboxCardTransactions(
    cardAccountId: string,
    transactions: readonly NewSandboxCardTransaction[],
    createdAt: Date,
  ): Promise<SandboxCardTransaction[] | undefined> {
    return cardTransactions.addCardTransactions(
      this.db,
      (trx, key) => this.lock(trx, key),
      cardAccountId,
      transactions,
      createdAt,
    );
  }
  listSandboxCardTransactions(cardAccountId: string, page: TransactionPage): Promise<SandboxCardTransaction[]> {
    return cardTransactions.listCardTransactions(this.db, cardAccountId, page);
  }
  findSandboxCardTransaction(cardAccountId: string, id: string): Promise<SandboxCardTransaction | undefined> {
    return cardTransactions.findCardTransaction(this.db, cardAccountId, id);
  }
  armSandboxScenario(bankKey: string, scenario: ArmedScenario, limit: number, now: Date): Promise<boolean> {
    return scenarios.armScenario(this.db, (trx, key) => this.lock(trx, key), bankKey, scenario, limit, now);
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
  spendSandboxScenario(scenario: ArmedScenario): Promise<boolean> {
    return scenarios.spendScenario(this.db, scenario);
  }
  initializeSandbox(bankKey: string, defaults: BankData): Promise<SandboxInitializeResult> {
    return initialize(this.db, (trx, key) => this.lock(trx, key), bankKey, defaults);
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

  findPsuSession(tppId: string, psuId: string): Promise<PsuSession | undefined> {
    return sca.findPsuSession(this.db, tppId, psuId);
  }
  recordSca(
    tppId: string,
    customerId: string,
    at: Date,
    tppSessionId: string | undefined,
    newPsuId: string,
  ): Promise<PsuSession> {
    return sca.recordSca(this.db, tppId, customerId, at, tppSessionId, newPsuId);
  }
  createAuthorisation(authorisation: NewAuthorisation): Promise<void> {
    return sca.createAuthorisation(this.db, authorisation);
  }
  startAuthorisation(a: NewAuthorisation, request: TppRequestRecord): Promise<StoredTppRequest | undefined> {
    return sca.startAuthorisation(this.db, (trx, key) => this.lock(trx, key), a, request);
  }
  findAuthorisation(tokenHash: string): Promise<Authorisation | undefined> {
    return sca.findAuthorisation(this.db, tokenHash);
  }
  listAuthorisations(tppId: string, kind: Authorisation['kind'], id: string, max: number): Promise<Authorisation[]> {
    return sca.listAuthorisations(this.db, tppId, kind, id, max);
  }
  advanceAuthorisation(id: string, fromTokenHash: string, step: AuthorisationStep, at: Date): Promise<boolean> {
    return sca.advanceAuthorisation(this.db, id, fromTokenHash, step, at);
  }
  findPaymentsForSca(tppId: string, paymentIds: readonly string[]): Promise<ScaPayment[]> {
    return sca.findPaymentsForSca(this.db, tppId, paymentIds);
  }
  decidePayments(
    decisions: readonly PaymentDecision[],
    signerCustomerId: string | undefined,
    at: Date,
    handOver?: boolean,
  ): Promise<string[]> {
    return sca.decidePayments(this.db, decisions, signerCustomerId, at, handOver);
  }
  reserveCodeAttempt(attemptId: string, psuKeys: readonly string[], at: Date, since: Date): Promise<number> {
    return lockout.reserveCodeAttempt(this.db, attemptId, psuKeys, at, since);
  }
  releaseCodeAttempt(attemptId: string): Promise<void> {
    return lockout.releaseCodeAttempt(this.db, attemptId);
  }
  claimKeyFingerprint(name: string, fingerprint: string, at: Date): Promise<string> {
    return lockout.claimKeyFingerprint(this.db, name, fingerprint, at);
  }

  createBasket(
    basket: { id: string; tppId: string; psuKey: string; requestBody: string; createdAt: Date },
    paymentIds: readonly string[],
    request: TppRequestRecord,
    authorisation: NewAuthorisation,
  ): Promise<CreateBasketResult> {
    return baskets.createBasket(this.db, (trx, key) => this.lock(trx, key), basket, paymentIds, request, authorisation);
  }
  findBasket(tppId: string, basketId: string): Promise<StoredBasket | undefined> {
    return baskets.findBasket(this.db, tppId, basketId);
  }
  findBasketOfPayment(paymentId: string): Promise<string | undefined> {
    return baskets.findBasketOfPayment(this.db, paymentId);
  }
  deleteBasket(tppId: string, basketId: string): Promise<boolean> {
    return baskets.deleteBasket(this.db, tppId, basketId);
  }

  createAisConsent(
    consent: NewAisConsent,
    authorisation: NewAuthorisation,
    request: TppRequestRecord,
  ): Promise<StoredTppRequest | undefined> {
    return aisConsents.createConsent(this.db, (trx, key) => this.lock(trx, key), consent, authorisation, request);
  }
  createChallengeConsent(consent: NewAisConsent, authorisation: NewAuthorisation): Promise<void> {
    return aisConsents.createChallengeConsent(this.db, consent, authorisation);
  }
  findSessionConsent(tppId: string, tppSessionId: string, customerId: string): Promise<AisConsent | undefined> {
    return aisConsents.findSessionConsent(this.db, tppId, tppSessionId, customerId);
  }
  giveAisConsent(
    consentId: string,
    customerId: string,
    resources: readonly ConsentResource[],
    at: Date,
  ): Promise<boolean> {
    return aisConsents.giveConsent(this.db, consentId, customerId, resources, at);
  }
  refuseAisConsent(consentId: string, at: Date): Promise<void> {
    return aisConsents.refuseConsent(this.db, consentId, at);
  }
  aisConsentResources(consentId: string): Promise<ConsentResource[]> {
    return aisConsents.consentResources(this.db, consentId);
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
  releaseUnattendedReads(tppId: string, keys: readonly string[], day: string): Promise<void> {
    return releaseUnattendedReads(this.db, tppId, keys, day);
  }
  countUnattendedReads(tppId: string, keys: readonly string[], day: string): Promise<string | undefined> {
    return countUnattendedReads(this.db, tppId, keys, day);
  }

  // Payments handed to a bank's own core (handover-store.ts).
  claimHandovers(instance: string, now: Date, until: Date, limit: number): Promise<ClaimedHandover[]> {
    return handovers.claimHandovers(this.db, instance, now, until, limit);
  }
  handoverOrders(paymentIds: readonly string[]): Promise<PaymentOrder[]> {
    return handovers.handoverOrders(this.db, paymentIds);
  }
  completeHandovers(reports: readonly CoreReport[], at: Date): Promise<void> {
    return handovers.completeHandovers(this.db, reports, at);
  }
  deferHandover(paymentId: string, instance: string, nextAttemptAt: Date, error: string): Promise<void> {
    return handovers.deferHandover(this.db, paymentId, instance, nextAttemptAt, error);
  }
  cancelUnsentHandover(tppId: string, paymentId: string, at: Date, requestId: string): Promise<UnsentCancellation> {
    return handovers.cancelUnsentHandover(this.db, tppId, paymentId, at, requestId);
  }
  applyCoreReports(reports: readonly CoreReport[], at: Date): Promise<string[]> {
    return this.db.transaction().execute((trx) => handovers.applyReports(trx, reports, at));
  }
  claimReportPoll(
    name: string,
    instance: string,
    now: Date,
    until: Date,
  ): Promise<{ cursor: string | undefined } | undefined> {
    return handovers.claimReportPoll(this.db, name, instance, now, until);
  }
  saveReportCursor(name: string, instance: string, cursor: string | undefined, at: Date): Promise<void> {
    return handovers.saveReportCursor(this.db, name, instance, cursor, at);
  }
  countPendingHandovers(): Promise<number> {
    return handovers.countPendingHandovers(this.db);
  }

  // A bank's lists, for its console (bank-overview-records.ts).
  listPayments(tppId: string, bankKey: string, limit: number): Promise<PaymentSummary[]> {
    return overview.listPayments(this.db, tppId, bankKey, limit);
  }
  paymentHistory(
    tppId: string,
    bankKey: string,
    paymentId: string,
    limit: number,
  ): Promise<PaymentHistory | undefined> {
    return overview.paymentHistory(this.db, tppId, bankKey, paymentId, limit);
  }
  listConsents(tppId: string, bankKey: string, limit: number): Promise<ConsentSummary[]> {
    return overview.listConsents(this.db, tppId, bankKey, limit);
  }
  customerAccounts(bankKey: string, customerIds: readonly string[]): Promise<CustomerAccounts> {
    return overview.customerAccounts(this.db, bankKey, customerIds);
  }
}
