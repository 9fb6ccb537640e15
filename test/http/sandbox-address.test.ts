import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { osloDate } from '../../src/domain/clock.js';
import { signRequest } from '../../src/toolkit/request-signer.js';
import {
  CROSS_BORDER_PATH,
  OLA_ACCOUNTS,
  PSU_ID,
  createHeaders,
  crossBorderBody,
} from '../support/payment-requests.js';
import { nextFnr } from '../support/norwegian-numbers.js';
import { sandboxAccountBody } from '../support/sandbox-bodies.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { PUBLIC_URL, type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * The platform's sandbox address (issue 11, point 4): in sandbox mode the whole API answers under
 * /api-sandbox/v1 as well as /v1, and an answer reached there links there (every `_links` href and
 * Location under /v1 gets the prefix; the SCA page's absolute link does not). Requests are signed
 * for the path as sent. Production does not serve the address.
 */
const SANDBOX = '/api-sandbox';
const ELSEWHERE = { iban: 'NO6290491105991', bban: '90491105991' };
const KARI = '12085592767';

let t: TestApp;

before(async () => {
  t = await startTestApp();
});
after(() => t.close());

interface Link {
  href: string;
  verbs: string[];
}
type Json = Record<string, any>;

const send = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  t.signed({ method, url, ...(body === undefined ? {} : { body }), ...(headers === undefined ? {} : { headers }) });

function json(response: LightMyRequestResponse, status: number): Json {
  assert.equal(response.statusCode, status, response.body);
  return response.json() as Json;
}

/** Every `_links` href of an answer, wherever it is in the body. */
function hrefsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(hrefsOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === '_links' ? Object.values(item as Record<string, Link>).map((link) => link.href) : hrefsOf(item),
  );
}

/** Each relative link of the answer is under /api-sandbox/v1; absolute ones point to the SCA page. */
function assertLinksAtSandboxAddress(body: unknown): void {
  const hrefs = hrefsOf(body);
  assert.ok(hrefs.length > 0, `no links in ${JSON.stringify(body)}`);
  for (const href of hrefs) {
    if (href.startsWith('http')) assert.ok(href.startsWith(`${PUBLIC_URL}/sca/`), href);
    else assert.ok(href.startsWith(`${SANDBOX}/v1/`), `${href} is not under ${SANDBOX}/v1`);
  }
}

function createAtSandboxAddress(
  headers: Record<string, string> = createHeaders(),
  body: unknown = crossBorderBody(),
): Promise<LightMyRequestResponse> {
  return send('POST', `${SANDBOX}${CROSS_BORDER_PATH}`, body, headers);
}

