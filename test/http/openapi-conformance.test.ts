import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import {
  BULK_PATH,
  CROSS_BORDER_PATH,
  OLA_ACCOUNTS,
  bulkBody,
  createBulk,
  createCrossBorder,
  createHeaders,
  crossBorderBody,
} from '../support/payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';
import { PERIODIC_PATH, periodicBody } from '../support/periodic-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { TPP_ID } from '../support/tpp-fixtures.js';
import { addDays, osloDate } from '../../src/domain/clock.js';
import {
  CBCT_PATH,
  NDCT_PATH,
  SEPA_PATH,
  STRAKS_PATH,
  cbctBody,
  createSingle,
  ndctBody,
  sepaBody,
} from '../support/single-payment-requests.js';
import { CONSENT_PATH, askConsent, giveConsent, readAis } from '../support/ais-requests.js';
import {
  ELSEWHERE,
  approvedBulk,
  bankDate,
  newAisCustomer,
  postCardTransactions,
  postTransactions,
} from '../support/ais-data.js';

/** spec, Errors: the values allowed in the `code` of a TppMessage, as the specification lists them. */
const SPEC_TPP_MESSAGE_CODES =
  'SYSTEM_ERROR, BAD_REQUEST, FORBIDDEN, NOT_FOUND, CONFLICT, HTTP_HEADER_REQUIRED, QUERY_PARAMETER_REQUIRED, SCA_NOT_FOUND, SCA_EXPIRED, SCA_INVALID, FORMAT_ERROR, RESOURCE_UNKNOWN, PSU_CREDENTIALS_INVALID, CONSENT_UNKNOWN, CONSENT_INVALID, CONSENT_EXPIRED, ACCESS_EXCEEDED, PRODUCT_UNKNOWN, PRODUCT_INVALID, KID_MISSING, KID_INVALID, PAYMENT_FAILED, EXECUTION_DATE_INVALID'.split(
    ', ',
  );

/**
 * The OpenAPI document describes both create operations, their headers, bodies and every response;
 * real answers of the server are checked against the schema the document gives for them.
 */
interface OpenApi {
  components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> };
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; required?: boolean }[];
        requestBody?: unknown;
        responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
      }
    >
  >;
}

let t: TestApp;
let document: OpenApi;
let ajv: Ajv;

before(async () => {
  t = await startTestApp();
  document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as OpenApi;
  ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  ajv.addSchema(document as object, 'openapi');
});
after(() => t.close());

function templateOf(method: string, url: string): string {
  const path = url.split('?')[0]!;
  const candidates = Object.keys(document.paths).filter((template) => {
    if (document.paths[template]![method.toLowerCase()] === undefined) return false;
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(path);
  });
  // A literal segment is more specific than a parameter, as in the router.
  candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  assert.ok(candidates[0], `the OpenAPI document has no ${method} operation for ${path}`);
  return candidates[0];
}

