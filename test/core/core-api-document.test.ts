import { ndctOrder } from '../support/core-orders.js';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import type { PaymentOrder } from '../../src/core/core-records.js';
import { parseCoreKey, signCoreRequest } from '../../src/core/http/core-signature.js';
import { HttpCore } from '../../src/core/http/http-core.js';
import { NO_FAULTS } from '../../src/reference-core/faults.js';
import { type ReferenceCore, startReferenceCore } from '../../src/reference-core/reference-core.js';
import { bulkBody } from '../support/payment-requests.js';
import { periodicBody } from '../support/periodic-requests.js';

const KEY = parseCoreKey('77'.repeat(32), 'test');

interface Operation {
  requestBody?: { content: { 'application/json': { schema: unknown } } };
  responses: Record<string, { $ref?: string; content?: { 'application/json': { schema: unknown } } }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content: { 'application/json': { schema: unknown } } }> };
}

/** One call HttpCore made, as the wire carried it. */
interface Exchange {
  method: string;
  path: string;
  requestBody: unknown;
  status: number;
  responseBody: unknown;
}

const document = parse(readFileSync('docs/core-api.yaml', 'utf8')) as Document;
// OpenAPI 3.1's schemas are JSON Schema 2020-12; `example` is OpenAPI's own keyword, hence not strict.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(document as object, 'core-api');

/** The operation of the document a request is for: its method and path template. */
function operationOf(method: string, path: string): { template: string; operation: Operation } | undefined {
  for (const [template, operations] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const operation = operations[method.toLowerCase()];
    if (operation !== undefined && pattern.test(path)) return { template, operation };
  }
  return undefined;
}

function pointer(template: string, method: string, ...rest: string[]): string {
  const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  return `core-api#/paths/${escape(template)}/${method.toLowerCase()}/${rest.map(escape).join('/')}`;
}

function check(ref: string, value: unknown, what: string): void {
  const validate = ajv.getSchema(ref);
  assert.ok(validate, `no schema at ${ref}`);
  assert.ok(validate(value), `${what}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 400)}`);
}

