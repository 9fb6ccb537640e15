import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { BankCore } from '../core/bank-core.js';
import type { AisTransactionQuery } from '../store/ais-records.js';
import { CORE_SIGNATURE_HEADER, type CoreKey, verifyCoreSignature } from '../core/http/core-signature.js';
import {
  accountToWire,
  agreementToWire,
  cardAccountToWire,
  cardTransactionToWire,
  customerToWire,
  engagementToWire,
  paymentOrderFromWire,
  pendingPaymentToWire,
  reportToWire,
  transactionToWire,
} from '../core/http/core-wire.js';
import { ContractViolation, type Json, object, optionalText, text } from '../core/http/wire-values.js';
import { MAX_CORE_ANSWER_BYTES, MAX_CORE_PAGE_LIMIT } from '../domain/limits.js';
import type { CoreStats } from './core-stats.js';
import { type Faults, changeFaults } from './faults.js';

/** What the reference core's HTTP side serves over, and tells. */
export interface ReferenceCoreParts {
  core: BankCore;
  key: CoreKey;
  stats: CoreStats;
  faults: { current: Faults };
  /** Runs the batch now (POST /admin/run-batch). */
  runBatch(): Promise<unknown>;
  /** A payment's status changed here: the callback pusher pushes soon. */
  changed(): void;
  logger?: boolean;
}

/** An answer of the contract other than 200, with the contract's error body. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    text: string,
  ) {
    super(text);
  }
}

const ADMIN = '/admin/';

/**
 * The contract of docs/core-api.yaml over HTTP, served over a BankCore (the embedded one, in the
 * reference core): each request's Core-Signature checked against the raw bytes of its body, the
 * records written with the one mapping HttpCore reads them with (src/core/http/core-wire.ts), and
 * the fault switches applied before anything else.
 */
export function referenceCoreApp(parts: ReferenceCoreParts): FastifyInstance {
  const app = Fastify({ logger: parts.logger ?? false, bodyLimit: MAX_CORE_ANSWER_BYTES });
  // The body as received: the signature covers its exact bytes.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  guardRequests(app, parts);

  registerRecordRoutes(app, parts.core);
  registerPaymentRoutes(app, parts);
  registerAdminRoutes(app, parts);
  return app;
}

/** The fault switches first, then the request's signature; a refusal or fault answered with the contract's error body. */
function guardRequests(app: FastifyInstance, parts: ReferenceCoreParts): void {
  app.addHook('onRequest', async (request, reply) => {
    const admin = request.url.startsWith(ADMIN);
    const faults = parts.faults.current;
    if (!admin && faults.slowMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.slowMs));
    if (!admin && faults.down)
      return reply.code(503).header('retry-after', '5').send({ code: 'DOWN', text: 'the core is down (fault switch)' });
    if (!admin && faults.error500)
      return reply.code(500).send({ code: 'INTERNAL', text: 'the core failed (fault switch)' });
    return undefined;
  });
  app.addHook('preHandler', async (request, reply) => {
    const raw = typeof request.body === 'string' ? request.body : undefined;
    const header = request.headers[CORE_SIGNATURE_HEADER];
    const problem = verifyCoreSignature(
      parts.key,
      typeof header === 'string' ? header : undefined,
      request.method,
      request.url,
      raw,
      new Date(),
    );
    if (problem !== undefined) return reply.code(401).send({ code: 'SIGNATURE_INVALID', text: problem });
    return undefined;
  });
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof Refusal) return reply.code(error.status).send({ code: error.code, text: error.message });
    if (error instanceof ContractViolation || error instanceof RangeError)
      return reply.code(400).send({ code: 'FORMAT_ERROR', text: error.message });
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500)
      return reply.code(status).send({ code: 'FORMAT_ERROR', text: (error as Error).message });
    reply.log.error({ err: error }, 'reference core failed');
    return reply.code(500).send({ code: 'INTERNAL', text: 'the core failed' });
  });
}

/** The bank's records the contract reads: customers, agreements and engagements, accounts and their transactions. */
function registerRecordRoutes(app: FastifyInstance, core: BankCore): void {
  app.get('/customers/:customerId', async (request) =>
    customerToWire(found(await core.findCustomer('', { id: param(request, 'customerId') }), 'customer')),
  );
  app.post('/customers/search', async (request) => {
    const customerNumber = text(body(request), 'customerNumber', 'search');
    return customerToWire(found(await core.findCustomer('', { customerNumber }), 'customer'));
  });
  app.get('/agreements/:agreementId', async (request) =>
    agreementToWire(found(await core.findAgreement('', param(request, 'agreementId')), 'agreement')),
  );
  app.get('/agreements/:agreementId/engagements/:customerId/:accountId', async (request) =>
    engagementToWire(
      found(
        await core.findEngagement(
          '',
          param(request, 'agreementId'),
          param(request, 'customerId'),
          param(request, 'accountId'),
        ),
        'engagement',
      ),
    ),
  );
  app.post('/accounts/search', async (request) => {
    const o = body(request);
    const by = { bban: optionalText(o, 'bban', 'search'), iban: optionalText(o, 'iban', 'search') };
    if (by.bban === undefined && by.iban === undefined) throw new ContractViolation('search has neither bban nor iban');
    return accountToWire(found(await core.findAccount('', by), 'account'));
  });
  app.get('/customers/:customerId/shareable-accounts', async (request) => {
    const agreementId = (request.query as Record<string, string | undefined>)['agreementId'];
    const shareable = await core.shareableAccounts('', param(request, 'customerId'), agreementId);
    return { accounts: shareable.accounts.map(accountToWire), cardAccounts: shareable.cards.map(cardAccountToWire) };
  });
  app.get('/accounts/:accountId/transactions', async (request) => ({
    transactions: (await core.aisTransactions(param(request, 'accountId'), pageQuery(request))).map(transactionToWire),
  }));
  app.get('/accounts/:accountId/transactions/:transactionId', async (request) =>
    transactionToWire(
      found(await core.findTransaction(param(request, 'accountId'), param(request, 'transactionId')), 'transaction'),
    ),
  );
  app.get('/card-accounts/:cardAccountId/transactions', async (request) => ({
    cardTransactions: (await core.aisCardTransactions(param(request, 'cardAccountId'), pageQuery(request))).map(
      cardTransactionToWire,
    ),
  }));
  app.post('/accounts/pending-payments', async (request) => {
    const o = body(request);
    const account = object(o['account'], 'account');
    const limit = Number(o['limit']);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CORE_PAGE_LIMIT)
      throw new ContractViolation(`limit must be from 1 to ${MAX_CORE_PAGE_LIMIT}`);
    const pending = await core.pendingPayments(
      '',
      { bban: text(account, 'bban', 'account'), iban: text(account, 'iban', 'account') },
      limit,
    );
    return { payments: pending.map(pendingPaymentToWire) };
  });
}