function validatorFor(method: string, url: string, status: number): ValidateFunction {
  const template = templateOf(method, url);
  const responses = document.paths[template]![method.toLowerCase()]!.responses;
  assert.ok(responses[String(status)], `the OpenAPI document has no ${status} response for ${method} ${template}`);
  const pointer = `openapi#/paths/${template.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
  const validate = ajv.getSchema(pointer);
  assert.ok(validate, `no schema at ${pointer}`);
  return validate;
}

function conforms(method: string, url: string, response: LightMyRequestResponse): void {
  if (response.statusCode === 204) {
    const template = templateOf(method, url);
    assert.ok(
      document.paths[template]![method.toLowerCase()]!.responses['204'],
      `204 is not documented for ${method} ${template}`,
    );
    return;
  }
  const validate = validatorFor(method, url, response.statusCode);
  assert.equal(
    validate(response.json()),
    true,
    `${method} ${url} ${response.statusCode} does not match its OpenAPI schema: ${JSON.stringify(validate.errors)}\n${response.body}`,
  );
}

describe('the OpenAPI document', () => {
  it('describes both create operations with their required headers and body', () => {
    for (const [path, acceptFix] of [
      [CROSS_BORDER_PATH, true],
      [BULK_PATH, false],
    ] as const) {
      const operation = document.paths[path]?.post;
      assert.ok(operation, `${path} is documented`);
      const headers = new Map(
        operation.parameters?.filter((p) => p.in === 'header').map((p) => [p.name, p.required === true]),
      );
      // The signature's two headers are required through the operation's security schemes.
      const schemes = (document as unknown as { components: { securitySchemes: Record<string, { name: string }> } })
        .components.securitySchemes;
      for (const scheme of Object.keys((operation as { security?: Record<string, unknown>[] }).security?.[0] ?? {}))
        headers.set(schemes[scheme]!.name, true);
      for (const name of [
        'X-Request-ID',
        'TPP-Session-ID',
        'TPP-Redirect-URI',
        'Digest',
        'TPP-Signature-Certificate',
        'Signature',
        'PSU-IP-Address',
      ]) {
        assert.equal(headers.get(name), true, `${path}: ${name} is a required header`);
      }
      assert.equal(headers.get('x-accept-fix'), acceptFix);
      assert.ok(headers.has('PSU-ID') && headers.has('X-PSU-IDENTITY') && headers.has('PSU-Context'));
      assert.ok(operation.requestBody, `${path} documents its body`);
      for (const status of ['201', '400', '401', '403', '404', '406', '409', '500'])
        assert.ok(operation.responses[status], `${path} documents ${status}`);
    }
  });

  it('gives the TppMessage code as an enum that is exactly the list of the specification', () => {
    assert.deepEqual(document.components.schemas.TppMessage?.properties?.code?.enum, SPEC_TPP_MESSAGE_CODES);
  });

  it('matches real answers of the create, read, status and cancel operations', async () => {
    const cross = await createCrossBorder(t);
    conforms('POST', CROSS_BORDER_PATH, cross);
    const bulk = await createBulk(t);
    conforms('POST', BULK_PATH, bulk);
    const below = crossBorderBody();
    below.instructedAmount = { amount: '500.00', currency: 'NOK' };
    conforms('POST', CROSS_BORDER_PATH, await createCrossBorder(t, { body: below }));
    for (const created of [cross.json(), bulk.json()]) {
      const self = created._links.self.href as string;
      conforms('GET', self, await t.signed({ method: 'GET', url: self }));
      conforms('GET', `${self}/status`, await t.signed({ method: 'GET', url: `${self}/status` }));
      conforms('DELETE', self, await t.signed({ method: 'DELETE', url: self }));
      conforms('DELETE', self, await t.signed({ method: 'DELETE', url: self }));
    }
  });

  it('documents and matches real answers of the single payments of every product: create, read, status, authorisation, cancel and a 400', async () => {
    for (const [path, body] of [
      [NDCT_PATH, ndctBody],
      [STRAKS_PATH, ndctBody],
      [SEPA_PATH, sepaBody],
      [CBCT_PATH, cbctBody],
    ] as const) {
      const operation = document.paths[path]?.post;
      assert.ok(operation?.requestBody, `${path} is documented with its body`);
      for (const status of ['201', '400', '401', '403', '404', '409'])
        assert.ok(operation.responses[status], `${path} documents ${status}`);
      const created = await createSingle(t, path, body(), { without: ['PSU-Context'] });
      assert.equal(created.statusCode, 201, created.body);
      conforms('POST', path, created);
      const self = created.json()._links.self.href as string;
      conforms('GET', self, await t.signed({ method: 'GET', url: self }));
      conforms('GET', `${self}/status`, await t.signed({ method: 'GET', url: `${self}/status` }));
      const started = await t.signed({
        method: 'POST',
        url: `${self}/authorisations`,
        headers: { 'TPP-Redirect-URI': 'https://tpp.example/again' },
      });
      assert.equal(started.statusCode, 201, started.body);
      conforms('POST', `${self}/authorisations`, started);
      conforms('DELETE', self, await t.signed({ method: 'DELETE', url: self }));
      conforms('POST', path, await createSingle(t, path, { ...body(), creditorName: '' }));
    }
  });

  it('matches real answers of the signing basket operations and the 401 challenge', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push((await createCrossBorder(t, { without: ['PSU-Context'] })).json().paymentId);
    const created = await t.signed({
      method: 'POST',
      url: '/v1/signing-baskets',
      body: { paymentIds: ids },
      headers: createHeaders(),
    });
    conforms('POST', '/v1/signing-baskets', created);
    const self = created.json()._links.self.href as string;
    conforms('GET', self, await t.signed({ method: 'GET', url: self }));
    conforms('GET', `${self}/status`, await t.signed({ method: 'GET', url: `${self}/status` }));
    conforms(
      'POST',
      '/v1/signing-baskets',
      await t.signed({
        method: 'POST',
        url: '/v1/signing-baskets',
        body: { paymentIds: [(await createBulk(t)).json().paymentId] },
        headers: createHeaders(),
      }),
    );
    const challenge = await createCrossBorder(t, { headers: { 'PSU-ID': '11111111-2222-4333-8444-555555555557' } });
    assert.equal(challenge.statusCode, 401);
    conforms('POST', CROSS_BORDER_PATH, challenge);
    conforms('DELETE', self, await t.signed({ method: 'DELETE', url: self }));
  });

  it('matches real answers of the authorisation sub-resources of payments, bulk payments and baskets, and of the cancellation SCA', async () => {
    const olaCross = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } };
    const olaBulk = { ...bulkBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } };
    const basketIds: string[] = [];
    for (const created of [
      await createCrossBorder(t, { body: olaCross, without: ['PSU-Context'] }),
      await createBulk(t, { body: olaBulk, without: ['PSU-Context'] }),
    ]) {
      const self = created.json()._links.self.href as string;
      const started = await t.signed({ method: 'POST', url: `${self}/authorisations` });
      conforms('POST', `${self}/authorisations`, started);
      conforms('GET', `${self}/authorisations`, await t.signed({ method: 'GET', url: `${self}/authorisations` }));
      const scaStatus = started.json()._links.scaStatus.href as string;
      conforms('GET', scaStatus, await t.signed({ method: 'GET', url: scaStatus }));
      conforms('GET', `${self}/authorisations/x`, await t.signed({ method: 'GET', url: `${self}/authorisations/x` }));
      const psu = new ScriptedPsu(t.app);
      await psu.open(started.json()._links.scaRedirect.href);
      await psu.logIn('13039319955', '123456');
      await psu.approve();
      const deleted = await t.signed({ method: 'DELETE', url: self });
      assert.equal(deleted.statusCode, 202, deleted.body);
      conforms('DELETE', self, deleted);
      const cancellations = `${self}/cancellation-authorisations`;
      const cancellation = await t.signed({ method: 'POST', url: cancellations });
      conforms('POST', cancellations, cancellation);
      conforms('GET', cancellations, await t.signed({ method: 'GET', url: cancellations }));
      const cancellationStatus = cancellation.json()._links.scaStatus.href as string;
      conforms('GET', cancellationStatus, await t.signed({ method: 'GET', url: cancellationStatus }));
    }
    const waitingBody = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } };
    const waiting = (await createCrossBorder(t, { body: waitingBody, without: ['PSU-Context'] })).json();
    conforms(
      'POST',
      `${waiting._links.self.href}/cancellation-authorisations`,
      await t.signed({ method: 'POST', url: `${waiting._links.self.href}/cancellation-authorisations` }),
    );
    basketIds.push(waiting.paymentId);
    const basket = await t.signed({
      method: 'POST',
      url: '/v1/signing-baskets',
      body: { paymentIds: basketIds },
      headers: createHeaders(),
    });
    const list = `${basket.json()._links.self.href}/authorisations`;
    const started = await t.signed({ method: 'POST', url: list });
    conforms('POST', list, started);
    conforms('GET', list, await t.signed({ method: 'GET', url: list }));
    const scaStatus = started.json()._links.scaStatus.href as string;
    conforms('GET', scaStatus, await t.signed({ method: 'GET', url: scaStatus }));
  });

  it('matches real answers of the account-information operations, their 401 challenge, 404 and 429', async () => {
    conforms('POST', CONSENT_PATH, await askConsent(t));
    const customer = await newAisCustomer(t, [{ balance: 100 }], 1);
    const day = await bankDate(t, -1);
    await postTransactions(t, customer.accounts[0]!, [
      { amount: 1, bookingDate: day },
      { amount: -2, bookingDate: day },
    ]);
    await postCardTransactions(t, customer.cards[0]!.id, [
      { bookingDate: day, amount: -3, original: { amount: -2.5, currency: 'EUR' } },
    ]);
    // An authorised payment not yet executed: the transactions' pending entries.
    const pending = bulkBody(1);
    pending.debtorAccount = { bban: customer.accounts[0]!.bban, currency: 'NOK' };
    (pending.payments as Record<string, unknown>[])[0]!.creditorAccount = { bban: ELSEWHERE.bban, currency: 'NOK' };
    await approvedBulk(t, customer.number, pending);
    const session = await giveConsent(t, { customerNumber: customer.number });
    const account = `/v1/accounts/${encodeURIComponent(customer.accounts[0]!.id)}`;
    const card = `/v1/card-accounts/${encodeURIComponent(customer.cards[0]!.id)}`;
    const urls = [
      '/v1/accounts?withBalance=true',
      `${account}?withBalance=true`,
      `${account}/balances`,
      `${account}/transactions?bookingStatus=all&dateFrom=${day}&limit=1&withBalance=true`,
      '/v1/card-accounts?withBalance=true',
      card,
      `${card}/balances`,
      `${card}/transactions?bookingStatus=both&dateFrom=${day}`,
    ];
    for (const url of urls) {
      const response = await readAis(t, url, session, { headers: { 'x-accept-fix': 'unknown-fix' } });
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      conforms('GET', url, response);
    }
    const listed = (await readAis(t, urls[3]!, session)).json() as { transactions: { pending: unknown[] } };
    assert.equal(listed.transactions.pending.length, 1, 'the pending entry was checked against its schema');
    const page = (await readAis(t, urls[3]!, session)).json() as {
      transactions: { booked: { _links: { transactionDetails: { href: string } } }[] };
    };
    const detail = page.transactions.booked[0]!._links.transactionDetails.href;
    conforms('GET', detail, await readAis(t, detail, session));
    const challenge = await readAis(t, '/v1/accounts', undefined);
    assert.equal(challenge.statusCode, 401);
    conforms('GET', '/v1/accounts', challenge);
    conforms('GET', `${account}/balances`, await readAis(t, '/v1/accounts/enc!!unknown/balances', session));
    for (let i = 0; i < 4; i++) await readAis(t, `${card}/balances`, session, { present: false });
    const exceeded = await readAis(t, `${card}/balances`, session, { present: false });
    assert.equal(exceeded.statusCode, 429);
    conforms('GET', `${card}/balances`, exceeded);
  });

  it('matches real error answers', async () => {
    const bad = crossBorderBody();
    bad.creditorName = '';
    conforms('POST', CROSS_BORDER_PATH, await createCrossBorder(t, { body: bad }));
    conforms(
      'POST',
      CROSS_BORDER_PATH,
      await t.signed({
        method: 'POST',
        url: CROSS_BORDER_PATH,
        body: crossBorderBody(),
        headers: createHeaders(),
        as: t.fixtures.aisOnly,
      }),
    );
    conforms(
      'POST',
      CROSS_BORDER_PATH,
      await t.signed({
        method: 'POST',
        url: CROSS_BORDER_PATH,
        body: crossBorderBody(),
        headers: { ...createHeaders(), Accept: 'text/xml' },
      }),
    );
    conforms(
      'GET',
      `${CROSS_BORDER_PATH}/enc!!unknown`,
      await t.signed({ method: 'GET', url: `${CROSS_BORDER_PATH}/enc!!unknown` }),
    );
    const body = bulkBody();
    await createBulk(t, { body });
    conforms('POST', BULK_PATH, await createBulk(t, { body }));
    conforms(
      'POST',
      BULK_PATH,
      await t.signed({
        method: 'POST',
        url: BULK_PATH,
        body: 'x=1',
        headers: { ...createHeaders(), 'Content-Type': 'text/plain' },
      }),
    );
    const fixtures = t.fixtures;
    conforms(
      'POST',
      CROSS_BORDER_PATH,
      await t.signed({
        method: 'POST',
        url: CROSS_BORDER_PATH,
        body: crossBorderBody(),
        headers: createHeaders(),
        sign: { credentials: { certPem: fixtures.tpp.certPem, keyPem: fixtures.otherTpp.keyPem } },
      }),
    );
    conforms(
      'POST',
      CROSS_BORDER_PATH,
      await t.signed({
        method: 'POST',
        url: CROSS_BORDER_PATH,
        body: crossBorderBody(),
        headers: createHeaders(),
        as: fixtures.expired,
      }),
    );
    conforms(
      'POST',
      CROSS_BORDER_PATH,
      await t.signed({
        method: 'POST',
        url: CROSS_BORDER_PATH,
        body: crossBorderBody(),
        headers: createHeaders(),
        as: fixtures.untrusted,
      }),
    );
  });
  // Last: it moves the TPP's sandbox clock days ahead.
  it('matches real answers of the standing order operations: create, read, status with its executions, its authorisations and cancellation-authorisations, cancel', async () => {
    const startDate = addDays(osloDate(new Date()), 1);
    const body = periodicBody({
      debtorAccount: { bban: '15061012351', currency: 'NOK' },
      startDate,
      frequency: 'Daily',
      dayOfExecution: undefined,
    });
    const created = await t.signed({ method: 'POST', url: PERIODIC_PATH, body, headers: createHeaders() });
    assert.equal(created.statusCode, 201, created.body);
    conforms('POST', PERIODIC_PATH, created);
    const refused = await t.signed({
      method: 'POST',
      url: PERIODIC_PATH,
      body: periodicBody({ frequency: 'MonthlyVariable', monthsOfExecution: ['2', '2'] }),
      headers: createHeaders(),
    });
    assert.equal(refused.statusCode, 400, refused.body);
    conforms('POST', PERIODIC_PATH, refused);
    const { _links } = created.json();
    const self = _links.self.href as string;
    conforms('GET', self, await t.signed({ method: 'GET', url: self }));
    conforms('GET', `${self}/status`, await t.signed({ method: 'GET', url: `${self}/status` }));
    const started = await t.signed({ method: 'POST', url: `${self}/authorisations`, headers: createHeaders() });
    assert.equal(started.statusCode, 201, started.body);
    conforms('POST', `${self}/authorisations`, started);
    const authorisations = `${self}/authorisations`;
    conforms('GET', authorisations, await t.signed({ method: 'GET', url: authorisations }));
    const scaStatus = started.json()._links.scaStatus.href as string;
    conforms('GET', scaStatus, await t.signed({ method: 'GET', url: scaStatus }));
    conforms('GET', `${authorisations}/x`, await t.signed({ method: 'GET', url: `${authorisations}/x` }));
    const psu = new ScriptedPsu(t.app);
    await psu.open(started.json()._links.scaRedirect.href);
    await psu.logIn('13039319955', '123456');
    await psu.approve();
    conforms('GET', scaStatus, await t.signed({ method: 'GET', url: scaStatus }));
    const moved = await t.signed({ method: 'POST', url: '/v1/sandbox/clock', body: { advanceSeconds: 5 * 86_400 } });
    assert.equal(moved.statusCode, 200, moved.body);
    const status = await t.signed({ method: 'GET', url: `${self}/status` });
    assert.ok(status.json().executions.length > 0, status.body);
    conforms('GET', `${self}/status`, status);
    conforms('GET', self, await t.signed({ method: 'GET', url: self }));
    const other = await t.signed({
      method: 'POST',
      url: PERIODIC_PATH,
      body: periodicBody({ startDate: addDays(osloDate(new Date()), 10) }),
      headers: createHeaders(),
    });
    const deleted = await t.signed({ method: 'DELETE', url: other.json()._links.self.href });
    conforms('DELETE', other.json()._links.self.href, deleted);
    conforms('GET', `${self}x/status`, await t.signed({ method: 'GET', url: `${self}x/status` }));
    const savings = (await t.store.findAccount(TPP_ID, { bban: '15061012351' }))!;
    const listing = `/v1/sandbox/accounts/${savings.id}/standing-orders`;
    const listed = await t.signed({ method: 'GET', url: listing });
    assert.ok((listed.json() as unknown[]).length > 0, listed.body);
    conforms('GET', listing, listed);
    // The running order ended through its cancellation SCA: 202, then the cancellation-authorisations.
    const ending = await t.signed({ method: 'DELETE', url: self });
    assert.equal(ending.statusCode, 202, ending.body);
    conforms('DELETE', self, ending);
    const cancellations = `${self}/cancellation-authorisations`;
    const cancellation = await t.signed({ method: 'POST', url: cancellations, headers: createHeaders() });
    assert.equal(cancellation.statusCode, 201, cancellation.body);
    conforms('POST', cancellations, cancellation);
    conforms('GET', cancellations, await t.signed({ method: 'GET', url: cancellations }));
    const cancellationStatus = cancellation.json()._links.scaStatus.href as string;
    conforms('GET', cancellationStatus, await t.signed({ method: 'GET', url: cancellationStatus }));
    conforms('GET', `${cancellations}/x`, await t.signed({ method: 'GET', url: `${cancellations}/x` }));
  });
});
