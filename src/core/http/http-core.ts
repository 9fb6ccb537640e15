import {
  BrokenCircuitError,
  ConsecutiveBreaker,
  type CircuitBreakerPolicy,
  circuitBreaker,
  handleType,
} from 'cockatiel';
import type { Account, Agreement, Customer, Engagement } from '../../domain/bank.js';
import {
  CORE_BREAKER_FAILURES,
  CORE_BREAKER_OPEN_MS,
  CORE_RETRY_AFTER_SECONDS,
  CORE_TIMEOUT_MS_DEFAULT,
  MAX_CORE_ANSWER_BYTES,
  CORE_TIMEOUT_MS_MAX,
  CORE_TIMEOUT_MS_MIN,
  MAX_CORE_PAGE_LIMIT,
} from '../../domain/limits.js';
import type {
  AisCardTransaction,
  AisTransaction,
  AisTransactionQuery,
  PendingPayment,
  Shareable,
} from '../../store/ais-records.js';
import type { SandboxTransaction } from '../../store/sandbox-records.js';
import { type BankCore, CoreUnavailable } from '../bank-core.js';
import type { CoreCancellation, CoreReport, CoreReportPage, PaymentOrder } from '../core-records.js';
import { readBoundedText } from './bounded-body.js';
import { CORE_SIGNATURE_HEADER, type CoreKey, signCoreRequest } from './core-signature.js';
import {
  accountFromWire,
  agreementFromWire,
  aisAccountFromWire,
  cardAccountFromWire,
  cardTransactionFromWire,
  customerFromWire,
  engagementFromWire,
  paymentOrderToWire,
  pendingPaymentFromWire,
  reportFromWire,
  transactionFromWire,
} from './core-wire.js';
import { ContractViolation, array, object, optionalText, status } from './wire-values.js';

export interface HttpCoreOptions {
  /** The core adapter's base address, e.g. `https://core.bank.example/psd2-core` (CORE_URL). */
  url: string;
  /** The shared key of the Core-Signature (CORE_KEY_FILE). */
  key: CoreKey;
  /** How long one call may take, the answer's body included (CORE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Node's fetch unless a test gives another. */
  fetch?: typeof fetch;
  /** The circuit breaker's settings; the limits' by default. */
  breaker?: { failures: number; openMs: number };
  /** The clock the signatures and the breaker's remaining time are read from. */
  now?: () => Date;
}

/** What a call of the contract answered: its status and its body parsed. */
interface Answer {
  status: number;
  body: unknown;
}

/**
 * A bank's own core, reached over the contract of docs/core-api.yaml (CORE=http, CORE_URL). It serves
 * production's one bank (''). Every call is signed, has a timeout, reads at most
 * MAX_CORE_ANSWER_BYTES of the answer, checks the answer against the contract, and goes through a
 * circuit breaker: whatever is not the contract (a broken answer, a 5xx, a timeout, a refused
 * connection) throws CoreUnavailable, which the TPP reads as a 503 with Retry-After. A 404 of a
 * look-up is "not found". Nothing is logged here: the caller logs the CoreUnavailable, whose reason
 * names the operation and never an identity number (those travel only in bodies).
 */
export class HttpCore implements BankCore {
  readonly kind = 'http' as const;
  private readonly base: URL;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;
  private readonly now: () => Date;
  private readonly breaker: CircuitBreakerPolicy;
  private readonly openMs: number;
  private openedAt = 0;

  constructor(private readonly options: HttpCoreOptions) {
    this.base = new URL(options.url.endsWith('/') ? options.url : `${options.url}/`);
    this.timeoutMs = options.timeoutMs ?? CORE_TIMEOUT_MS_DEFAULT;
    if (
      !Number.isInteger(this.timeoutMs) ||
      this.timeoutMs < CORE_TIMEOUT_MS_MIN ||
      this.timeoutMs > CORE_TIMEOUT_MS_MAX
    )
      throw new RangeError(`the core's timeout must be ${CORE_TIMEOUT_MS_MIN} to ${CORE_TIMEOUT_MS_MAX} ms`);
    this.fetch = options.fetch ?? fetch;
    this.now = options.now ?? (() => new Date());
    const failures = options.breaker?.failures ?? CORE_BREAKER_FAILURES;
    this.openMs = options.breaker?.openMs ?? CORE_BREAKER_OPEN_MS;
    this.breaker = circuitBreaker(handleType(CoreUnavailable), {
      halfOpenAfter: this.openMs,
      breaker: new ConsecutiveBreaker(failures),
    });
    this.breaker.onBreak(() => {
      this.openedAt = this.now().getTime();
    });
  }

