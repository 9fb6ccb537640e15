import { type Kysely, Migrator, type Transaction, sql } from 'kysely';
import type { NewPayment } from '../domain/payments/payment.js';
import { CANCELLABLE_STATUSES, type TransactionStatus } from '../domain/transaction-status.js';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';
import { type SchemaScript, scriptFits } from './migrations/schema-script.js';
import { type Account, type Agreement, BankLimitReached, type Customer, type Engagement } from '../domain/bank.js';
import * as bank from './queries/bank-queries.js';
import * as baskets from './queries/basket-queries.js';
import * as sca from './queries/sca-queries.js';
import * as lockout from './queries/psu-lockout-queries.js';
import * as sandbox from './queries/sandbox-queries.js';
import * as ledger from './queries/ledger-queries.js';
import * as clock from './queries/clock-queries.js';
import * as batchRuns from './queries/batch-run-queries.js';
import * as bindings from './queries/request-binding-queries.js';
import { findStoredRequest } from './queries/tpp-request-queries.js';
import type { RequestBinding } from '../domain/request-binding.js';
import * as ais from './queries/ais-queries.js';
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
export abstract class KyselyStore implements Store {
  abstract readonly kind: 'sqlite' | 'postgres';

  protected constructor(protected readonly db: Kysely<Database>) {}

  /**
   * Serialises writers that take the same key within a transaction: two creates for one PSU cannot
   * both miss each other's logical duplicate, two instances cannot both load the default data.
   */
  protected abstract lock(trx: Transaction<Database>, key: string): Promise<void>;