describe('payments at /api-sandbox/v1', () => {
  it('creates a payment there, whose Location, self and status links are there and work, and cancels it through its self link', async () => {
    const response = await createAtSandboxAddress();
    const created = json(response, 201);
    const self = `${SANDBOX}${CROSS_BORDER_PATH}/${created.paymentId}`;
    assert.equal(response.headers.location, `${PUBLIC_URL}${self}`);
    assert.deepEqual(created._links.self.href, self);
    assert.deepEqual(created._links.status.href, `${self}/status`);
    assert.ok(
      created._links.scaRedirect.href.startsWith(`${PUBLIC_URL}/sca/`),
      'the SCA page keeps its own absolute address',
    );
    assertLinksAtSandboxAddress(created);

    assert.equal(json(await send('GET', created._links.self.href), 200).paymentId, created.paymentId);
    assert.equal(json(await send('GET', created._links.status.href), 200).transactionStatus, 'RCVD');
    assert.equal((await send('DELETE', created._links.self.href)).statusCode, 204);
    assert.equal(json(await send('GET', created._links.status.href), 200).transactionStatus, 'CANC');

    // The same payment read at /v1 links at /v1: links follow the address of the request, not of the creation.
    const plain = json(await send('POST', CROSS_BORDER_PATH, crossBorderBody(), createHeaders()), 201);
    assert.equal(plain._links.self.href, `${CROSS_BORDER_PATH}/${plain.paymentId}`);
  });

  it('answers a retry at /api-sandbox/v1 with the stored answer, linked there', async () => {
    const requestId = randomUUID();
    const body = crossBorderBody();
    const headers = createHeaders();
    const first = json(
      await t.signed({ method: 'POST', url: `${SANDBOX}${CROSS_BORDER_PATH}`, body, headers, sign: { requestId } }),
      201,
    );
    const again = await t.signed({
      method: 'POST',
      url: `${SANDBOX}${CROSS_BORDER_PATH}`,
      body,
      headers,
      sign: { requestId },
    });
    assert.deepEqual(json(again, 201), first);
    assert.equal(again.headers.location, `${PUBLIC_URL}${first._links.self.href}`);
    assert.ok(first._links.self.href.startsWith(`${SANDBOX}/v1/`));
  });

  it('completes the SCA of a payment created there: the PSU signs on the SCA page, is sent back to the TPP, and the status reads ACTC there', async () => {
    const created = json(
      await createAtSandboxAddress(createHeaders({ 'TPP-Redirect-URI': 'https://tpp.example/done?state=s1' }), {
        ...crossBorderBody(),
        debtorAccount: { bban: OLA_ACCOUNTS[1], currency: 'NOK' },
      }),
      201,
    );
    const psu = new ScriptedPsu(t.app);
    assert.equal((await psu.open(created._links.scaRedirect.href)).statusCode, 200);
    assert.equal((await psu.logIn('13039319955', '123456')).statusCode, 200, psu.last?.body);
    assert.equal((await psu.approve()).statusCode, 303, psu.last?.body);
    assert.equal(psu.redirect()?.origin, 'https://tpp.example');
    assert.equal(psu.redirect()?.searchParams.get('state'), 's1');
    assert.equal(json(await send('GET', created._links.status.href), 200).transactionStatus, 'ACTC');
  });

  it('challenges an unknown PSU-ID there with 401 and an absolute link to the SCA page; after SCA the retry there succeeds', async () => {
    const headers = createHeaders({
      'PSU-ID': '11111111-2222-4333-8444-555555555556',
      'TPP-Session-ID': 'sess-prefix',
    });
    const challenge = json(await createAtSandboxAddress(headers), 401);
    assert.ok(challenge._links.scaRedirect.href.startsWith(`${PUBLIC_URL}/sca/`), challenge._links.scaRedirect.href);
    const psu = new ScriptedPsu(t.app);
    await psu.open(challenge._links.scaRedirect.href);
    assert.equal((await psu.logIn(KARI, '123456')).statusCode, 303, psu.last?.body);
    const psuId = psu.redirect()!.searchParams.get('psu-id')!;
    const retry = json(
      await createAtSandboxAddress(createHeaders({ 'PSU-ID': psuId, 'TPP-Session-ID': 'sess-prefix' }), {
        ...crossBorderBody(),
        debtorAccount: { bban: '90412263072', currency: 'NOK' },
      }),
      201,
    );
    assertLinksAtSandboxAddress(retry);
  });

  it('starts a new authorisation there', async () => {
    const created = json(await createAtSandboxAddress(), 201);
    const started = json(
      await send('POST', `${created._links.self.href}/authorisations`, undefined, {
        'PSU-ID': PSU_ID,
        'PSU-Context': 'PRIVATE',
      }),
      201,
    );
    assert.ok(started._links.scaRedirect.href.startsWith(`${PUBLIC_URL}/sca/`));
  });
});

describe('signatures and X-Request-ID at /api-sandbox/v1', () => {
  it('verifies (request-target) against the path as sent: a request signed for /v1 but sent to /api-sandbox/v1 is refused', async () => {
    const created = json(await createAtSandboxAddress(), 201);
    const status = `${CROSS_BORDER_PATH}/${created.paymentId}/status`;
    const signedHeaders = ['(request-target)', 'date', 'x-request-id'];
    json(await t.signed({ method: 'GET', url: `${SANDBOX}${status}`, sign: { signedHeaders } }), 200);
    const headers = signRequest({ method: 'GET', url: status, credentials: t.fixtures.tpp, signedHeaders });
    const moved = await t.app.inject({ method: 'GET', url: `${SANDBOX}${status}`, headers });
    assert.equal(moved.statusCode, 401, moved.body);
  });

  it('binds an X-Request-ID to the path as sent: the same ID at /v1 after /api-sandbox/v1 is not a retry', async () => {
    const created = json(await createAtSandboxAddress(), 201);
    const status = `${CROSS_BORDER_PATH}/${created.paymentId}/status`;
    const requestId = randomUUID();
    json(await t.signed({ method: 'GET', url: `${SANDBOX}${status}`, sign: { requestId } }), 200);
    const again = await t.signed({ method: 'GET', url: status, sign: { requestId } });
    assertErrorBody(again, 409, 'CONFLICT');
  });
});

describe('signing baskets at /api-sandbox/v1', () => {
  it('creates a basket there of payments created there; its Location, self and status links are there and work; deleting it through self works', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const headers = createHeaders();
      delete headers['PSU-Context'];
      ids.push(
        json(
          await createAtSandboxAddress(headers, {
            ...crossBorderBody(),
            debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' },
          }),
          201,
        ).paymentId,
      );
    }
    const response = await send(
      'POST',
      `${SANDBOX}/v1/signing-baskets`,
      { paymentIds: ids },
      {
        'PSU-ID': PSU_ID,
        'PSU-IP-Address': '192.0.2.10',
        'TPP-Redirect-URI': 'https://tpp.example/basket',
        'TPP-Session-ID': 'basket-prefix',
      },
    );
    const basket = json(response, 201);
    const self = `${SANDBOX}/v1/signing-baskets/${basket.basketId}`;
    assert.equal(response.headers.location, `${PUBLIC_URL}${self}`);
    assert.equal(basket._links.self.href, self);
    assert.equal(basket._links.status.href, `${self}/status`);
    assertLinksAtSandboxAddress(basket);
    assertLinksAtSandboxAddress(json(await send('GET', self), 200));
    assert.equal(json(await send('GET', basket._links.status.href), 200).transactionStatus, 'RCVD');
    assert.equal((await send('DELETE', self)).statusCode, 204);
  });
});