  findCustomer(bank: string, by: { id: string } | { customerNumber: string }): Promise<Customer | undefined> {
    // The number travels in the body, never in the URL: it stays out of every access log on the way.
    return 'id' in by
      ? this.lookup(bank, 'GET', `customers/${segment(by.id)}`, undefined, customerFromWire)
      : this.lookup(bank, 'POST', 'customers/search', { customerNumber: by.customerNumber }, customerFromWire);
  }

  findAgreement(bank: string, id: string): Promise<Agreement | undefined> {
    return this.lookup(bank, 'GET', `agreements/${segment(id)}`, undefined, agreementFromWire);
  }

  findEngagement(
    bank: string,
    agreementId: string,
    customerId: string,
    accountId: string,
  ): Promise<Engagement | undefined> {
    const path = `agreements/${segment(agreementId)}/engagements/${segment(customerId)}/${segment(accountId)}`;
    return this.lookup(bank, 'GET', path, undefined, engagementFromWire);
  }

  async findAccount(
    bank: string,
    by: { bban?: string | undefined; iban?: string | undefined },
  ): Promise<Account | undefined> {
    const body = {
      ...(by.bban === undefined ? {} : { bban: by.bban }),
      ...(by.iban === undefined ? {} : { iban: by.iban }),
    };
    if (Object.keys(body).length === 0) return undefined;
    return this.lookup(bank, 'POST', 'accounts/search', body, (value) => accountFromWire(value));
  }

  shareableAccounts(bank: string, customerId: string, agreementId: string | undefined): Promise<Shareable> {
    const query = agreementId === undefined ? '' : `?agreementId=${encodeURIComponent(agreementId)}`;
    return this.fetchOne(
      bank,
      'GET',
      `customers/${segment(customerId)}/shareable-accounts${query}`,
      undefined,
      (value) => {
        const o = object(value, 'shareable');
        return {
          accounts: array(o, 'accounts', 'shareable').map((a, i) => aisAccountFromWire(a, `shareable.accounts[${i}]`)),
          cards: array(o, 'cardAccounts', 'shareable').map((c, i) =>
            cardAccountFromWire(c, `shareable.cardAccounts[${i}]`),
          ),
        };
      },
    );
  }

  aisTransactions(accountId: string, query: AisTransactionQuery): Promise<AisTransaction[]> {
    const path = `accounts/${segment(accountId)}/transactions${pageQuery(query)}`;
    return this.fetchOne('', 'GET', path, undefined, (value) =>
      array(object(value, 'page'), 'transactions', 'page').map((t, i) =>
        transactionFromWire(t, accountId, `page.transactions[${i}]`),
      ),
    );
  }

  findTransaction(accountId: string, transactionId: string): Promise<SandboxTransaction | undefined> {
    const path = `accounts/${segment(accountId)}/transactions/${segment(transactionId)}`;
    return this.lookup('', 'GET', path, undefined, (value) => {
      // The single transaction is the ledger's record, which does not say whether a bulk booked it.
      const { bulk: _bulk, ...transaction } = transactionFromWire(value, accountId);
      return transaction;
    });
  }

  aisCardTransactions(cardAccountId: string, query: AisTransactionQuery): Promise<AisCardTransaction[]> {
    const path = `card-accounts/${segment(cardAccountId)}/transactions${pageQuery(query)}`;
    return this.fetchOne('', 'GET', path, undefined, (value) =>
      array(object(value, 'page'), 'cardTransactions', 'page').map((t, i) =>
        cardTransactionFromWire(t, `page.cardTransactions[${i}]`),
      ),
    );
  }