describe('docs/core-api.yaml describes what travels: the reference core and HttpCore keep to it', () => {
  let dir: string;
  let reference: ReferenceCore;
  const exchanges: Exchange[] = [];
  let core: HttpCore;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'core-api-document-'));
    reference = await startReferenceCore({
      host: '127.0.0.1',
      port: 0,
      database: { kind: 'sqlite', path: join(dir, 'core.db') },
      key: KEY,
      callbackUrl: undefined,
      faults: NO_FAULTS,
    });
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(String(input));
      const text = await response.clone().text();
      exchanges.push({
        method: init?.method ?? 'GET',
        path: url.pathname,
        requestBody: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
        status: response.status,
        responseBody: text === '' ? undefined : JSON.parse(text),
      });
      return response;
    };
    core = new HttpCore({ url: reference.url, key: KEY, fetch: recording });
  });
  after(async () => {
    await reference.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('every request and answer of every operation is valid by the document', async () => {
    const ola = (await core.findCustomer('', { customerNumber: '13039319955' }))!;
    await core.findCustomer('', { id: ola.id });
    await core.findCustomer('', { id: 'enc!!nobody' });
    await core.findAgreement('', 'AGR-18129215603');
    const operating = (await core.findAccount('', { bban: '15062056786' }))!;
    await core.findEngagement('', 'AGR-18129215603', ola.id, operating.id);
    await core.findAccount('', { iban: operating.iban });
    const cardId = `card-${randomUUID()}`;
    await reference.store.createSandboxCardAccount('', {
      id: cardId,
      customerId: ola.id,
      maskedPan: '4321xxxxxxxx1234',
      name: 'Visa',
      product: 'Gold',
      currency: 'NOK',
      creditLimitMinor: 100_000n,
      balanceMinor: 0n,
      body: { cardAccountStatus: 'enabled' },
      createdAt: new Date(),
    });
    await reference.store.addSandboxCardTransactions(
      cardId,
      [{ id: `${cardId}-1`, bookingDate: '2026-10-01', body: {} }],
      new Date(),
    );
    await core.shareableAccounts('', ola.id, undefined);
    await core.shareableAccounts('', ola.id, 'AGR-18129215603');
    await core.aisCardTransactions(cardId, { dateFrom: undefined, dateTo: undefined, after: undefined, limit: 10 });
    const per = (await core.findAccount('', { bban: '15062073540' }))!;
    const transactions = await core.aisTransactions(per.id, {
      dateFrom: '2000-01-01',
      dateTo: undefined,
      after: undefined,
      limit: 10,
    });
    await core.findTransaction(per.id, transactions[0]!.id);

    const order = (changes: Partial<PaymentOrder>): PaymentOrder =>
      ndctOrder({ transactionFees: { amountMinor: 100n, currency: 'NOK' }, signerCustomerId: ola.id, ...changes });
    const single = order({});
    await core.submitPayment('', single);
    await core.submitPayment(
      '',
      order({
        paymentService: 'bulk-payments',
        initiation: { ...bulkBody(2), debtorAccount: { bban: '15061012343', currency: 'NOK' } },
      }),
    );
    const start = new Date();
    start.setUTCMonth(start.getUTCMonth() + 2, 1);
    await core.submitPayment(
      '',
      order({
        paymentService: 'periodic-payments',
        initiation: periodicBody({
          debtorAccount: { bban: '15061012343', currency: 'NOK' },
          startDate: start.toISOString().slice(0, 10),
        }),
      }),
    );
    await core.submitPayment('', order({ paymentProduct: 'no-such-product' }));
    const current = (await core.findAccount('', { bban: '15061012343' }))!;
    await core.pendingPayments('', current, 100);
    const cancelled = order({});
    await core.submitPayment('', cancelled);
    await core.cancelPayment('', cancelled.paymentId);
    const path = '/admin/run-batch';
    await fetch(`${reference.url}${path}`, {
      method: 'POST',
      headers: { 'core-signature': signCoreRequest(KEY, 'POST', path, undefined, new Date()) },
    });
    await core.cancelPayment('', single.paymentId);
    await core.paymentReport('', single.paymentId);
    const page = await core.statusReports('', undefined, 100);
    await core.statusReports('', page.cursor, 100);

    const exercised = new Set<string>();
    for (const exchange of exchanges) {
      const found = operationOf(exchange.method, exchange.path);
      assert.ok(found, `${exchange.method} ${exchange.path} is no operation of the document`);
      const { template, operation } = found;
      exercised.add(`${exchange.method} ${template}`);
      const what = `${exchange.method} ${template} ${exchange.status}`;
      if (exchange.requestBody !== undefined)
        check(
          pointer(template, exchange.method, 'requestBody', 'content', 'application/json', 'schema'),
          exchange.requestBody,
          `${what} request`,
        );
      const answer = operation.responses[String(exchange.status)];
      assert.ok(answer, `${what}: the document gives no such answer`);
      if (answer.$ref !== undefined) {
        check(`core-api${answer.$ref}/content/application~1json/schema`, exchange.responseBody, what);
      } else if (answer.content !== undefined) {
        check(
          pointer(
            template,
            exchange.method,
            'responses',
            String(exchange.status),
            'content',
            'application/json',
            'schema',
          ),
          exchange.responseBody,
          what,
        );
      }
    }
    // The status reports as the core pushes them are the callback's body.
    const reports = exchanges
      .filter((e) => e.path === '/status-reports')
      .flatMap((e) => (e.responseBody as { reports: unknown[] }).reports);
    assert.ok(reports.length > 0);
    check(
      pointer('/core/v1/status-reports', 'POST', 'requestBody', 'content', 'application/json', 'schema'),
      { reports: reports.slice(0, 500) },
      'the callback',
    );

    const all = Object.entries(document.paths).flatMap(([template, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${template}`),
    );
    assert.deepEqual(
      all.filter((o) => !exercised.has(o)),
      ['POST /core/v1/status-reports'],
      'every operation of the core exercised',
    );
    assert.ok(
      exchanges.some((e) => e.status === 409),
      'a refused cancellation',
    );
    assert.ok(
      exchanges.some((e) => e.status === 404),
      'a look-up of nothing',
    );
  });
});