/** Payments handed over, their reports and cancellations. */
function registerPaymentRoutes(app: FastifyInstance, parts: ReferenceCoreParts): void {
  const { core } = parts;
  app.put('/payments/:paymentId', async (request) => {
    const order = paymentOrderFromWire(body(request));
    const paymentId = param(request, 'paymentId');
    if (order.paymentId !== paymentId)
      throw new ContractViolation(`the body's paymentId is not the path's (${paymentId})`);
    parts.stats.handedOver(paymentId);
    // answerTwice: the same hand-over taken twice at once, as a retry racing its original would be.
    const reports = parts.faults.current.answerTwice
      ? await Promise.all([core.submitPayment('', order), core.submitPayment('', order)])
      : [await core.submitPayment('', order)];
    parts.changed();
    return reportToWire(reports.at(-1)!);
  });
  app.get('/payments/:paymentId', async (request) =>
    reportToWire(found(await core.paymentReport('', param(request, 'paymentId')), 'payment')),
  );
  app.post('/payments/:paymentId/cancellation', async (request, reply) => {
    const result = await core.cancelPayment('', param(request, 'paymentId'));
    parts.changed();
    if (result.outcome === 'cancelled') return { transactionStatus: 'CANC' };
    return reply.code(409).send({ transactionStatus: result.transactionStatus });
  });
  app.get('/status-reports', async (request) => {
    const query = request.query as Record<string, string | string[] | undefined>;
    const after = query['after'];
    // Named twice, the query string gives a list, which no cursor is.
    if (Array.isArray(after)) throw new ContractViolation('after must be given at most once');
    const page = await core.statusReports('', after, limitOf(query['limit'] as string | undefined));
    return { reports: page.reports.map(reportToWire), ...(page.cursor === undefined ? {} : { cursor: page.cursor }) };
  });
}

/** The reference core's own switches and figures, for the tests and the bench (no part of the contract). */
function registerAdminRoutes(app: FastifyInstance, parts: ReferenceCoreParts): void {
  app.post('/admin/faults', async (request) => {
    const next = changeFaults(parts.faults.current, body(request));
    if (typeof next === 'string') throw new ContractViolation(next);
    parts.faults.current = next;
    return next;
  });
  app.get('/admin/stats', async () => parts.stats.toJSON());
  app.post('/admin/run-batch', async () => {
    const result = await parts.runBatch();
    parts.changed();
    return { ran: result ?? null };
  });
}

/** The value found, or a 404 naming what was not. */
function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Refusal(404, 'NOT_FOUND', `no such ${what}`);
  return value;
}

function param(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string>)[name]!;
}

function body(request: FastifyRequest): Json {
  if (typeof request.body !== 'string') throw new ContractViolation('the body must be JSON');
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.body);
  } catch {
    throw new ContractViolation('the body is not JSON');
  }
  return object(parsed, 'body');
}

function limitOf(text: string | undefined): number {
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CORE_PAGE_LIMIT)
    throw new ContractViolation(`limit must be a whole number from 1 to ${MAX_CORE_PAGE_LIMIT}`);
  return limit;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const POSITION = /^(\d{4}-\d{2}-\d{2})\.(\d{1,15})$/;

/** A page's query: dateFrom, dateTo, after (`<bookingDate>.<entryReference>`), limit. */
function pageQuery(request: FastifyRequest): AisTransactionQuery {
  const query = request.query as Record<string, string | undefined>;
  const date = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (!DATE.test(value)) throw new ContractViolation(`${name} must be a date (YYYY-MM-DD)`);
    return value;
  };
  const after = query['after'];
  const position = after === undefined ? undefined : POSITION.exec(after);
  if (position === null) throw new ContractViolation('after must be <bookingDate>.<entryReference>');
  return {
    dateFrom: date('dateFrom'),
    dateTo: date('dateTo'),
    after: position === undefined ? undefined : { bookingDate: position[1]!, seq: Number(position[2]) },
    limit: limitOf(query['limit']),
  };
}