describe('sandbox test data at /api-sandbox/v1', () => {
  it('creates a customer, an account and a transaction there; each Location and link is there and works', async () => {
    const customerNumber = nextFnr();
    const customerResponse = await send('POST', `${SANDBOX}/v1/sandbox/customers`, {
      customerNumber,
      name: 'Prefix Test',
      type: 'private',
    });
    const customer = json(customerResponse, 201);
    assert.equal(
      customerResponse.headers.location,
      `${PUBLIC_URL}${SANDBOX}/v1/sandbox/customers/${customer.customerId}`,
    );
    assert.equal(`${PUBLIC_URL}${customer._links.self.href}`, customerResponse.headers.location);
    assertLinksAtSandboxAddress(json(await send('GET', customer._links.self.href), 200));
    assertLinksAtSandboxAddress(json(await send('GET', `${SANDBOX}/v1/sandbox/customers`), 200));

    const accountResponse = await send('POST', `${SANDBOX}/v1/sandbox/accounts`, sandboxAccountBody(customerNumber));
    const account = json(accountResponse, 201);
    assert.ok(String(accountResponse.headers.location).startsWith(`${PUBLIC_URL}${SANDBOX}/v1/sandbox/accounts/`));
    assertLinksAtSandboxAddress(account);
    const read = json(await send('GET', account._links.self.href), 200);
    assertLinksAtSandboxAddress(read);

    const day = osloDate(t.clock.now());
    const posted = json(
      await send('POST', `${SANDBOX}/v1/sandbox/accounts/${account.id}/transactions`, [
        {
          amount: 1500,
          currency: 'NOK',
          valueDate: day,
          bookingDate: day,
          remittanceInformationUnstructured: 'prefix',
          creditorName: 'Prefix Test',
          creditorAccount: { iban: account.iban, bban: account.bban },
          debtorName: 'Aftenposten',
          debtorAccount: ELSEWHERE,
          purposeCode: 'SALA',
          bankTransactionCode: 'PMNT',
        },
      ]),
      201,
    );
    assertLinksAtSandboxAddress(posted);
    assertLinksAtSandboxAddress(json(await send('GET', posted[0]._links.self.href), 200));

    assert.equal((await send('DELETE', account._links.self.href)).statusCode, 204);
    assert.equal((await send('DELETE', customer._links.self.href)).statusCode, 204);
  });

  it('reads and moves the business clock and runs the batch there', async () => {
    assert.equal(typeof json(await send('GET', `${SANDBOX}/v1/sandbox/clock`), 200).now, 'string');
    json(await send('POST', `${SANDBOX}/v1/sandbox/clock`, { advanceSeconds: 60 }), 200);
    json(await t.signed({ method: 'POST', url: `${SANDBOX}/v1/sandbox/batch-runs`, sign: { digest: true } }), 200);
  });
});

describe('the OpenAPI document at /api-sandbox/v1', () => {
  it('is served there too, the same document, naming /api-sandbox as a second server of the same paths', async () => {
    const there = json(await t.app.inject({ method: 'GET', url: `${SANDBOX}/v1/openapi.json` }), 200);
    const here = json(await t.app.inject({ method: 'GET', url: '/v1/openapi.json' }), 200);
    assert.deepEqual(there, here);
    assert.deepEqual(
      there.servers.map((server: { url: string }) => server.url),
      ['/', SANDBOX],
    );
    assert.ok(
      Object.keys(there.paths).every((path) => path.startsWith('/v1/')),
      'each path is documented once, under /v1',
    );
  });
});

describe('production mode', () => {
  let production: TestApp;
  before(async () => {
    production = await startTestApp({ mode: 'production' });
  });
  after(() => production.close());

  it('does not serve /api-sandbox: 404 saying the address belongs to the sandbox, and the document names no second server', async () => {
    for (const path of [`${SANDBOX}${CROSS_BORDER_PATH}`, `${SANDBOX}/v1/openapi.json`]) {
      const response = await production.signed({
        method: 'POST',
        url: path,
        body: crossBorderBody(),
        headers: createHeaders(),
      });
      const body = assertErrorBody(response, 404, 'NOT_FOUND');
      assert.match(JSON.stringify(body), /belongs to the sandbox, which production does not serve/);
    }
    const document = json(await production.app.inject({ method: 'GET', url: '/v1/openapi.json' }), 200);
    assert.equal(document.servers, undefined);
  });
});
