import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../src/domain/clock.js';
import { CONSOLE_LINK_TTL_MS, CONSOLE_SESSION_TTL_MS } from '../../src/domain/limits.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { askConsent } from '../support/ais-requests.js';
import { consoleLink, olaPayment } from '../support/console-requests.js';
import { ConsoleVisitor } from '../support/console-visitor.js';
import { OLA_ACCOUNTS } from '../support/payment-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { PUBLIC_URL, type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';
import { TPP_ID } from '../support/tpp-fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

/**
 * The sandbox console (docs/console.md): a link a signed request asks for opens it once and gives the
 * browser a session of that TPP alone; every page and form needs the session, every form its CSRF
 * token; production has none of it.
 */

class ManualClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const clock = new ManualClock();
let t: TestApp;
/** A second TPP, with a certificate from POST /v1/sandbox/certificates, and so a bank of its own. */
let b: CertificateAndKey;
const B_ID = 'PSDNO-FSA-555555555';

before(async () => {
  t = await startTestApp({ clock });
  const issued = await t.app.inject({
    method: 'POST',
    url: '/v1/sandbox/certificates',
    payload: { organizationIdentifier: B_ID, name: 'Other TPP', roles: ['PSP_PI', 'PSP_AI'] },
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(issued.statusCode, 201, issued.body);
  b = { certPem: issued.json().certificate, keyPem: issued.json().privateKey };
});
after(() => t.close());

/** A browser that opened a fresh console link of the TPP, on its overview. */
async function signedIn(as?: CertificateAndKey, language = 'en'): Promise<ConsoleVisitor> {
  const visitor = new ConsoleVisitor(t.app, language);
  const entered = await visitor.open((await consoleLink(t, as)).href);
  assert.equal(entered.statusCode, 303, entered.body);
  assert.equal(entered.headers.location, '/console');
  const overview = await visitor.open('/console');
  assert.equal(overview.statusCode, 200, overview.body);
  return visitor;
}

async function clockOf(as?: CertificateAndKey): Promise<Json> {
  return (await t.signed({ method: 'GET', url: '/v1/sandbox/clock', ...(as ? { as } : {}) })).json() as Json;
}

describe('POST /v1/sandbox/console-links', () => {
  it('needs a signed request', async () => {
    const unsigned = await t.app.inject({ method: 'POST', url: '/v1/sandbox/console-links' });
    assertErrorBody(unsigned, 400, 'HTTP_HEADER_REQUIRED');
    assert.match(unsigned.body, /header:Signature/);
    const forged = await t.signed({
      method: 'POST',
      url: '/v1/sandbox/console-links',
      tamper: (headers) => {
        // One character of the signature changed (to another one).
        headers['signature'] = headers['signature']!.replace(
          /signature="(.)/,
          (_, c) => `signature="${c === 'A' ? 'B' : 'A'}`,
        );
      },
    });
    assertErrorBody(forged, 401, 'SIGNATURE_INVALID');
  });

  it('answers 201 with an absolute link at PUBLIC_URL/console/enter that expires in five minutes', async () => {
    const before = clock.now().getTime();
    const link = await consoleLink(t);
    assert.match(link.href, new RegExp(`^${PUBLIC_URL}/console/enter\\?token=[A-Za-z0-9_.%-]+$`));
    const expires = Date.parse(link.expiresAt);
    assert.ok(expires >= before + CONSOLE_LINK_TTL_MS && expires <= clock.now().getTime() + CONSOLE_LINK_TTL_MS);
  });
});

describe('the way into the console', () => {
  it('a link opens once: a session cookie (HttpOnly, SameSite=Strict, Path=/console) and 303 to /console, which shows the TPP', async () => {
    const link = await consoleLink(t);
    const visitor = new ConsoleVisitor(t.app);
    const entered = await visitor.open(link.href);
    assert.equal(entered.statusCode, 303);
    assert.equal(entered.headers.location, '/console');
    assert.equal(entered.headers['cache-control'], 'no-store');
    assert.equal(entered.headers['referrer-policy'], 'no-referrer');
    const setCookie = [entered.headers['set-cookie']].flat().find((c) => c?.startsWith('console_session='));
    assert.ok(setCookie, 'a session cookie');
    assert.match(setCookie, /HttpOnly/i);
    assert.match(setCookie, /SameSite=Strict/i);
    assert.match(setCookie, /Path=\/console/i);
    assert.match(setCookie, new RegExp(`Max-Age=${CONSOLE_SESSION_TTL_MS / 1000}`));

    const overview = await visitor.open('/console');
    assert.equal(overview.statusCode, 200);
    assert.equal(overview.headers['cache-control'], 'no-store');
    assert.match(String(overview.headers['content-security-policy']), /default-src 'none'/);
    assert.match(visitor.text(), new RegExp(`The sandbox bank of ${TPP_ID}`));
    assert.match(visitor.text(), /Next batch run/);

    // Opened again: by another browser it is refused; the browser that opened it goes on to its console.
    const other = new ConsoleVisitor(t.app);
    assert.equal((await other.open(link.href)).statusCode, 401);
    assert.match(other.text(), /This link was used already/);
    assert.equal((await visitor.open(link.href)).headers.location, '/console');
  });

  it('without a session every page and form is the 401 page that says to run tpp console', async () => {
    const visitor = new ConsoleVisitor(t.app);
    for (const path of ['/console', '/console/customers', '/console/payments', '/console/consents']) {
      const page = await visitor.open(path);
      assert.equal(page.statusCode, 401, path);
      assert.match(String(page.headers['content-type']), /text\/html/);
      assert.match(visitor.text(), /npm run -s tpp -- console/, path);
    }
    const before = (await clockOf()).offsetSeconds;
    const form = await visitor.post('/console/clock', { amount: '2', unit: 'days' }, 'any');
    assert.equal(form.statusCode, 401);
    assert.equal((await clockOf()).offsetSeconds, before, 'the clock did not move');
  });

  it('a tampered link or cookie is refused (401), as an expired link or an expired session', async () => {
    const link = await consoleLink(t);
    const token = new URL(link.href).searchParams.get('token')!;
    const [payload, mac] = token.split('.');
    const forged = Buffer.from(
      Buffer.from(payload!, 'base64url').toString().replace(TPP_ID, 'PSDNO-FSA-555555555'),
    ).toString('base64url');
    const visitor = new ConsoleVisitor(t.app);
    for (const bad of [`${forged}.${mac}`, `${payload}.${mac!.slice(1)}A`, 'x', '']) {
      const page = await visitor.open(`/console/enter?token=${encodeURIComponent(bad)}`);
      assert.equal(page.statusCode, 401, bad);
      assert.match(visitor.text(), /This link does not work/);
      assert.equal(visitor.cookies.has('console_session'), false);
    }

    const inTime = await signedIn();
    const cookie = inTime.cookies.get('console_session')!;
    inTime.cookies.set(
      'console_session',
      cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    );
    assert.equal((await inTime.open('/console')).statusCode, 401, 'a cookie changed by one character');
    inTime.cookies.set('console_session', cookie);
    assert.equal((await inTime.open('/console')).statusCode, 200);

    const late = await consoleLink(t);
    clock.offsetMs = CONSOLE_LINK_TTL_MS + 1000;
    try {
      const page = await new ConsoleVisitor(t.app).open(late.href);
      assert.equal(page.statusCode, 401);
      assert.match(page.body, /This link has expired/);
      clock.offsetMs = CONSOLE_SESSION_TTL_MS + 1000;
      assert.equal((await inTime.open('/console')).statusCode, 401, 'the session is over');
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('signing out ends the session', async () => {
    const visitor = await signedIn();
    const out = await visitor.post('/console/sign-out', {});
    assert.equal(out.statusCode, 303);
    assert.equal((await visitor.open('/console')).statusCode, 401);
  });
});

describe("the console shows and changes its TPP's bank alone", () => {
  it("A's console lists A's payments, not B's; B's payment is no page of A's", async () => {
    const mine = await olaPayment(t);
    const theirs = await olaPayment(t, b);
    const a = await signedIn();
    await a.open('/console/payments');
    assert.match(a.last!.body, new RegExp(`data-payment-id="${mine.paymentId}"`));
    assert.doesNotMatch(a.last!.body, new RegExp(theirs.paymentId));
    const page = await a.open(`/console/payments/${encodeURIComponent(theirs.paymentId)}`);
    assert.equal(page.statusCode, 404);
    assert.match(a.text(), /No such payment/);
    assert.doesNotMatch(page.body, /Svenska/);

    const other = await signedIn(b);
    await other.open('/console/payments');
    assert.match(other.last!.body, new RegExp(`data-payment-id="${theirs.paymentId}"`));
    assert.doesNotMatch(other.last!.body, new RegExp(mine.paymentId));
    assert.match(other.text(), new RegExp(`The sandbox bank of ${B_ID}`));
  });

  it("A's clock move, batch run and reset leave B's bank as it was", async () => {
    const bCustomer = await t.signed({
      method: 'POST',
      url: '/v1/sandbox/customers',
      body: { customerNumber: '01078900497', name: 'B Testperson', type: 'PRIVATE' },
      as: b,
    });
    assert.equal(bCustomer.statusCode, 201, bCustomer.body);
    const bPayment = await olaPayment(t, b);
    const psu = new ScriptedPsu(t.app);
    await psu.open(bPayment._links.scaRedirect.href);
    await psu.logIn('13039319955', '123456');
    await psu.approve();
    const bStatus = async () =>
      ((await t.signed({ method: 'GET', url: bPayment._links.status.href, as: b })).json() as Json).transactionStatus;
    assert.equal(await bStatus(), 'ACTC');
    const bClock = (await clockOf(b)).offsetSeconds;

    const a = await signedIn();
    const aClock = (await clockOf()).offsetSeconds;
    assert.equal((await a.post('/console/clock', { amount: '2', unit: 'days' })).statusCode, 303);
    assert.equal((await clockOf()).offsetSeconds - aClock, 2 * 86_400, "A's clock moved two days");
    await a.open('/console');
    assert.equal((await a.post('/console/batch-runs', {})).statusCode, 303);
    await a.open('/console');
    assert.equal((await a.post('/console/reset', { confirm: 'yes' })).statusCode, 303);

    assert.equal((await clockOf(b)).offsetSeconds, bClock, "B's clock did not move");
    assert.equal(await bStatus(), 'ACTC', "B's payment was not executed by A's runs");
    const customers = (await t.signed({ method: 'GET', url: '/v1/sandbox/customers', as: b })).json() as Json[];
    assert.ok(
      customers.some((c) => c.customerNumber === '01078900497'),
      "B's customer is still there",
    );
  });
});

describe('the pages', () => {
  it('a payment moves through SCA and the batch run, and its page tells its history', async () => {
    const created = await olaPayment(t);
    const a = await signedIn();
    const path = `/console/payments/${encodeURIComponent(created.paymentId)}`;
    await a.open(path);
    assert.match(a.last!.body, /id="payment" data-status="RCVD"/);
    assert.match(a.text(), /Created: RCVD/);

    const psu = new ScriptedPsu(t.app);
    await psu.open(created._links.scaRedirect.href);
    await psu.logIn('13039319955', '123456');
    await psu.approve();
    await a.open(path);
    assert.match(a.last!.body, /id="payment" data-status="ACTC"/);
    assert.match(a.text(), /SCA \S+: started \(link issued\)/);
    assert.match(a.text(), /SCA \S+: finalised \(approved\)/);
    assert.match(a.text(), /Approved by the PSU: ACTC/);

    await a.open('/console');
    const run = await a.post('/console/batch-runs', {});
    assert.equal(run.statusCode, 303);
    assert.match(String(run.headers.location), /^\/console\?done=batch-run&executed=\d+&rejected=0$/);
    await a.open(String(run.headers.location));
    assert.match(a.text(), /The batch ran: 1 payment executed, 0 rejected\./);
    await a.open(path);
    assert.match(a.last!.body, /id="payment" data-status="ACSC"/);
    assert.match(a.text(), /Booked on 1506\.10\.12351: debit NOK 1,200\.00, booking date \S+ \(PMNT-ICDT-XBCT\)/);
    assert.match(
      a.text(),
      /Booked on 1506\.10\.12351: debit NOK 100\.00, booking date \S+ \(ACMT-MDOP-CHRG\)/,
      'the fee',
    );
    assert.match(a.text(), /Status ACSC \(executed\)/);
    const events = [...a.last!.body.matchAll(/<li data-kind="([a-z]+)">/g)].map((m) => m[1]);
    assert.deepEqual(events, ['created', 'sca', 'sca', 'authorised', 'booked', 'booked', 'status']);
  });

  it('customers with their accounts and balances, and consents with what they share', async () => {
    const a = await signedIn();
    await a.open('/console/customers');
    assert.match(a.last!.body, /data-customer-number="13039319955"/);
    assert.match(a.last!.body, /data-bban="15061012343"/);
    assert.match(a.text(), /Ola Nordmann/);
    assert.match(a.text(), /Balance NOK [\d,]+\.\d\d/);

    const asked = await askConsent(t);
    assert.equal(asked.statusCode, 201, asked.body);
    await a.open('/console/consents');
    assert.match(a.last!.body, /class="card consent" data-status="received"/);
    const psu = new ScriptedPsu(t.app);
    await psu.open(asked.json()._links.scaRedirect.href);
    await psu.logIn('13039319955', '123456');
    await psu.share([psu.offered().all[0]!]);
    await a.open('/console/consents');
    assert.match(a.last!.body, /class="card consent" data-status="valid"/);
    assert.match(a.text(), /Valid until \d{4}-\d\d-\d\d/);
    assert.match(a.text(), /Shares \S+ 1506\.10\.\d{5}/);
  });

  it('in Bokmål when the browser asks for it', async () => {
    const a = await signedIn(undefined, 'nb-NO,nb;q=0.9,en;q=0.5');
    await a.open('/console');
    assert.equal(a.last!.headers['content-language'], 'nb');
    assert.match(a.last!.body, /<html lang="nb">/);
    assert.match(a.text(), /Flytt klokken/);
    assert.match(a.text(), /Kjør batchen nå/);
  });

  it('a form without its CSRF token, or with another, is refused 403 and changes nothing', async () => {
    const a = await signedIn();
    const before = (await clockOf()).offsetSeconds;
    for (const csrf of [null, 'forged']) {
      const refused = await a.post('/console/clock', { amount: '1', unit: 'days' }, csrf);
      assert.equal(refused.statusCode, 403, String(csrf));
      assert.match(a.text(), /The form cannot be used/);
    }
    const other = await signedIn(b);
    const token = other.csrf();
    assert.equal((await a.post('/console/clock', { amount: '1', unit: 'days' }, token)).statusCode, 403);
    assert.equal((await clockOf()).offsetSeconds, before);
  });

  it('refuses, on the page, a move it cannot make and a reset not confirmed (400)', async () => {
    const a = await signedIn();
    for (const fields of [
      { amount: '0', unit: 'hours' },
      { amount: 'two', unit: 'days' },
      { amount: '99999', unit: 'days' },
      { amount: '1', unit: 'weeks' },
    ]) {
      await a.open('/console');
      const refused = await a.post('/console/clock', fields);
      assert.equal(refused.statusCode, 400, JSON.stringify(fields));
      assert.match(a.text(), /That did not work: Give a whole number of/);
    }
    await a.open('/console');
    assert.equal((await a.post('/console/reset', {})).statusCode, 400);
    assert.match(a.text(), /Tick the box/);
  });
});

describe('snapshots and scenarios from the console', () => {
  it("saves a snapshot, and restores it: a payment made after it is gone, B's bank untouched; B's snapshot is no snapshot of A's", async () => {
    const a = await signedIn();
    await a.open('/console/snapshots');
    const saved = await a.post('/console/snapshots', { name: 'before the payment' });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(saved.headers.location, '/console/snapshots?done=snapshot-saved');
    await a.open(String(saved.headers.location));
    assert.match(a.text(), /The snapshot is saved\./);
    const id = /data-snapshot-id="([^"]+)"/.exec(a.last!.body)![1]!;
    assert.match(a.text(), /before the payment/);

    const later = await olaPayment(t);
    const theirs = await olaPayment(t, b);
    await a.open('/console/payments');
    assert.match(a.last!.body, new RegExp(later.paymentId));
    await a.open('/console/snapshots');
    const restored = await a.post(`/console/snapshots/${encodeURIComponent(id)}/restore`, {});
    assert.equal(restored.statusCode, 303, restored.body);
    await a.open('/console/payments');
    assert.doesNotMatch(a.last!.body, new RegExp(later.paymentId), 'the payment made after the save is gone');
    const bRead = await t.signed({ method: 'GET', url: theirs._links.status.href, as: b });
    assert.equal(bRead.statusCode, 200, "B's payment is still there");

    // B's console: A's snapshot id is none of its own.
    const other = await signedIn(b);
    await other.open('/console/snapshots');
    assert.doesNotMatch(other.last!.body, new RegExp(id));
    const refused = await other.post(`/console/snapshots/${encodeURIComponent(id)}/restore`, {});
    assert.equal(refused.statusCode, 404);
    assert.match(other.text(), /That did not work: .*snapshot/);
    await a.open('/console/snapshots');
    assert.equal((await a.post(`/console/snapshots/${encodeURIComponent(id)}/delete`, {})).statusCode, 303);
    await a.open('/console/snapshots');
    assert.doesNotMatch(a.last!.body, new RegExp(id));
  });

  it('arms a scenario with the fields its kind takes, which the batch run then applies; disarms it', async () => {
    const a = await signedIn();
    const form = await a.open('/console/scenarios?kind=payment-rejected');
    assert.equal(form.statusCode, 200);
    assert.match(form.body, /id="arm-form"/);
    assert.match(form.body, /name="reasonCode"/);
    assert.doesNotMatch(form.body, /name="operationId"/, 'a payment scenario names no operation');

    const wrong = await a.post('/console/scenarios', {
      kind: 'payment-rejected',
      debtorBban: 'abc',
      reasonCode: 'AC06',
    });
    assert.equal(wrong.statusCode, 400);
    assert.match(a.text(), /That did not work: Check: Debtor account \(BBAN\)\./);

    await a.open('/console/scenarios?kind=payment-rejected');
    const armed = await a.post('/console/scenarios', {
      kind: 'payment-rejected',
      debtorBban: OLA_ACCOUNTS[1],
      amount: '',
      currency: 'NOK',
      endToEnd: '',
      reasonCode: 'AC06',
      reasonText: '',
      times: '1',
    });
    assert.equal(armed.statusCode, 303, armed.body);
    await a.open(String(armed.headers.location));
    assert.match(a.text(), /The scenario is armed\./);
    assert.match(a.last!.body, /class="scenario" data-kind="payment-rejected"/);

    const created = await olaPayment(t);
    const psu = new ScriptedPsu(t.app);
    await psu.open(created._links.scaRedirect.href);
    await psu.logIn('13039319955', '123456');
    await psu.approve();
    await a.open('/console');
    assert.equal((await a.post('/console/batch-runs', {})).statusCode, 303);
    await a.open(`/console/payments/${encodeURIComponent(created.paymentId)}`);
    assert.match(a.last!.body, /id="payment" data-status="RJCT"/);
    assert.match(a.text(), /AC06/);

    await a.open('/console/scenarios');
    assert.doesNotMatch(a.last!.body, /data-kind="payment-rejected"/, 'spent after its one time');
    await a.open('/console/scenarios?kind=bank-error');
    const error = await a.post('/console/scenarios', { kind: 'bank-error', operationId: 'getAccountList', times: '1' });
    assert.equal(error.statusCode, 303, error.body);
    await a.open('/console/scenarios');
    const disarm = /action="(\/console\/scenarios\/[^"]+\/disarm)"/.exec(a.last!.body)![1]!;
    assert.equal((await a.post(disarm, {})).statusCode, 303);
    await a.open('/console/scenarios');
    assert.match(a.text(), /No scenario is armed\./);
    // The API's own refusal (an operation of the sandbox's) is told on the page.
    await a.open('/console/scenarios?kind=bank-error');
    const sandboxOperation = await a.post('/console/scenarios', { kind: 'bank-error', operationId: 'getSandboxClock' });
    assert.equal(sandboxOperation.statusCode, 400);
  });
});

describe('the console in production', () => {
  let production: TestApp;
  before(async () => {
    production = await startTestApp({ mode: 'production' });
  });
  after(() => production.close());

  it('has no link operation and no pages: 404', async () => {
    const link = await production.signed({ method: 'POST', url: '/v1/sandbox/console-links' });
    assertErrorBody(link, 404, 'NOT_FOUND');
    for (const path of ['/console', '/console/enter?token=x', '/console/payments']) {
      const page = await production.app.inject({ method: 'GET', url: path });
      assert.equal(page.statusCode, 404, path);
    }
  });
});
