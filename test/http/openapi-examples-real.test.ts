import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { EXAMPLE_NOW } from '../../src/http/schemas/examples/example-values.js';
import type { OperationExample } from '../../src/http/schemas/examples/operation-example.js';
import { OPERATION_EXAMPLES } from '../../src/http/schemas/examples/operation-examples.js';
import { CONSENT_PATH, giveConsent, readAis } from '../support/ais-requests.js';
import { createHeaders } from '../support/payment-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * The examples of the OpenAPI document against the server's real answers: a sandbox bank whose clock
 * stands on the examples' day is sent each example request (and the requests before it that make
 * the state the example shows), and each real answer must have the example's status, the same set
 * of fields, its links (with their verbs) and ids in the same places, and the same status codes. Ids
 * differ from run to run; each id and SCA token is compared by where else it occurs in the answer.
 */

/** The operations no real request reaches with a success: the reason for each. */
const UNREACHED: Record<string, string> = {
  getPeriodicPaymentInitiationStatus:
    'its one product has a status route of its own (getPeriodicPaymentInitiationStatusNorwegianDomesticCreditTransfers)',
};

type Json = Record<string, any>;

let t: TestApp;
let paths: Record<string, Record<string, { operationId: string }>>;
const compared = new Set<string>();

before(async () => {
  t = await startTestApp({ clock: { now: () => new Date(EXAMPLE_NOW) } });
  paths = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json().paths;
});
after(() => t.close());

/** The operation a request reaches: its path template, the most literal one that matches, as the router picks. */
function operationIdOf(method: string, url: string): string {
  const path = url.split('?')[0]!;
  const candidates = Object.keys(paths).filter(
    (template) =>
      paths[template]![method.toLowerCase()] !== undefined &&
      new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
  candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  assert.ok(candidates[0], `no operation ${method} ${path}`);
  return paths[candidates[0]]![method.toLowerCase()]!.operationId;
}

/** Ids (enc!! ids, time-ordered authorisation ids) and SCA tokens: they differ from run to run. */
const ID = /enc!![A-Za-z0-9_-]+|\/sca\/[A-Za-z0-9_-]+|(?<![A-Za-z0-9_!+-])[A-Za-z0-9_-]{24}(?![A-Za-z0-9_+-])/g;

/**
 * What an answer must share with its example: its fields (array entries merged), every text holding
 * an id with each id numbered by its first occurrence (so that a link names the answer's own id), its
 * status codes, and the verbs of its links.
 */
function essence(answer: unknown) {
  const fields = new Set<string>();
  const ids: Record<string, string> = {};
  const statuses: Record<string, string> = {};
  const verbs: Record<string, string> = {};
  const numbers = new Map<string, string>();
  const visit = (value: unknown, field: string, at: string): void => {
    if (Array.isArray(value) && at.endsWith('.verbs')) verbs[at] = value.join();
    if (Array.isArray(value)) return value.forEach((entry, i) => visit(entry, `${field}[]`, `${at}[${i}]`));
    if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value).sort()) {
        fields.add(`${field}.${key}`);
        visit((value as Json)[key], `${field}.${key}`, `${at}.${key}`);
      }
      return;
    }
    // Multi-line text (PEM) holds no id, but may hold runs of base64 that look like one.
    if (typeof value !== 'string' || value.includes('\n')) return;
    const numbered = value.replace(ID, (id) => {
      if (!numbers.has(id)) numbers.set(id, `{${id.startsWith('/sca/') ? 'sca' : 'id'}${numbers.size}}`);
      return numbers.get(id)!;
    });
    if (numbered !== value) ids[at] = numbered;
    if (/(transaction|sca)Status$/.test(at)) statuses[at] = value;
  };
  visit(answer, '$', '$');
  return { fields: [...fields].sort(), ids, statuses, verbs };
}

/** The real answer of an operation against its example; the answer's JSON for the requests that follow. */
function check(method: string, url: string, response: LightMyRequestResponse): Json {
  const operationId = operationIdOf(method, url);
  const example: OperationExample | undefined = OPERATION_EXAMPLES[operationId];
  assert.ok(example, `${operationId} has an example`);
  const label = `${operationId} (${method} ${url})`;
  assert.equal(response.statusCode, example.answer.status, `${label}: ${response.body}`);
  compared.add(operationId);
  if (example.answer.body === undefined) return {};
  const real = response.json() as Json;
  assert.deepEqual(essence(real), essence(example.answer.body), `${label}: the real answer\n${response.body}`);
  return real;
}

