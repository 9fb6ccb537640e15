import type { Account, AccountStatus, Agreement, Customer, Engagement } from '../domain/bank.js';
import type { UpkeepStore } from './upkeep-records.js';
import type { SnapshotStore } from './snapshot-records.js';
import type { BankOverviewStore } from './bank-overview-records.js';
import type { NewPayment } from '../domain/payments/payment.js';
import type { ArmedScenario } from '../domain/sandbox-scenarios.js';
import type { EntryOutcome, ExecutionOutcome, Planner } from './ledger-records.js';
import type { NextExecution, PeriodicOrderState, PeriodicOutcome, StandingOrderListing } from './periodic-records.js';
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
import type { TransactionStatus } from '../domain/transaction-status.js';
import type { AuthorisationKind } from '../domain/sca.js';
import type { RequestBinding } from '../domain/request-binding.js';
import type { ConsentResource, EndedConsent } from '../domain/ais-consent.js';
import type {
  AisCardTransaction,
  AisConsent,
  AisTransaction,
  AisTransactionQuery,
  NewAisConsent,
  PendingPayment,
  Shareable,
} from './ais-records.js';

/** A TPP request that created something, kept so a retry with the same X-Request-ID gets the same answer. */
export interface TppRequestRecord {
  tppId: string;
  requestId: string;
  /** Method and path, e.g. `POST /v1/payments/norwegian-cross-border-credit-transfers`. */
  operation: string;
  bodySha256: string;
  responseStatus: number;
  responseBody: string;
}

export interface StoredTppRequest {
  operation: string;
  bodySha256: string;
  responseStatus: number;
  responseBody: string;
}

/** A recent payment of the same PSU equal to one being created. */
export interface LogicalDuplicate {
  /** JSON path of the transfer in the new request. */
  path: string;
  paymentId: string;
  createdAt: string;
}

export type CreatePaymentResult =
  | { outcome: 'created' }
  | { outcome: 'replayed'; request: StoredTppRequest }
  | { outcome: 'duplicate'; duplicates: LogicalDuplicate[] };

export interface CreatePaymentOptions {
  /** Refuse the payment when one of its transfers equals one of the same PSU created at or after this instant; null allows duplicates. */
  duplicatesSince: Date | null;
  /** The SCA authorisation whose link the answer carries, stored in the same transaction. */
  authorisation?: NewAuthorisation | undefined;
  /** The bank whose accounts the batch run pays from (src/services/banks.ts); production's when left out. */
  bank?: string | undefined;
}

export interface StoredPayment {
  id: string;
  tppId: string;
  service: string;
  product: string;
  status: TransactionStatus;
  body: unknown;
  fundsAvailable: boolean | undefined;
  statusReason: string | undefined;
  createdAt: string;
  /** The business clock offset of the bank the read named (0 when the bank has none), read with the payment. */
  bankClockOffsetMs: bigint;
}

export type CancelResult =
  { outcome: 'cancelled' } | { outcome: 'not-cancellable'; status: TransactionStatus } | { outcome: 'unknown' };

/**
 * The storage the services use. Two implementations stand side by side behind it, sqlite/ (the
 * embedded default) and postgres/ (several server instances on one database), and one contract test
 * suite runs against both.
 */