  pendingPayments(bank: string, account: { bban: string; iban: string }, limit: number): Promise<PendingPayment[]> {
    const body = { account: { bban: account.bban, iban: account.iban }, limit: pageLimit(limit) };
    return this.fetchOne(bank, 'POST', 'accounts/pending-payments', body, (value) =>
      array(object(value, 'pending'), 'payments', 'pending').map((p, i) =>
        pendingPaymentFromWire(p, `pending.payments[${i}]`),
      ),
    );
  }

  submitPayment(bank: string, order: PaymentOrder): Promise<CoreReport> {
    return this.fetchOne(
      bank,
      'PUT',
      `payments/${segment(order.paymentId)}`,
      paymentOrderToWire(order),
      (value) => reportFromWire(value),
      { headers: { 'idempotency-key': order.paymentId } },
    );
  }

  cancelPayment(bank: string, paymentId: string): Promise<CoreCancellation> {
    return this.fetchOne(
      bank,
      'POST',
      `payments/${segment(paymentId)}/cancellation`,
      undefined,
      (value, answered) => {
        const transactionStatus = status(object(value, 'cancellation'), 'transactionStatus', 'cancellation');
        if (answered === 200) return { outcome: 'cancelled' as const };
        return { outcome: 'not-cancellable' as const, transactionStatus };
      },
      { accepted: [409] },
    );
  }

  paymentReport(bank: string, paymentId: string): Promise<CoreReport | undefined> {
    return this.lookup(bank, 'GET', `payments/${segment(paymentId)}`, undefined, (value) => reportFromWire(value));
  }

  statusReports(bank: string, after: string | undefined, limit: number): Promise<CoreReportPage> {
    const query = new URLSearchParams();
    if (after !== undefined) query.set('after', after);
    query.set('limit', String(pageLimit(limit)));
    return this.fetchOne(bank, 'GET', `status-reports?${query.toString()}`, undefined, (value) => {
      const o = object(value, 'page');
      return {
        reports: array(o, 'reports', 'page').map((r, i) => reportFromWire(r, `page.reports[${i}]`)),
        cursor: optionalText(o, 'cursor', 'page') ?? after,
      };
    });
  }

  /** A look-up: a 404 is "not found" (undefined). */
  private lookup<T>(
    bank: string,
    method: string,
    relative: string,
    body: unknown,
    map: (body: unknown, status: number) => T,
  ): Promise<T | undefined> {
    return this.call(bank, method, relative, body, map, { lookup: true });
  }

  /** A call whose answer is always there: a 404 is as broken as any other status the contract does not give. */
  private async fetchOne<T>(
    bank: string,
    method: string,
    relative: string,
    body: unknown,
    map: (body: unknown, status: number) => T,
    options: CallOptions = {},
  ): Promise<T> {
    const result = await this.call(bank, method, relative, body, map, options);
    // call answers undefined only for a look-up's 404.
    return result!;
  }