function signed(method: string, url: string, body?: unknown, headers?: Record<string, string>) {
  return t.signed({
    method,
    url,
    // Operations that change the bank but take no body are signed over the empty body, with its Digest.
    body: body ?? (method === 'POST' ? '' : undefined),
    headers: { ...(body === undefined && method === 'POST' ? { 'content-type': 'application/json' } : {}), ...headers },
  });
}

/** Sends the example request of an operation and checks the answer against the example's. */
async function sendExample(method: string, url: string, headers?: Record<string, string>): Promise<Json> {
  return check(
    method,
    url,
    await signed(method, url, OPERATION_EXAMPLES[operationIdOf(method, url)]!.request, headers),
  );
}

/** Ola Nordmann approves on the SCA page behind this link. */
async function approve(link: string): Promise<void> {
  const psu = new ScriptedPsu(t.app);
  await psu.open(link);
  await psu.logIn('13039319955', '123456');
  const done = await psu.approve();
  assert.ok(done.statusCode < 400, done.body);
}

/**
 * A payment's authorisation sub-resources and cancellation, as the examples show them: a second
 * authorisation, the list, the PSU's approval, its SCA status, the payment's status; then the
 * cancellation, which needs an SCA of its own, and its sub-resources.
 */
async function authoriseAndCancel(self: string): Promise<void> {
  const started = check('POST', `${self}/authorisations`, await signed('POST', `${self}/authorisations`));
  check('GET', `${self}/authorisations`, await signed('GET', `${self}/authorisations`));
  await approve(started._links.scaRedirect.href);
  check('GET', started._links.scaStatus.href, await signed('GET', started._links.scaStatus.href));
  check('GET', `${self}/status`, await signed('GET', `${self}/status`));
  await cancel(self);
}

async function cancel(self: string): Promise<void> {
  check('DELETE', self, await signed('DELETE', self));
  const cancellations = `${self}/cancellation-authorisations`;
  const started = check('POST', cancellations, await signed('POST', cancellations));
  check('GET', cancellations, await signed('GET', cancellations));
  check('GET', started._links.scaStatus.href, await signed('GET', started._links.scaStatus.href));
}

async function sandboxCustomer(customerNumber: string): Promise<Json> {
  const customers = (await signed('GET', '/v1/sandbox/customers')).json() as Json[];
  return customers.find((c) => c.customerNumber === customerNumber)!;
}

const NDCT = '/v1/payments/norwegian-domestic-credit-transfers';
const BULK = '/v1/bulk-payments/norwegian-domestic-credit-transfers';
const PERIODIC = '/v1/periodic-payments/norwegian-domestic-credit-transfers';