export interface Store extends UpkeepStore, SnapshotStore, BankOverviewStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Brings the schema to the latest version; safe to run on every start and from several instances. */
  migrate(): Promise<void>;
  /** Names of the migrations applied, oldest first. */
  appliedMigrations(): Promise<string[]>;
  /** Round trip to the database; rejects when it cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;

  /**
   * Stores a payment and the request that created it in one durable transaction, unless the TPP
   * sent this X-Request-ID before (replayed: the stored request is returned and nothing is written)
   * or a transfer is a logical duplicate. Concurrent calls with one X-Request-ID create one payment.
   */
  createPayment(
    payment: NewPayment,
    request: TppRequestRecord,
    options: CreatePaymentOptions,
  ): Promise<CreatePaymentResult>;
  /**
   * Binds a signed request's X-Request-ID to what it asked for, unless it is bound already (and its
   * binding still in force at `now`): then the earlier binding is returned and nothing is written.
   * The binding is committed (every instance sees it) but may not be on disk before durable().
   */
  bindRequest(binding: RequestBinding, now: Date): Promise<RequestBinding | undefined>;
  /** Resolves once every commit made so far is on disk: a request that bound its X-Request-ID awaits it before it is answered. */
  durable(): Promise<void>;
  /** Removes bindings whose signatures can no longer be accepted; returns how many. */
  purgeRequestBindings(now: Date): Promise<number>;
  /** The request this TPP sent with this X-Request-ID, if it created something. */
  findTppRequest(tppId: string, requestId: string): Promise<StoredTppRequest | undefined>;
  /** The payment, when it exists and the TPP created it, with the clock offset of `bank` (the TPP's bank, Banks.of) read in the same statement. */
  findPayment(tppId: string, paymentId: string, bank: string): Promise<StoredPayment | undefined>;
  /**
   * Cancels a payment of the TPP that has not yet been taken for execution, noting the DELETE's
   * X-Request-ID; a payment this X-Request-ID cancelled already is 'cancelled' again.
   */
  cancelPayment(tppId: string, paymentId: string, at: Date, requestId: string): Promise<CancelResult>;

  // Banks: each TPP's in the sandbox, one in production (src/services/banks.ts). Every look-up of the
  // bank's data below is within one bank.
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

  // Sandbox test data.
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
  findSandboxTransaction(accountId: string, id: string): Promise<SandboxTransaction | undefined>;
  addSandboxCardTransactions(
    cardAccountId: string,
    transactions: readonly NewSandboxCardTransaction[],
    createdAt: Date,
  ): Promise<SandboxCardTransaction[] | undefined>;
  listSandboxCardTransactions(cardAccountId: string, page: TransactionPage): Promise<SandboxCardTransaction[]>;
  findSandboxCardTransaction(cardAccountId: string, id: string): Promise<SandboxCardTransaction | undefined>;
  // Scenarios a TPP's test arms in its bank (docs/scenarios.md).
  /** Arms a scenario unless the bank has `limit` armed already (false then); maintenance windows ended by `now` are removed first. */
  armSandboxScenario(bank: string, scenario: ArmedScenario, limit: number, now: Date): Promise<boolean>;
  /** The bank's armed scenarios, oldest first; maintenance windows ended by `now` are removed. */
  listSandboxScenarios(bank: string, now: Date): Promise<ArmedScenario[]>;
  disarmSandboxScenario(bank: string, id: string): Promise<boolean>;
  /** The bank's armed bank faults (throttled, maintenance, slow, error), oldest first: read by every signed request in the sandbox. */
  listBankFaults(bank: string): Promise<ArmedScenario[]>;
  /** Takes one of the scenario's times: false when none was left (another request took the last); the last one deletes it. */
  spendSandboxScenario(scenario: ArmedScenario): Promise<boolean>;
  /** Empties the bank and loads the default data set into it, in one transaction; its armed scenarios go too. */
  initializeSandbox(bank: string, defaults: BankData): Promise<SandboxInitializeResult>;

  // PSU sessions and SCA.
  findPsuSession(tppId: string, psuId: string): Promise<PsuSession | undefined>;
  /** Renews the PSU's session with the TPP (creating it with newPsuId the first time) and returns it. */
  recordSca(
    tppId: string,
    customerId: string,
    at: Date,
    tppSessionId: string | undefined,
    newPsuId: string,
  ): Promise<PsuSession>;
  createAuthorisation(authorisation: NewAuthorisation): Promise<void>;
  /**
   * Stores an authorisation a TPP's request started (POST …/authorisations) with the request that
   * started it, in one transaction, unless the TPP sent this X-Request-ID before: then the stored
   * request is returned and nothing is written.
   */
  startAuthorisation(authorisation: NewAuthorisation, request: TppRequestRecord): Promise<StoredTppRequest | undefined>;
  findAuthorisation(tokenHash: string): Promise<Authorisation | undefined>;
  /**
   * The TPP's authorisations of one kind for one payment or basket (GET …/authorisations), oldest
   * first, at most `limit`.
   */
  listAuthorisations(tppId: string, kind: AuthorisationKind, objectId: string, limit: number): Promise<Authorisation[]>;
  /** Moves to the next step only while fromTokenHash is still current: each link and form works once. */
  advanceAuthorisation(id: string, fromTokenHash: string, step: AuthorisationStep, at: Date): Promise<boolean>;
  findPaymentsForSca(tppId: string, paymentIds: readonly string[]): Promise<ScaPayment[]>;
  /** Applies SCA outcomes to payments still RCVD; returns the ids it changed. */
  decidePayments(
    decisions: readonly PaymentDecision[],
    signerCustomerId: string | undefined,
    at: Date,
  ): Promise<string[]>;
  /**
   * Records a one-time code attempt under each of the PSU's keys, drops attempts made before `since`,
   * and returns the most attempts any of the keys has at or after `since`, this one included. The
   * attempt is written before it is counted, so attempts made at the same moment from several
   * server instances each count those before them.
   */
  reserveCodeAttempt(attemptId: string, psuKeys: readonly string[], at: Date, since: Date): Promise<number>;
  /** Removes an attempt that turned out not to be a wrong code. */
  releaseCodeAttempt(attemptId: string): Promise<void>;
  /** Records the fingerprint of a key kept outside the database the first time; returns the one on record. */
  claimKeyFingerprint(name: string, fingerprint: string, at: Date): Promise<string>;

  // Ledger and batch runs.
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
  /** Each entry of a payment with what became of it when it executed (a bulk's status read lists them), in entry order. */
  findEntryOutcomes(paymentId: string): Promise<EntryOutcome[]>;
  /** The offset of the bank's business clock from the wall clock; 0 for a bank not made yet. */
  readClockOffset(bank: string): Promise<bigint>;
  /** Moves the bank's clock offset to `offsetMs` only if that is larger than the one stored; false when it was not (another move got there first). */
  writeClockOffset(bank: string, offsetMs: bigint, at: Date): Promise<boolean>;
  /** Claims a batch slot of the bank; false when it was run (or is running) already. */
  claimBatchRun(bank: string, slot: string, at: Date): Promise<boolean>;
  finishBatchRun(bank: string, slot: string, executed: number, rejected: number, at: Date): Promise<void>;
  lastBatchSlot(bank: string): Promise<string | undefined>;

  // Standing orders (periodic payments): executed on their own dates, not by the batch runs (rule 6).
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
  /** A standing order's next execution date while it runs, and its latest executions. Ending one is cancelPayment. */
  findPeriodicOrder(paymentId: string): Promise<PeriodicOrderState | undefined>;
  /** Sandbox: the standing orders running (ACTC, PDNG) from an account of the bank, oldest first, at most `limit`. */
  listStandingOrders(
    bank: string,
    account: { bban: string; iban: string },
    limit: number,
  ): Promise<StandingOrderListing[]>;

  // Signing baskets.
  createBasket(
    basket: { id: string; tppId: string; psuKey: string; requestBody: string; createdAt: Date },
    paymentIds: readonly string[],
    request: TppRequestRecord,
    authorisation: NewAuthorisation,
  ): Promise<CreateBasketResult>;
  findBasket(tppId: string, basketId: string): Promise<StoredBasket | undefined>;
  findBasketOfPayment(paymentId: string): Promise<string | undefined>;
  deleteBasket(tppId: string, basketId: string): Promise<boolean>;

  // Account information (docs/ais.md). Every look-up of the bank's data is within one bank, as above.
  /**
   * Stores a consent (received) with the authorisation of its SCA link and the request that created
   * it, in one transaction, unless the TPP sent this X-Request-ID before: then the stored request is
   * returned and nothing is written.
   */
  createAisConsent(
    consent: NewAisConsent,
    authorisation: NewAuthorisation,
    request: TppRequestRecord,
  ): Promise<StoredTppRequest | undefined>;
  /** A consent started by a read's 401 challenge, with its authorisation. */
  createChallengeConsent(consent: NewAisConsent, authorisation: NewAuthorisation): Promise<void>;
  /** The valid consent a customer gave in a TPP's session (TPP-Session-ID). */
  findSessionConsent(tppId: string, tppSessionId: string, customerId: string): Promise<AisConsent | undefined>;
  /** The PSU's choice makes a received consent valid and replaces the session's earlier one; false when decided already. */
  giveAisConsent(
    consentId: string,
    customerId: string,
    resources: readonly ConsentResource[],
    at: Date,
  ): Promise<boolean>;
  refuseAisConsent(consentId: string, at: Date): Promise<void>;
  /**
   * The PSU withdraws on the page of a consent still received: it and the session's consent in force
   * that the customer gave become revokedByPsu. False when the page's consent was decided meanwhile.
   */
  withdrawAisConsent(consentId: string, customerId: string, at: Date): Promise<boolean>;
  /** The TPP ends its session's consents in force or waiting for the PSU (terminatedByTpp). */
  terminateAisConsents(tppId: string, tppSessionId: string, at: Date): Promise<'terminated' | 'already' | 'unknown'>;
  /** The latest consent of the session the customer gave that was ended before its time. */
  findEndedSessionConsent(tppId: string, tppSessionId: string, customerId: string): Promise<EndedConsent | undefined>;
  aisConsentResources(consentId: string): Promise<ConsentResource[]>;
  /** The accounts and card accounts a customer may share: their own, or an agreement's they may VIEW. */
  shareableAccounts(bank: string, customerId: string, agreementId: string | undefined): Promise<Shareable>;
  /** Booked transactions of an account in booking-date order, then posting order, after a position. */
  aisTransactions(accountId: string, query: AisTransactionQuery): Promise<AisTransaction[]>;
  aisCardTransactions(cardAccountId: string, query: AisTransactionQuery): Promise<AisCardTransaction[]>;
  /** Authorised payments not yet executed from an account, oldest first. */
  pendingPayments(bank: string, account: { bban: string; iban: string }, limit: number): Promise<PendingPayment[]>;
  /**
   * Counts a read without the PSU present under each of its keys, all or none: when one key would go
   * beyond the day's allowance (RTS 36(5)), nothing is counted and that key is returned.
   */
  countUnattendedReads(tppId: string, keys: readonly string[], day: string): Promise<string | undefined>;
}