  async migrate(): Promise<void> {
    // Every start but the first finds the schema current: one read instead of the migrator's
    // lock table, lock and introspection.
    const applied = await this.appliedMigrationNames();
    const names = Object.keys(migrations);
    if (applied !== undefined && names.every((name) => applied.has(name))) return;
    // An empty database is made with one script (migrations/schema-script.ts); a database another
    // instance made meanwhile, or one at an earlier version, is migrated step by step.
    const script = this.schemaScript;
    if (
      applied === undefined &&
      scriptFits(script, names) &&
      (await this.runSchemaScript(script)) &&
      script.migrations.length === names.length
    )
      return;
    const { error, results } = await this.migrator().migrateToLatest();
    if (error !== undefined) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName;
      throw new Error(`database migration ${failed ?? ''} failed: ${(error as Error).message ?? String(error)}`);
    }
  }

  /** The names of the migrations applied; undefined when the database has no migration table (it is empty). */
  private async appliedMigrationNames(): Promise<Set<string> | undefined> {
    try {
      const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(this.db);
      return new Set(rows.rows.map((r) => r.name));
    } catch {
      return undefined; // no migration table yet: an empty database
    }
  }

  /** The schema script of this engine. */
  protected abstract readonly schemaScript: SchemaScript;

  /**
   * Runs the schema script and records its migrations as applied, all in one transaction, if the
   * database is still empty once this holds the migration lock; false when another instance made it first.
   */
  protected abstract runSchemaScript(script: SchemaScript): Promise<boolean>;

  async appliedMigrations(): Promise<string[]> {
    return (await this.migrator().getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
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

  async cancelPayment(tppId: string, paymentId: string, at: Date, requestId: string): Promise<CancelResult> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('payments')
        .set({ status: 'CANC', cancel_request_id: requestId, updated_at: at.toISOString() })
        .where('id', '=', paymentId)
        .where('tpp_id', '=', tppId)
        .where('status', 'in', [...CANCELLABLE_STATUSES])
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 1) {
        await trx.updateTable('transfers').set({ status: 'CANC' }).where('payment_id', '=', paymentId).execute();
        return { outcome: 'cancelled' } as const;
      }
      const row = await trx
        .selectFrom('payments')
        .select(['status', 'cancel_request_id'])
        .where('id', '=', paymentId)
        .where('tpp_id', '=', tppId)
        .executeTakeFirst();
      if (row === undefined) return { outcome: 'unknown' } as const;
      // Cancelled by this very request (a copy of it that ran first): the outcome it asked for.
      if (row.status === 'CANC' && row.cancel_request_id === requestId) return { outcome: 'cancelled' } as const;
      return { outcome: 'not-cancellable', status: row.status as TransactionStatus } as const;
    });
  }

  async openBank(bankKey: string, at: Date, defaults: (at: Date) => BankData, limit?: number): Promise<boolean> {
    if ((await this.db.selectFrom('banks').select('bank').where('bank', '=', bankKey).executeTakeFirst()) !== undefined)
      return false;
    return this.db.transaction().execute(async (trx) => {
      // Two first requests of one TPP (or two instances) make the bank once: the row decides. With a
      // limit, banks are made one at a time, so that the count read here stays true until the commit.
      await this.lock(trx, limit === undefined ? `bank|${bankKey}` : 'banks');
      if (limit !== undefined) {
        const exists = await trx.selectFrom('banks').select('bank').where('bank', '=', bankKey).executeTakeFirst();
        if (exists !== undefined) return false;
        const { n } = await trx
          .selectFrom('banks')
          .select((eb) => eb.fn.countAll<number | bigint | string>().as('n'))
          .executeTakeFirstOrThrow();
        if (Number(n) >= limit) throw new BankLimitReached(limit);
      }
      const made = await trx
        .insertInto('banks')
        .values({ bank: bankKey, clock_offset_ms: 0n, created_at: at.toISOString(), updated_at: at.toISOString() })
        .onConflict((oc) => oc.column('bank').doNothing())
        .executeTakeFirst();
      if (Number(made.numInsertedOrUpdatedRows ?? 0n) !== 1) return false;
      await bank.saveBankData(trx, bankKey, defaults(at));
      // Its batch runs start from its making: a later clock move runs the slots it passes, none from before.
      await trx
        .insertInto('batch_runs')
        .values({
          bank: bankKey,
          slot: new Date(at.getTime() - 1).toISOString(),
          started_at: at.toISOString(),
          finished_at: at.toISOString(),
          executed: 0,
          rejected: 0,
        })
        .onConflict((oc) => oc.columns(['bank', 'slot']).doNothing())
        .execute();
      return true;
    });
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
    return sandbox.createCustomer(this.db, bankKey, customer);
  }
  findSandboxCustomer(
    bankKey: string,
    by: { id: string } | { customerNumber: string },
  ): Promise<SandboxCustomer | undefined> {
    return sandbox.findCustomer(this.db, bankKey, by);
  }
  listSandboxCustomers(bankKey: string, offset: number, limit: number): Promise<SandboxCustomer[]> {
    return sandbox.listCustomers(this.db, bankKey, offset, limit);
  }
  sandboxCustomerHoldings(
    bankKey: string,
    customerIds: readonly string[],
  ): Promise<Map<string, SandboxCustomerHoldings>> {
    return sandbox.customerHoldings(this.db, bankKey, customerIds);
  }
  deleteSandboxCustomer(bankKey: string, id: string): Promise<boolean> {
    return sandbox.deleteCustomer(this.db, bankKey, id);
  }
  createSandboxAccount(bankKey: string, account: NewSandboxAccount): Promise<boolean> {
    return sandbox.createAccount(this.db, bankKey, account);
  }
  findSandboxAccount(bankKey: string, id: string): Promise<SandboxAccount | undefined> {
    return sandbox.findAccount(this.db, bankKey, id);
  }
  deleteSandboxAccount(bankKey: string, id: string): Promise<boolean> {
    return sandbox.deleteAccount(this.db, bankKey, id);
  }
  createSandboxAgreement(bankKey: string, agreement: NewSandboxAgreement): Promise<void> {
    return sandbox.createAgreement(this.db, bankKey, agreement);
  }
  findSandboxAgreement(bankKey: string, id: string): Promise<SandboxAgreement | undefined> {
    return sandbox.findAgreement(this.db, bankKey, id);
  }
  deleteSandboxAgreement(bankKey: string, id: string): Promise<boolean> {
    return sandbox.deleteAgreement(this.db, bankKey, id);
  }
  createSandboxCardAccount(bankKey: string, card: NewSandboxCardAccount): Promise<boolean> {
    return sandbox.createCardAccount(this.db, bankKey, card);
  }
  findSandboxCardAccount(bankKey: string, id: string): Promise<SandboxCardAccount | undefined> {
    return sandbox.findCardAccount(this.db, bankKey, id);
  }
  deleteSandboxCardAccount(bankKey: string, id: string): Promise<boolean> {
    return sandbox.deleteCardAccount(this.db, bankKey, id);
  }
  addSandboxTransactions(
    accountId: string,
    transactions: readonly NewSandboxTransaction[],
    createdAt: Date,
  ): Promise<SandboxTransaction[] | undefined> {
    return sandbox.addTransactions(this.db, accountId, transactions, createdAt);
  }
  listSandboxTransactions(accountId: string, page: TransactionPage): Promise<SandboxTransaction[]> {
    return sandbox.listTransactions(this.db, accountId, page);
  }
  findSandboxTransaction(accountId: string, id: string): Promise<SandboxTransaction | undefined> {
    return sandbox.findTransaction(this.db, accountId, id);
  }
  addSandboxCardTransactions(
    cardAccountId: string,
    transactions: readonly NewSandboxCardTransaction[],
    createdAt: Date,
  ): Promise<SandboxCardTransaction[] | undefined> {
    return sandbox.addCardTransactions(
      this.db,
      (trx, key) => this.lock(trx, key),
      cardAccountId,
      transactions,
      createdAt,
    );
  }
  listSandboxCardTransactions(cardAccountId: string, page: TransactionPage): Promise<SandboxCardTransaction[]> {
    return sandbox.listCardTransactions(this.db, cardAccountId, page);
  }
  findSandboxCardTransaction(cardAccountId: string, id: string): Promise<SandboxCardTransaction | undefined> {
    return sandbox.findCardTransaction(this.db, cardAccountId, id);
  }
  initializeSandbox(bankKey: string, defaults: BankData): Promise<SandboxInitializeResult> {
    return sandbox.initialize(this.db, (trx, key) => this.lock(trx, key), bankKey, defaults);
  }

  findDuePaymentIds(bankKey: string, date: string, limit: number): Promise<string[]> {
    return ledger.findDuePaymentIds(this.db, bankKey, date, limit);
  }
  executePayments(
    bankKey: string,
    paymentIds: readonly string[],
    bookingDate: string,
    at: Date,
    plan: Planner,
  ): Promise<ExecutionOutcome[]> {
    return ledger.executePayments(this.db, bankKey, paymentIds, bookingDate, at, plan);
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
  findAuthorisation(tokenHash: string): Promise<Authorisation | undefined> {
    return sca.findAuthorisation(this.db, tokenHash);
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
  ): Promise<string[]> {
    return sca.decidePayments(this.db, decisions, signerCustomerId, at);
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
    return ais.createConsent(this.db, (trx, key) => this.lock(trx, key), consent, authorisation, request);
  }
  createChallengeConsent(consent: NewAisConsent, authorisation: NewAuthorisation): Promise<void> {
    return ais.createChallengeConsent(this.db, consent, authorisation);
  }
  findSessionConsent(tppId: string, tppSessionId: string, customerId: string): Promise<AisConsent | undefined> {
    return ais.findSessionConsent(this.db, tppId, tppSessionId, customerId);
  }
  giveAisConsent(
    consentId: string,
    customerId: string,
    resources: readonly ConsentResource[],
    at: Date,
  ): Promise<boolean> {
    return ais.giveConsent(this.db, consentId, customerId, resources, at);
  }
  refuseAisConsent(consentId: string, at: Date): Promise<void> {
    return ais.refuseConsent(this.db, consentId, at);
  }
  aisConsentResources(consentId: string): Promise<ConsentResource[]> {
    return ais.consentResources(this.db, consentId);
  }
  shareableAccounts(bankKey: string, customerId: string, agreementId: string | undefined): Promise<Shareable> {
    return ais.shareable(this.db, bankKey, customerId, agreementId);
  }
  aisTransactions(accountId: string, query: AisTransactionQuery): Promise<AisTransaction[]> {
    return ais.transactionsPage(this.db, accountId, query);
  }
  aisCardTransactions(cardAccountId: string, query: AisTransactionQuery): Promise<AisCardTransaction[]> {
    return ais.cardTransactionsPage(this.db, cardAccountId, query);
  }
  pendingPayments(bankKey: string, account: { bban: string; iban: string }, limit: number): Promise<PendingPayment[]> {
    return ais.pendingPayments(this.db, bankKey, account, limit);
  }
  countUnattendedRead(tppId: string, key: string, day: string): Promise<number> {
    return ais.countUnattendedRead(this.db, tppId, key, day);
  }

  private migrator(): Migrator {
    return new Migrator({ db: this.db, provider: { getMigrations: async () => migrations } });
  }
}