describe('the examples against the real answers of a sandbox bank on the examples’ day', () => {
  /** Each product's payment made from its example request: its resource path. */
  const created = new Map<string, string>();
  let ola: Json;

  it('payments of every product: create and read', async () => {
    ola = await sandboxCustomer('13039319955');
    for (const product of [
      NDCT,
      '/v1/payments/instant-norwegian-domestic-credit-transfers-straks',
      '/v1/payments/sepa-credit-transfers',
      '/v1/payments/cross-border-credit-transfers',
      '/v1/payments/norwegian-cross-border-credit-transfers',
      BULK,
      PERIODIC,
    ]) {
      const self = (await sendExample('POST', product, createHeaders()))._links.self.href as string;
      check('GET', self, await signed('GET', self));
      created.set(product, self);
    }
  });

  it('test data: transactions posted to Ola Nordmann’s account, his credit card and its purchases', async () => {
    const transactions = `/v1/sandbox/accounts/${ola.accounts[0]}/transactions`;
    const posted = (await sendExample('POST', transactions)) as unknown as Json[];
    check('GET', transactions, await signed('GET', transactions));
    check('GET', posted[0]!._links.self.href, await signed('GET', posted[0]!._links.self.href));
    const card = await sendExample('POST', '/v1/sandbox/card-accounts');
    check('GET', card._links.self.href, await signed('GET', card._links.self.href));
    const purchases = (await sendExample('POST', card._links.transactions.href)) as unknown as Json[];
    check('GET', card._links.transactions.href, await signed('GET', card._links.transactions.href));
    check('GET', purchases[0]!._links.self.href, await signed('GET', purchases[0]!._links.self.href));
  });

  it('the bill payment authorised; account information with it pending; its cancellation', async () => {
    const self = created.get(NDCT)!;
    const started = check('POST', `${self}/authorisations`, await signed('POST', `${self}/authorisations`));
    check('GET', `${self}/authorisations`, await signed('GET', `${self}/authorisations`));
    await approve(started._links.scaRedirect.href);
    check('GET', started._links.scaStatus.href, await signed('GET', started._links.scaStatus.href));
    check('GET', `${self}/status`, await signed('GET', `${self}/status`));

    const asked = await signed('POST', CONSENT_PATH, undefined, { 'TPP-Redirect-URI': 'https://tpp.example/cb' });
    check('POST', CONSENT_PATH, asked);
    const session = await giveConsent(t);
    const read = async (url: string) => check('GET', url, await readAis(t, url, session));
    const account = (await read('/v1/accounts')).accounts[0]._links.self.href as string;
    await read(account);
    await read(`${account}/balances`);
    const transactions = await read(`${account}/transactions?bookingStatus=both&dateFrom=2026-11-01`);
    // The transaction the example shows, found by its message.
    const shown = (OPERATION_EXAMPLES.getTransactionDetails!.answer.body as Json).transactionsDetails;
    const booked = (transactions.transactions.booked as Json[]).find(
      (b) => b.remittanceInformationUnstructured === shown.remittanceInformationUnstructured,
    )!;
    await read(booked._links.transactionDetails.href);
    const card = (await read('/v1/card-accounts')).cardAccounts[0]._links.self.href as string;
    await read(card);
    await read(`${card}/balances`);
    await read(`${card}/transactions?bookingStatus=both&dateFrom=2026-11-01`);
    const consent = `/v1/consents/${session.tppSessionId}`;
    check('DELETE', consent, await signed('DELETE', consent));

    await cancel(self);
  });

  it('the bulk payment authorised and its cancellation; the standing order authorised', async () => {
    await authoriseAndCancel(created.get(BULK)!);
    const periodic = created.get(PERIODIC)!;
    const started = check('POST', `${periodic}/authorisations`, await signed('POST', `${periodic}/authorisations`));
    check('GET', `${periodic}/authorisations`, await signed('GET', `${periodic}/authorisations`));
    await approve(started._links.scaRedirect.href);
    check('GET', started._links.scaStatus.href, await signed('GET', started._links.scaStatus.href));
  });

  it('a signing basket of two payments, approved with one SCA; another deleted', async () => {
    const payment = async (product: string, amount: { amount: string; currency: string }) => {
      // Another amount than the example's: the same payment again would be a logical duplicate (409).
      const body = {
        ...(OPERATION_EXAMPLES[operationIdOf('POST', product)]!.request as Json),
        instructedAmount: amount,
      };
      const answer = await signed('POST', product, body, createHeaders());
      assert.equal(answer.statusCode, 201, answer.body);
      return answer.json().paymentId as string;
    };
    const paymentIds = [
      await payment(NDCT, { amount: '1512.00', currency: 'NOK' }),
      await payment('/v1/payments/sepa-credit-transfers', { amount: '180.00', currency: 'EUR' }),
    ];
    const basket = check(
      'POST',
      '/v1/signing-baskets',
      await signed('POST', '/v1/signing-baskets', { paymentIds }, createHeaders()),
    );
    const self = basket._links.self.href as string;
    check('GET', self, await signed('GET', self));
    const started = check('POST', `${self}/authorisations`, await signed('POST', `${self}/authorisations`));
    check('GET', `${self}/authorisations`, await signed('GET', `${self}/authorisations`));
    await approve(started._links.scaRedirect.href);
    check('GET', started._links.scaStatus.href, await signed('GET', started._links.scaStatus.href));
    check('GET', `${self}/status`, await signed('GET', `${self}/status`));
    const other = await signed(
      'POST',
      '/v1/signing-baskets',
      { paymentIds: [await payment(NDCT, { amount: '1620.00', currency: 'NOK' })] },
      createHeaders(),
    );
    check('DELETE', other.json()._links.self.href, await signed('DELETE', other.json()._links.self.href));
  });

  it('a scenario armed and disarmed on the examples’ day (its until must be after the bank’s clock)', async () => {
    const armed = await sendExample('POST', '/v1/sandbox/scenarios');
    check('GET', '/v1/sandbox/scenarios', await signed('GET', '/v1/sandbox/scenarios'));
    check('DELETE', armed._links.self.href, await signed('DELETE', armed._links.self.href));
  });

  it('the sandbox clock moved a day, a batch run, and the standing order after its first execution', async () => {
    check('GET', '/v1/sandbox/clock', await signed('GET', '/v1/sandbox/clock'));
    await sendExample('POST', '/v1/sandbox/clock');
    check('POST', '/v1/sandbox/batch-runs', await signed('POST', '/v1/sandbox/batch-runs'));
    const moved = await signed('POST', '/v1/sandbox/clock', { to: '2027-01-21T08:00:00.000Z' });
    assert.equal(moved.statusCode, 200, moved.body);
    const periodic = created.get(PERIODIC)!;
    check('GET', `${periodic}/status`, await signed('GET', `${periodic}/status`));
    await cancel(periodic);
    const per = await sandboxCustomer('15077934577');
    const orders = `/v1/sandbox/accounts/${per.accounts[0]}/standing-orders`;
    check('GET', orders, await signed('GET', orders));
  });

  it('test customers, accounts and agreements; a new start; a snapshot saved and restored; a second key; a certificate; a console link', async () => {
    const customer = await sendExample('POST', '/v1/sandbox/customers');
    check(
      'PATCH',
      customer._links.self.href,
      await signed('PATCH', customer._links.self.href, OPERATION_EXAMPLES.updateSandboxCustomer!.request),
    );
    check('GET', '/v1/sandbox/customers?limit=2', await signed('GET', '/v1/sandbox/customers?limit=2'));
    check(
      'GET',
      `/v1/sandbox/customers/${ola.customerId}`,
      await signed('GET', `/v1/sandbox/customers/${ola.customerId}`),
    );
    const agreement = await sendExample('POST', '/v1/sandbox/agreements');
    check('GET', agreement._links.self.href, await signed('GET', agreement._links.self.href));
    check('DELETE', agreement._links.self.href, await signed('DELETE', agreement._links.self.href));
    const account = await sendExample('POST', '/v1/sandbox/accounts');
    check('GET', account._links.self.href, await signed('GET', account._links.self.href));
    check(
      'PATCH',
      account._links.self.href,
      await signed('PATCH', account._links.self.href, OPERATION_EXAMPLES.updateSandboxAccount!.request),
    );
    check('DELETE', account._links.self.href, await signed('DELETE', account._links.self.href));
    const card = `/v1/sandbox/card-accounts/${(await sandboxCustomer('13039319955')).cardAccounts[0]}`;
    check('DELETE', card, await signed('DELETE', card));
    check('DELETE', customer._links.self.href, await signed('DELETE', customer._links.self.href));
    check('POST', '/v1/sandbox/initialize', await signed('POST', '/v1/sandbox/initialize'));
    const saved = await sendExample('POST', '/v1/sandbox/snapshots');
    check('GET', '/v1/sandbox/snapshots', await signed('GET', '/v1/sandbox/snapshots'));
    check('GET', saved._links.self.href, await signed('GET', saved._links.self.href));
    check('POST', saved._links.restore.href, await signed('POST', saved._links.restore.href));
    check('DELETE', saved._links.self.href, await signed('DELETE', saved._links.self.href));
    const bound = await sendExample('POST', '/v1/sandbox/keys');
    check('GET', '/v1/sandbox/keys', await signed('GET', '/v1/sandbox/keys'));
    const second = (bound.keys as Json[]).find((k) => k.current === false)!.keySha256 as string;
    check('DELETE', `/v1/sandbox/keys/${second}`, await signed('DELETE', `/v1/sandbox/keys/${second}`));
    const link = check('POST', '/v1/sandbox/console-links', await signed('POST', '/v1/sandbox/console-links'));
    assert.match(link.href, /^http:\/\/127\.0\.0\.1:8080\/console\/enter\?token=[\w.-]+$/);
    assert.equal(link.expiresAt, '2026-11-26T10:05:00.000Z', 'five minutes after the examples’ instant');
    const docs = check('POST', '/v1/sandbox/docs-links', await signed('POST', '/v1/sandbox/docs-links'));
    assert.match(docs.href, /^http:\/\/127\.0\.0\.1:8080\/docs\/#bind=[\w.%-]+$/);
    // The example's key again (the CI runner's, unbound above), with the real link's token.
    const bindExample = OPERATION_EXAMPLES.bindSandboxDocsLinkKey!.request as Json;
    check(
      'POST',
      '/v1/sandbox/docs-links/bind',
      await t.app.inject({
        method: 'POST',
        url: '/v1/sandbox/docs-links/bind',
        payload: { ...bindExample, token: decodeURIComponent(new URL(docs.href).hash.slice('#bind='.length)) },
      }),
    );
    const request = OPERATION_EXAMPLES.issueSandboxCertificate!.request as Json;
    check(
      'POST',
      '/v1/sandbox/certificates',
      await t.app.inject({ method: 'POST', url: '/v1/sandbox/certificates', payload: request }),
    );
  });

  it('reach every operation but those no request can reach', () => {
    const missed = Object.keys(OPERATION_EXAMPLES).filter((id) => !compared.has(id) && UNREACHED[id] === undefined);
    assert.deepEqual(missed, [], 'operations whose example no real answer was compared with');
    for (const id of Object.keys(UNREACHED)) assert.ok(!compared.has(id), `${id} is reached after all`);
  });
});
