import type BetterSqlite3 from 'better-sqlite3';
import type { NewPayment } from '../../domain/payments/payment.js';
import type { RequestBinding } from '../../domain/request-binding.js';
import { ENDED_WITHOUT_EXECUTION } from '../../domain/payment-lifecycle.js';
import {
  type BindingRowRead,
  type PaymentRowRead,
  type TppRequestRowRead,
  authorisationRow,
  bindingRow,
  duplicatesOf,
  bankClockOffset,
  duplicateLookup,
  paymentRow,
  subscriptionRow,
  toBinding,
  toStoredPayment,
  toStoredRequest,
  tppRequestRow,
  transferRows,
} from '../payment-rows.js';
import type {
  CreatePaymentOptions,
  CreatePaymentResult,
  StoredPayment,
  StoredTppRequest,
  TppRequestRecord,
} from '../store.js';
import type { StatementCache } from './statement-cache.js';
import { InsertStatements } from './insert-statements.js';
import { toTransaction, transactionRowOf } from '../queries/sandbox-transaction-queries.js';
import { TRANSACTION_COLUMNS } from '../queries/account-transaction-columns.js';
import type { SandboxTransaction, TransactionPage } from '../sandbox-records.js';
import type { Selectable } from 'kysely';
import { type ArmedScenario, BANK_SCENARIO_KINDS } from '../../domain/sandbox-scenarios.js';
import type { SandboxScenarioTable } from '../sandbox-tables.js';
import { scenarioOf } from '../queries/sandbox-scenario-queries.js';

/** The read of a bank's armed bank faults that every signed request of a sandbox TPP makes: its text made once. */
const BANK_FAULTS_SQL = `select * from sandbox_scenarios where bank = ? and kind in (${BANK_SCENARIO_KINDS.map((k) => `'${k}'`).join(', ')}) order by created_at, id`;

/** The status read's payment, with its bank's clock: its text made once, not hashed anew for the statement cache on every read. */
const FIND_PAYMENT_SQL = `select id, tpp_id, service, product, status, body, funds_available, status_reason, created_at, ${bankClockOffset('?')} as clock_offset_ms from payments where id = ? and tpp_id = ?`;

/**
 * The operations every signed request or every create makes, as SQL prepared once and run
 * synchronously on the connection: a create is one IMMEDIATE transaction of as many statements as
 * its rows, with no query built per request. The query builder costs more than SQLite's own work
 * (docs/decisions/0102). The caller holds the connection
 * (SqliteStore.exclusive), so no other use of it runs in between, and waits for the WAL flush
 * before answering, as for every write.
 */
export class SqliteHotPath {
  private readonly create: BetterSqlite3.Transaction<
    (payment: NewPayment, request: TppRequestRecord, options: CreatePaymentOptions) => CreatePaymentResult
  >;

  private readonly inserts: InsertStatements;

  constructor(
    database: BetterSqlite3.Database,
    private readonly statements: StatementCache,
  ) {
    this.inserts = new InsertStatements(statements);
    this.create = database.transaction(
      (payment: NewPayment, request: TppRequestRecord, options: CreatePaymentOptions) =>
        this.createIn(payment, request, options),
    );
  }

  createPayment(payment: NewPayment, request: TppRequestRecord, options: CreatePaymentOptions): CreatePaymentResult {
    // IMMEDIATE: the write lock first, so that another process's create cannot slip in between the look-ups and the inserts.
    return this.create.immediate(payment, request, options);
  }

  bindRequest(binding: RequestBinding, now: Date): RequestBinding | undefined {
    const row = bindingRow(binding);
    if (this.insert('request_bindings', row, ' on conflict (tpp_id, request_id) do nothing').changes === 1)
      return undefined;
    const replaced = this.sql(
      'update request_bindings set method = @method, target = @target, body_sha256 = @body_sha256, scope = @scope, expires_at = @expires_at where tpp_id = @tpp_id and request_id = @request_id and expires_at < @now',
    ).run({ ...row, now: now.toISOString() });
    if (replaced.changes === 1) return undefined;
    const earlier = this.sql('select * from request_bindings where tpp_id = ? and request_id = ?').get(
      binding.tppId,
      binding.requestId,
    ) as BindingRowRead | undefined;
    // Purged between the statements: bind again.
    return earlier === undefined ? this.bindRequest(binding, now) : toBinding(earlier);
  }

  findTppRequest(tppId: string, requestId: string): StoredTppRequest | undefined {
    const row = this.sql(
      'select operation, body_sha256, response_status, response_body, response_headers from tpp_requests where tpp_id = ? and request_id = ?',
    ).get(tppId, requestId) as TppRequestRowRead | undefined;
    return row === undefined ? undefined : toStoredRequest(row);
  }

  findPayment(tppId: string, paymentId: string, bank: string): StoredPayment | undefined {
    const row = this.sql(FIND_PAYMENT_SQL).get(bank, paymentId, tppId) as PaymentRowRead | undefined;
    return row === undefined ? undefined : toStoredPayment(row);
  }