  /**
   * One signed call through the breaker, its answer read into a record inside it: an answer that is
   * not the contract counts as a failure of the core as much as a refused connection does.
   */
  private async call<T>(
    bank: string,
    method: string,
    relative: string,
    body: unknown,
    map: (body: unknown, status: number) => T,
    options: CallOptions,
  ): Promise<T | undefined> {
    // Production has one bank; a TPP's sandbox bank is always embedded (src/services/banks.ts).
    if (bank !== '') throw new Error(`HttpCore serves production's bank (''), not ${JSON.stringify(bank)}`);
    try {
      return await this.breaker.execute(async () => {
        const answer = await this.send(method, relative, body, options);
        if (answer === undefined) return undefined;
        try {
          return map(answer.body, answer.status);
        } catch (error) {
          if (error instanceof ContractViolation)
            throw this.unavailable(`${method} ${relative.split('?')[0]}: ${error.message}`);
          throw error;
        }
      });
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        const remainingMs = this.openedAt + this.openMs - this.now().getTime();
        throw new CoreUnavailable(
          'the circuit breaker is open after repeated failures',
          Math.max(1, Math.ceil(remainingMs / 1000)),
        );
      }
      throw error;
    }
  }

  private async send(
    method: string,
    relative: string,
    body: unknown,
    options: CallOptions,
  ): Promise<Answer | undefined> {
    const url = new URL(relative, this.base);
    const pathWithQuery = `${url.pathname}${url.search}`;
    const text = body === undefined ? undefined : JSON.stringify(body);
    // Names the operation by its path without the query: ids, never an identity number (those are in bodies).
    const operation = `${method} ${relative.split('?')[0]}`;
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await this.fetch(url, {
        method,
        signal,
        headers: {
          accept: 'application/json',
          ...(text === undefined ? {} : { 'content-type': 'application/json' }),
          [CORE_SIGNATURE_HEADER]: signCoreRequest(this.options.key, method, pathWithQuery, text, this.now()),
          ...options.headers,
        },
        ...(text === undefined ? {} : { body: text }),
      });
      if (options.lookup === true && response.status === 404) {
        await response.body?.cancel().catch(() => undefined);
        return undefined;
      }
      if (response.status !== 200 && !(options.accepted ?? []).includes(response.status)) {
        await response.body?.cancel().catch(() => undefined);
        throw this.unavailable(`${operation} answered ${response.status}`, retryAfterOf(response));
      }
      const raw = await readBoundedText(response, MAX_CORE_ANSWER_BYTES);
      try {
        return { status: response.status, body: JSON.parse(raw) as unknown };
      } catch {
        throw this.unavailable(`${operation} answered something that is not JSON`);
      }
    } catch (error) {
      if (error instanceof CoreUnavailable) throw error;
      if (error instanceof ContractViolation) throw this.unavailable(`${operation}: ${error.message}`);
      if (signal.aborted) throw this.unavailable(`${operation} took more than ${this.timeoutMs} ms`);
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw this.unavailable(`${operation} failed: ${cause}`);
    }
  }

  private unavailable(reason: string, retryAfterSeconds = CORE_RETRY_AFTER_SECONDS): CoreUnavailable {
    return new CoreUnavailable(reason, retryAfterSeconds);
  }
}

interface CallOptions {
  /** A 404 is "not found" (undefined). */
  lookup?: boolean;
  headers?: Record<string, string>;
  /** Statuses of the contract's answers besides 200 (the cancellation's 409). */
  accepted?: readonly number[];
}

/**
 * The wait a core that is down asks for (its 503's Retry-After, in seconds), passed on to the TPP;
 * CORE_RETRY_AFTER_SECONDS when it names none, or one beyond an hour (a core that says "a day" is
 * still asked again within the breaker's time).
 */
function retryAfterOf(response: Response): number {
  const text = response.status === 503 ? response.headers.get('retry-after') : null;
  const seconds = text !== null && /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  return seconds >= 1 && seconds <= 3600 ? seconds : CORE_RETRY_AFTER_SECONDS;
}

/** An id as one segment of a path: the contract's ids are opaque, and may hold characters a path gives meaning to. */
function segment(id: string): string {
  return encodeURIComponent(id);
}

/** A page's size, within the contract's: a larger one is the caller's mistake, not something to cut short unseen. */
function pageLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CORE_PAGE_LIMIT)
    throw new RangeError(`a page of the core holds 1 to ${MAX_CORE_PAGE_LIMIT} items, not ${limit}`);
  return limit;
}

/** A transactions page's query: dates, the position to start after (`<bookingDate>.<entryReference>`), the limit. */
function pageQuery(query: AisTransactionQuery): string {
  const q = new URLSearchParams();
  if (query.dateFrom !== undefined) q.set('dateFrom', query.dateFrom);
  if (query.dateTo !== undefined) q.set('dateTo', query.dateTo);
  if (query.after !== undefined) q.set('after', `${query.after.bookingDate}.${query.after.seq}`);
  q.set('limit', String(pageLimit(query.limit)));
  return `?${q.toString()}`;
}
