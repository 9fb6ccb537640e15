import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { issueTppCertificate, type CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { NOTIFICATION_URI_MAX_LENGTH } from '../../src/domain/limits.js';
import { CROSS_BORDER_PATH, createBulk, createCrossBorder, crossBorderBody } from '../support/payment-requests.js';
import { PERIODIC_PATH, periodicBody, tomorrowInNorway } from '../support/periodic-requests.js';
import { askConsent } from '../support/ais-requests.js';
import { TPP_ID } from '../support/tpp-fixtures.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';
import { createHeaders } from '../support/payment-requests.js';

/**
 * TPP-Notification-URI and TPP-Notification-Content-Preferred (docs/notifications.md): accepted on
 * every create and every start of an authorisation, answered with ASPSP-Notification-Support and
 * -Content, stored with the resource, and answered again the same on a retry.
 */
let t: TestApp;
/** The test TPP's key, certified with DNS names: tpp.example and *.hooks.tpp.example. */
let named: CertificateAndKey;

before(async () => {
  t = await startTestApp();
  named = await issueTppCertificate({
    issuer: t.fixtures.ca,
    roles: ['PSP_PI', 'PSP_AI'],
    organisationId: TPP_ID,
    name: 'Test TPP AS',
    keyPem: t.fixtures.tpp.keyPem,
    dnsNames: ['tpp.example', '*.hooks.tpp.example'],
  });
});
after(() => t.close());

const notify = (uri: string, content?: string): Record<string, string> => ({
  'TPP-Notification-URI': uri,
  ...(content === undefined ? {} : { 'TPP-Notification-Content-Preferred': content }),
});

function answerHeaders(response: LightMyRequestResponse): [unknown, unknown] {
  return [response.headers['aspsp-notification-support'], response.headers['aspsp-notification-content']];
}

async function subscriptionOf(kind: 'payment' | 'basket' | 'consent' | 'authorisation', id: string) {
  return t.store.findNotificationSubscription({ kind, id });
}

describe('notification headers on a payment create', () => {
  it('answers true and the preferred content for https in the certificate’s domain, and stores the subscription', async () => {
    const response = await createCrossBorder(t, {
      as: named,
      headers: notify('https://notify.tpp.example/psd2?x=1', 'status=LAST, SCA'),
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(answerHeaders(response), ['true', 'status=SCA,LAST']);
    const { paymentId, tppMessages } = response.json() as { paymentId: string; tppMessages?: unknown[] };
    assert.equal(tppMessages?.some((m) => JSON.stringify(m).includes('Notification')) ?? false, false);
    const stored = await subscriptionOf('payment', paymentId);
    assert.equal(stored?.uri, 'https://notify.tpp.example/psd2?x=1');
    assert.deepEqual(stored?.content, ['SCA', 'LAST']);
  });

  it('sends all three contents without a preference, and counts a wildcard for one label', async () => {
    const response = await createBulk(t, { as: named, headers: notify('https://a.hooks.tpp.example/n') });
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(answerHeaders(response), ['true', 'status=SCA,PROCESS,LAST']);
  });

  it('answers neither header without a TPP-Notification-URI', async () => {
    const response = await createCrossBorder(t, {
      as: named,
      headers: { 'TPP-Notification-Content-Preferred': 'status=SCA' },
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(answerHeaders(response), [undefined, undefined]);
  });

  it('creates the payment but answers false with a WARNING for a URI outside the domain, userinfo, or http', async () => {
    for (const [uri, reason] of [
      ['https://evil.example/n', /outside the domain/],
      ['https://tpp.example@evil.example/n', /userinfo/],
      ['http://tpp.example/n', /https only/],
      ['https://192.0.2.1/n', /IP address/],
    ] as const) {
      const response = await createCrossBorder(t, { as: named, headers: notify(uri) });
      assert.equal(response.statusCode, 201, response.body);
      assert.deepEqual(answerHeaders(response), ['false', undefined], uri);
      const body = response.json() as {
        paymentId: string;
        tppMessages: { category: string; path?: string; text: string }[];
      };
      const warning = body.tppMessages?.find((m) => m.path === 'header:TPP-Notification-URI');
      assert.equal(warning?.category, 'WARNING', uri);
      assert.match(warning?.text ?? '', reason);
      assert.equal(await subscriptionOf('payment', body.paymentId), undefined);
    }
  });

  it('sends to http://127.0.0.1 and http://localhost in the sandbox, with a port', async () => {
    for (const uri of ['http://127.0.0.1:9123/hook', 'http://localhost:9/x']) {
      const response = await createCrossBorder(t, { headers: notify(uri) });
      assert.deepEqual(answerHeaders(response), ['true', 'status=SCA,PROCESS,LAST'], uri);
    }
  });

  it('answers a retry with the first answer’s headers and body, and stores one subscription', async () => {
    const requestId = 'notify-retry-1';
    const body = crossBorderBody();
    const refusedBody = { ...crossBorderBody(), creditorName: 'Another Creditor' };
    const first = await createCrossBorder(t, {
      as: named,
      body,
      requestId,
      headers: notify('https://tpp.example/n', 'status=PROCESS'),
    });
    const again = await createCrossBorder(t, {
      as: named,
      body,
      requestId,
      headers: notify('https://tpp.example/n', 'status=PROCESS'),
    });
    assert.equal(again.statusCode, 201, again.body);
    assert.deepEqual(answerHeaders(again), ['true', 'status=PROCESS']);
    assert.equal(again.body, first.body);
    const refusedFirst = await createCrossBorder(t, {
      as: named,
      requestId: 'notify-retry-2',
      body: refusedBody,
      headers: notify('http://tpp.example/'),
    });
    const refusedAgain = await createCrossBorder(t, {
      as: named,
      requestId: 'notify-retry-2',
      body: refusedBody,
      headers: notify('http://tpp.example/'),
    });
    assert.deepEqual(answerHeaders(refusedAgain), ['false', undefined]);
    assert.equal(refusedAgain.body, refusedFirst.body);
  });

  it('takes the headers on a standing order create', async () => {
    const response = await t.signed({
      method: 'POST',
      url: PERIODIC_PATH,
      body: periodicBody({ startDate: tomorrowInNorway() }),
      headers: createHeaders(notify('https://tpp.example/so')),
      as: named,
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(answerHeaders(response), ['true', 'status=SCA,PROCESS,LAST']);
  });
});

describe('malformed notification headers: 400 FORMAT_ERROR naming the header', () => {
  for (const [name, value] of [
    ['TPP-Notification-URI', 'not a uri'],
    ['TPP-Notification-URI', '/relative'],
    ['TPP-Notification-URI', 'https://bücher.tpp.example/'],
    ['TPP-Notification-URI', 'https://tpp.example/a, https://tpp.example/b'],
    ['TPP-Notification-URI', `https://tpp.example/${'a'.repeat(NOTIFICATION_URI_MAX_LENGTH)}`],
    ['TPP-Notification-Content-Preferred', 'status=SCA,SCA'],
    ['TPP-Notification-Content-Preferred', 'status=FINAL'],
    ['TPP-Notification-Content-Preferred', 'status=sca'],
    ['TPP-Notification-Content-Preferred', 'SCA'],
  ] as const) {
    it(`refuses ${name}: ${value.slice(0, 60)}`, async () => {
      const headers = { 'TPP-Notification-URI': 'https://tpp.example/n', [name]: value };
      const response = await createCrossBorder(t, { as: named, headers });
      const body = assertErrorBody(response, 400, 'FORMAT_ERROR');
      assert.ok(
        (body.tppMessages ?? []).some((m) => m.path === `header:${name}` && (m.text ?? '').includes(name)),
        JSON.stringify(body.tppMessages),
      );
    });
  }
});

describe('notification headers on baskets, consents and authorisations', () => {
  it('subscribes a signing basket, an AIS consent and an authorisation of a payment', async () => {
    const payment = await createCrossBorder(t, { without: ['PSU-Context'] });
    assert.equal(payment.statusCode, 201, payment.body);
    const { paymentId } = payment.json() as { paymentId: string };

    const started = await t.signed({
      method: 'POST',
      url: `${CROSS_BORDER_PATH}/${paymentId}/authorisations`,
      headers: notify('https://tpp.example/auth', 'status=SCA'),
      as: named,
    });
    assert.equal(started.statusCode, 201, started.body);
    assert.deepEqual(answerHeaders(started), ['true', 'status=SCA']);
    const { authorisationId } = started.json() as { authorisationId: string };
    assert.deepEqual((await subscriptionOf('authorisation', authorisationId))?.content, ['SCA']);

    const other = await createCrossBorder(t, { without: ['PSU-Context'] });
    const basket = await t.signed({
      method: 'POST',
      url: '/v1/signing-baskets',
      body: { paymentIds: [(other.json() as { paymentId: string }).paymentId] },
      headers: { ...createHeaders(notify('https://tpp.example/basket')), 'TPP-Session-ID': 'notify-basket' },
      as: named,
    });
    assert.equal(basket.statusCode, 201, basket.body);
    assert.deepEqual(answerHeaders(basket), ['true', 'status=SCA,PROCESS,LAST']);
    const { basketId } = basket.json() as { basketId: string };
    assert.equal((await subscriptionOf('basket', basketId))?.uri, 'https://tpp.example/basket');

    const consent = await askConsent(t, { as: named, headers: notify('https://evil.example/c') });
    assert.equal(consent.statusCode, 201, consent.body);
    assert.deepEqual(answerHeaders(consent), ['false', undefined]);
    const consentBody = consent.json() as { tppMessages?: { category: string }[] };
    assert.equal(consentBody.tppMessages?.[0]?.category, 'WARNING');
  });
});

describe('notification headers in production', () => {
  let production: TestApp;
  before(async () => {
    production = await startTestApp({ mode: 'production' });
  });
  after(() => production.close());

  it('does not send to http://127.0.0.1 (false with the reason)', async () => {
    const response = await askConsent(production, { headers: notify('http://127.0.0.1:9000/n') });
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(answerHeaders(response), ['false', undefined]);
  });
});

describe('the OpenAPI document', () => {
  it('shows the two request headers and the two answer headers on the creates and authorisation starts', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string }[]; responses: Record<string, { headers?: object }> }>
      >;
    };
    for (const path of [
      CROSS_BORDER_PATH,
      '/v1/bulk-payments/norwegian-domestic-credit-transfers',
      PERIODIC_PATH,
      '/v1/signing-baskets',
      '/v1/bank-offered-consents',
      '/v1/payments/{product}/{paymentId}/authorisations',
      '/v1/payments/{product}/{paymentId}/cancellation-authorisations',
      '/v1/signing-baskets/{basketId}/authorisations',
    ]) {
      const operation = document.paths[path]?.post;
      assert.ok(operation !== undefined, path);
      const names = (operation.parameters ?? []).map((p) => p.name);
      assert.ok(names.includes('TPP-Notification-URI') && names.includes('TPP-Notification-Content-Preferred'), path);
      assert.deepEqual(Object.keys(operation.responses['201']?.headers ?? {}), [
        'ASPSP-Notification-Support',
        'ASPSP-Notification-Content',
      ]);
    }
  });
});