  /**
   * A page of an account's transactions in posting order, as sandbox-transaction-queries.ts inPostingOrder reads
   * it. The rows come as arrays: an object of named columns per row, as better-sqlite3 makes by default,
   * costs markedly more than the array, and rows are most of a page's read (bench/README.md, "Figures
   * behind the source's reasons").
   */
  listSandboxTransactions(accountId: string, page: TransactionPage): SandboxTransaction[] {
    const columns = TRANSACTION_COLUMNS.join(', ');
    const rows =
      page.fromDate === undefined && page.toDate === undefined
        ? this.rows(
            `select ${columns} from account_transactions where account_id = ? and seq > ? order by seq limit ?`,
            accountId,
            page.offset,
            page.limit,
          )
        : this.rows(
            `select ${columns} from account_transactions where account_id = ? and booking_date >= coalesce(?, booking_date) and booking_date <= coalesce(?, booking_date) order by seq limit ? offset ?`,
            accountId,
            page.fromDate ?? null,
            page.toDate ?? null,
            page.limit,
            page.offset,
          );
    return rows.map((values) => toTransaction(transactionRowOf(values), accountId));
  }

  readClockOffset(bank: string): bigint {
    const row = this.sql('select clock_offset_ms from banks where bank = ?').get(bank) as
      { clock_offset_ms: bigint | number } | undefined;
    return row === undefined ? 0n : BigInt(row.clock_offset_ms);
  }

  /** The bank's armed bank faults, oldest first: every signed request of a sandbox TPP reads them. */
  listBankFaults(bank: string): ArmedScenario[] {
    const rows = this.sql(BANK_FAULTS_SQL).all(bank) as Selectable<SandboxScenarioTable>[];
    return rows.map(scenarioOf);
  }

  private createIn(payment: NewPayment, request: TppRequestRecord, options: CreatePaymentOptions): CreatePaymentResult {
    const earlier = this.findTppRequest(request.tppId, request.requestId);
    if (earlier !== undefined) return { outcome: 'replayed', request: earlier };

    // Made once: the look-up takes its keys and hashes from them.
    const transfers = transferRows(payment);
    if (options.duplicatesSince !== null) {
      const { scope, days, hashes, keys } = duplicateLookup(transfers, options.duplicatesSince, payment.createdAt);
      // One probe of the index for each hash on each day (src/store/duplicate-hash.ts), then the row's own columns decide.
      const rows = this.sql(
        `select payment_id, duplicate_key, created_at from transfers
        where duplicate_scope = ? and duplicate_day in (select value from json_each(?)) and duplicate_hash in (select value from json_each(?))
        and tpp_id = ? and psu_key = ? and duplicate_key in (select value from json_each(?))
        and created_at >= ? and status not in (${ENDED_WITHOUT_EXECUTION.map((s) => `'${s}'`).join(', ')}) order by created_at desc`,
      ).all(
        scope,
        JSON.stringify(days),
        `[${hashes.join(',')}]`,
        payment.tppId,
        payment.psu.key,
        JSON.stringify(keys),
        options.duplicatesSince.toISOString(),
      ) as { payment_id: string; duplicate_key: string; created_at: string }[];
      const duplicates = duplicatesOf(payment, rows);
      if (duplicates.length > 0) return { outcome: 'duplicate', duplicates };
    }

    const createdAt = payment.createdAt.toISOString();
    // Another process's create with the same X-Request-ID cannot commit in between (the write lock is
    // held since BEGIN IMMEDIATE); the primary key still decides, as on PostgreSQL.
    if (
      this.insert(
        'tpp_requests',
        tppRequestRow(request, payment.id, createdAt),
        ' on conflict (tpp_id, request_id) do nothing',
      ).changes === 0
    ) {
      const winner = this.findTppRequest(request.tppId, request.requestId);
      if (winner === undefined) throw new Error('tpp_requests conflict without a row');
      return { outcome: 'replayed', request: winner };
    }
    this.insert('payments', paymentRow(payment, options.bank));
    if (options.authorisation !== undefined) this.insert('authorisations', authorisationRow(options.authorisation));
    const subscription = subscriptionRow(request, createdAt);
    if (subscription !== null) this.insert('notification_subscriptions', subscription);
    // One statement for every entry of a bulk: the text is made and looked up once, not per row.
    if (transfers.length > 0) {
      const insertTransfer = this.inserts.of('transfers', transfers[0]!);
      for (const row of transfers) insertTransfer.run(row);
    }
    return { outcome: 'created' };
  }

  /** Inserts a row of named columns; the statement is prepared once per table and column set. */
  private insert(table: string, row: Record<string, unknown>, suffix = ''): BetterSqlite3.RunResult {
    return this.inserts.of(table, row, suffix).run(row);
  }

  private sql(text: string): BetterSqlite3.Statement {
    return this.statements.statement(text);
  }

  /** The rows of a read as arrays of its columns' values, in the order selected. */
  private rows(text: string, ...parameters: unknown[]): unknown[][] {
    return this.statements.rawStatement(text).all(...parameters) as unknown[][];
  }
}
