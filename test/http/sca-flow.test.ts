import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Clock } from '../../src/domain/clock.js';
import { PSU_CODE_FAILURE_WINDOW_MINUTES, PSU_CODE_FAILURES_MAX } from '../../src/domain/limits.js';
import { newBankId } from '../../src/domain/bank.js';
import { TPP_ID } from '../support/tpp-fixtures.js';
import {
  createCrossBorder,
  crossBorderBody,
  OLA_ACCOUNTS,
  PSU_ID,
  CROSS_BORDER_PATH,
  createHeaders,
} from '../support/payment-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * The SCA flow through the PSU's pages, scripted (the browser tests drive the same pages in
 * Chromium): link, log in, check, approve or decline, back to the TPP; and the 401 challenge.
 * Time is a clock the test moves.
 */
class ManualClock implements Clock {
  current = new Date();
  now(): Date {
    return new Date(this.current);
  }
  advanceMinutes(minutes: number): void {
    this.current = new Date(this.current.getTime() + minutes * 60_000);
  }
}

const OLA = '13039319955';
const KARI = '12085592767';
const clock = new ManualClock();
/** The installation's key for national identity numbers in these tests. */
const NATIONAL_ID_KEY = { bytes: randomBytes(32) };
let t: TestApp;

before(async () => {
  t = await startTestApp({ clock, nationalIdKey: NATIONAL_ID_KEY });
});
after(() => t.close());
beforeEach(() => {
  clock.current = new Date();
});

/** A cross-border payment from Ola's own account, with its own SCA link. */
async function olaPayment(
  changes: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  without: string[] = [],
) {
  const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' }, ...changes };
  const response = await createCrossBorder(t, { body, headers, without });
  assert.equal(response.statusCode, 201, response.body);
  const created = response.json() as { paymentId: string; _links: Record<string, { href: string }> };
  return {
    created,
    body,
    link: created._links.scaRedirect?.href,
    status: () =>
      t
        .signed({ method: 'GET', url: created._links.status!.href })
        .then((r) => r.json() as { transactionStatus: string; tppMessages?: { text: string }[] }),
  };
}

describe('signing a payment', () => {
  it('takes the PSU from the link through login and approval back to the TPP with psu-id and tpp-session-id; the payment becomes ACTC', async () => {
    const payment = await olaPayment({}, { 'TPP-Session-ID': 'tpp-session-42' });
    assert.ok(payment.link, 'the 201 carries _links.scaRedirect');
    const psu = new ScriptedPsu(t.app);
    const login = await psu.open(payment.link);
    assert.equal(login.statusCode, 200);
    assert.match(String(login.headers['content-type']), /text\/html/);
    assert.match(login.body, /Test TPP AS asks you to approve a payment/);
    const confirm = await psu.logIn(OLA, '123456');
    assert.equal(confirm.statusCode, 200, confirm.body);
    assert.match(confirm.body, /Logged in as Ola Nordmann/);
    assert.match(confirm.body, /1506\.10\.12343/, 'the debtor account is shown');
    assert.match(confirm.body, /Svenska Leverantör AB/, 'the creditor is shown');
    assert.match(confirm.body, /SE45 5000 0000 0583 9825 7466/, 'the creditor account is shown');
    assert.match(confirm.body, /NOK 150,000\.00/, 'the amount is shown');
    assert.match(confirm.body, /NOK 100\.00/, 'the fee is shown');
    assert.match(confirm.body, /As soon as possible/, 'the execution date is shown');
    const done = await psu.approve();
    assert.equal(done.statusCode, 303);
    const back = psu.redirect()!;
    assert.equal(`${back.origin}${back.pathname}`, 'https://tpp.example/callback');
    assert.equal(back.searchParams.get('state'), 'abc', "the TPP's own query is kept");
    assert.equal(back.searchParams.get('psu-id'), PSU_ID);
    assert.equal(back.searchParams.get('tpp-session-id'), 'tpp-session-42');
    assert.equal((await payment.status()).transactionStatus, 'ACTC');
  });

  it('makes a payment with a future execution date PDNG', async () => {
    const future = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const payment = await olaPayment({ requestedExecutionDate: future });
    const psu = new ScriptedPsu(t.app);
    await psu.open(payment.link!);
    const confirm = await psu.logIn(OLA, '123456');
    assert.match(confirm.body, new RegExp(future));
    await psu.approve();
    assert.equal((await payment.status()).transactionStatus, 'PDNG');
  });

  it('rejects a declined payment (RJCT) and tells the TPP with message=declined', async () => {
    const payment = await olaPayment();
    const psu = new ScriptedPsu(t.app);
    await psu.open(payment.link!);
    await psu.logIn(OLA, '123456');
    const done = await psu.decline();
    assert.equal(done.statusCode, 303);
    assert.equal(psu.redirect()!.searchParams.get('message'), 'declined');
    const status = await payment.status();
    assert.equal(status.transactionStatus, 'RJCT');
    assert.match(status.tppMessages?.[0]?.text ?? '', /declined by the PSU/);
  });

  it('lets the PSU cancel on the login page: back to the TPP with message=cancelled and no psu-id, the authorisation failed, the payment waiting for a new one', async () => {
    const payment = await olaPayment();
    const psu = new ScriptedPsu(t.app);
    const login = await psu.open(payment.link!);
    assert.match(login.body, /id="cancel"[^>]*formnovalidate/);
    const done = await psu.cancel();
    assert.equal(done.statusCode, 303);
    const back = psu.redirect()!;
    assert.equal(back.searchParams.get('message'), 'cancelled');
    assert.equal(back.searchParams.get('psu-id'), null, 'nobody logged in');
    assert.equal((await payment.status()).transactionStatus, 'RCVD', 'nothing was rejected in anyone’s name');
    const authorisations = await t.signed({
      method: 'GET',
      url: `${payment.created._links.self!.href}/authorisations`,
    });
    const ids = (authorisations.json() as { authorisationIds: string[] }).authorisationIds;
    const read = await t.signed({
      method: 'GET',
      url: `${payment.created._links.self!.href}/authorisations/${ids[0]}`,
    });
    assert.equal((read.json() as { scaStatus: string }).scaStatus, 'failed');
    assert.equal((await new ScriptedPsu(t.app).open(payment.link!)).statusCode, 410, 'the link is used up');
    const again = await t.signed({
      method: 'POST',
      url: `${payment.created._links.self!.href}/authorisations`,
      headers: { 'TPP-Redirect-URI': 'https://tpp.example/again' },
    });
    assert.equal(again.statusCode, 201, again.body);
  });

  it('refuses a PSU who is not the one named at initiation: the page says so and nothing is authorised', async () => {
    const payment = await olaPayment();
    const psu = new ScriptedPsu(t.app);
    await psu.open(payment.link!);
    const page = await psu.logIn(KARI, '123456');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /You are not the person this payment was initiated for\. Nothing was approved\./);
    assert.equal((await payment.status()).transactionStatus, 'RCVD');
  });

  it("shows plainly that an account which is not the PSU's cannot be paid from, offers no approval, and rejects it on leaving", async () => {
    const payment = await olaPayment({ debtorAccount: { bban: '15061012378', currency: 'NOK' } });
    const psu = new ScriptedPsu(t.app);
    await psu.open(payment.link!);
    const confirm = await psu.logIn(OLA, '123456');
    assert.match(confirm.body, /This payment cannot be approved: account 15061012378 does not belong to you/);
    assert.doesNotMatch(confirm.body, /id="approve"/);
    await psu.decline();
    assert.equal((await payment.status()).transactionStatus, 'RJCT');
  });

  it('keeps the login page on a wrong code (000000 always fails), and fails the authorisation after three', async () => {
    const payment = await olaPayment();
    const psu = new ScriptedPsu(t.app);
    await psu.open(payment.link!);
    for (let attempt = 1; attempt <= 2; attempt++) {
      const page = await psu.logIn(OLA, '000000');
      assert.match(page.body, /The customer number or the code was not accepted/);
    }
    const last = await psu.logIn(OLA, '000000');
    assert.match(last.body, /Too many attempts/);
    assert.equal((await payment.status()).transactionStatus, 'RCVD');
  });

  it('does not say whether a customer number exists', async () => {
    const payment = await olaPayment();
    const psu = new ScriptedPsu(t.app);
    await psu.open(payment.link!);
    const page = await psu.logIn('99999999999', '123456');
    assert.match(page.body, /The customer number or the code was not accepted/);
  });

  it('answers a link used before with 410 and a page that says so (single use)', async () => {
    const payment = await olaPayment();
    await new ScriptedPsu(t.app).open(payment.link!);
    const again = await new ScriptedPsu(t.app).open(payment.link!);
    assert.equal(again.statusCode, 410);
    assert.match(again.body, /This link does not work/);
  });

  it('refuses a login form sent a second time', async () => {
    const payment = await olaPayment();
    const psu = new ScriptedPsu(t.app);
    await psu.open(payment.link!);
    const form = psu.currentForm!;
    await psu.logIn(OLA, '123456');
    const replay = await psu.resubmit(form, { customerNumber: OLA, code: '123456' });
    assert.equal(replay.statusCode, 410);
    assert.match(replay.body, /This link does not work/);
  });

  it('answers a link older than 15 minutes with 410 and a page that says it expired', async () => {
    const payment = await olaPayment();
    clock.advanceMinutes(16);
    const page = await new ScriptedPsu(t.app).open(payment.link!);
    assert.equal(page.statusCode, 410);
    assert.match(page.body, /This link has expired/);
  });

  it('lets the TPP start a new authorisation for a payment whose link expired', async () => {
    const payment = await olaPayment();
    clock.advanceMinutes(16);
    const started = await t.signed({
      method: 'POST',
      url: `${payment.created._links.self!.href}/authorisations`,
      headers: { 'TPP-Redirect-URI': 'https://tpp.example/again' },
    });
    assert.equal(started.statusCode, 201, started.body);
    const psu = new ScriptedPsu(t.app);
    await psu.open(started.json()._links.scaRedirect.href);
    await psu.logIn(OLA, '123456');
    await psu.approve();
    assert.equal(psu.redirect()!.pathname, '/again');
    assert.equal((await payment.status()).transactionStatus, 'ACTC');
  });

  it('answers a retried start of an authorisation (same X-Request-ID) with the first link, also once the binding expired, and refuses the X-Request-ID for another payment', async () => {
    const payment = await olaPayment();
    const other = await olaPayment();
    clock.advanceMinutes(16);
    const requestId = randomUUID();
    const start = (url: string) =>
      t.signed({
        method: 'POST',
        url: `${url}/authorisations`,
        headers: { 'TPP-Redirect-URI': 'https://tpp.example/again' },
        sign: { requestId },
      });
    const first = await start(payment.created._links.self!.href);
    assert.equal(first.statusCode, 201, first.body);
    const retry = await start(payment.created._links.self!.href);
    assert.equal(retry.statusCode, 201, retry.body);
    assert.deepEqual(retry.json(), first.json());
    // As after the signature's time has passed and the purge ran: the stored answer still decides.
    assert.equal((await t.store.purgeRequestBindings(new Date('2100-01-01T00:00:00Z'))) > 0, true);
    const later = await start(payment.created._links.self!.href);
    assert.equal(later.statusCode, 201, later.body);
    assert.deepEqual(later.json(), first.json());
    const reused = assertErrorBody(await start(other.created._links.self!.href), 409, 'CONFLICT');
    assert.equal(reused.tppMessages?.[0]?.path, 'header:X-Request-ID');
  });

  it('expires a payment not signed within 60 minutes to RJCT, saying why', async () => {
    const payment = await olaPayment();
    clock.advanceMinutes(61);
    const status = await payment.status();
    assert.equal(status.transactionStatus, 'RJCT');
    assert.match(status.tppMessages?.[0]?.text ?? '', /not authorised by the PSU within 60 minutes/);
    assertErrorBody(
      await t.signed({ method: 'DELETE', url: payment.created._links.self!.href }),
      405,
      'CANCELLATION_INVALID',
    );
  });

  it('shows HTML in a creditor name and remittance as text, never as markup', async () => {
    const payment = await olaPayment({
      creditorName: '<script>alert(1)</script><b>Evil</b>',
      remittanceInformationUnstructured: '"><img src=x onerror=alert(2)>',
    });
    const psu = new ScriptedPsu(t.app);
    await psu.open(payment.link!);
    const confirm = await psu.logIn(OLA, '123456');
    assert.match(confirm.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;&lt;b&gt;Evil&lt;\/b&gt;/);
    assert.doesNotMatch(confirm.body, /<script>|<b>Evil|<img src=x/);
    assert.match(String(confirm.headers['content-security-policy']), /default-src 'none'/);
  });

  it('speaks Norwegian Bokmål to a PSU whose browser asks for it', async () => {
    const payment = await olaPayment();
    const psu = new ScriptedPsu(t.app, 'nb-NO,nb;q=0.9');
    const login = await psu.open(payment.link!);
    assert.equal(login.headers['content-language'], 'nb');
    assert.match(login.body, /ber deg godkjenne en betaling/);
    const confirm = await psu.logIn(OLA, '123456');
    assert.match(confirm.body, /NOK 150\s000,00/);
    assert.match(confirm.body, /Godkjenn/);
  });

  it('refuses a form without its CSRF cookie with 403 and a page, and authorises nothing', async () => {
    const payment = await olaPayment();
    const psu = new ScriptedPsu(t.app);
    await psu.open(payment.link!);
    const form = psu.currentForm!;
    const forged = await t.app.inject({
      method: 'POST',
      url: form.action,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...form.fields, customerNumber: OLA, code: '123456' }).toString(),
    });
    assert.equal(forged.statusCode, 403);
    assert.match(forged.body, /This form cannot be used/);
    assert.equal((await payment.status()).transactionStatus, 'RCVD');
  });

  it('signs a payment initiated with X-PSU-IDENTITY by that person, and returns a psu-id for the TPP', async () => {
    const payment = await olaPayment({}, { 'X-PSU-IDENTITY': OLA }, ['PSU-ID']);
    const psu = new ScriptedPsu(t.app);
    await psu.open(payment.link!);
    await psu.logIn(OLA, '123456');
    await psu.approve();
    assert.equal(psu.redirect()!.searchParams.get('psu-id'), PSU_ID, "Ola's session with this TPP");
    assert.equal((await payment.status()).transactionStatus, 'ACTC');
  });

  it('lets a corporate PSU sign from an account of the agreement they act for, and not from one they may only view', async () => {
    const corporate = { 'PSU-Context': 'CORPORATE', 'PSU-Corporate-ID': 'AGR-18129215603' };
    const payment = await olaPayment({ debtorAccount: { bban: '15062056786', currency: 'NOK' } }, corporate);
    let psu = new ScriptedPsu(t.app);
    await psu.open(payment.link!);
    const confirm = await psu.logIn(OLA, '123456');
    assert.match(confirm.body, /You sign on behalf of Nordlys Handel AS nettbank/);
    await psu.approve();
    assert.equal((await payment.status()).transactionStatus, 'ACTC');

    const viewOnly = await olaPayment({ debtorAccount: { bban: '15062056794', currency: 'NOK' } }, corporate);
    psu = new ScriptedPsu(t.app);
    await psu.open(viewOnly.link!);
    const page = await psu.logIn(OLA, '123456');
    assert.match(
      page.body,
      /you may view account 15062056794 in agreement Nordlys Handel AS nettbank, but not pay from it/,
    );
  });

  it('gives no scaRedirect without PSU-Context, with a WARNING saying why', async () => {
    const response = await createCrossBorder(t, { without: ['PSU-Context'] });
    assert.equal(response.statusCode, 201);
    const body = response.json();
    assert.equal(body._links.scaRedirect, undefined);
    assert.equal(body.tppMessages[0].path, 'header:PSU-Context');
    assert.match(body.tppMessages[0].text, /required for single-SCA payment initiation/);
  });

  it('shows the preferred method, says when it is not available, and starts biometric authentication when redirect is not preferred', async () => {
    const bankid = await olaPayment({}, { 'X-PSU-AuthMethod-Preferred': 'BANKID' });
    assert.match((await new ScriptedPsu(t.app).open(bankid.link!)).body, /<strong>Method:<\/strong> BankID</);
    const face = await olaPayment({}, { 'X-PSU-AuthMethod-Preferred': 'FACE_ID' });
    assert.match(
      (await new ScriptedPsu(t.app).open(face.link!)).body,
      /The method &quot;FACE_ID&quot; is not available; use a one-time code\./,
    );
    const biometric = await olaPayment({}, { 'TPP-Redirect-Preferred': 'false' });
    assert.match((await new ScriptedPsu(t.app).open(biometric.link!)).body, /id="biometric"/);
    const plain = await olaPayment();
    assert.doesNotMatch((await new ScriptedPsu(t.app).open(plain.link!)).body, /id="biometric"/);
  });
});

describe('the PSU session (401 challenge)', () => {
  it('challenges an unknown PSU-ID with 401 and scaRedirect; after SCA the TPP gets a psu-id that is served', async () => {
    const response = await createCrossBorder(t, {
      headers: { 'PSU-ID': '11111111-2222-4333-8444-555555555555', 'TPP-Session-ID': 'sess-9' },
    });
    assert.equal(response.statusCode, 401);
    const challenge = response.json();
    assert.deepEqual(Object.keys(challenge), ['_links']);
    assert.deepEqual(challenge._links.scaRedirect.verbs, ['GET']);
    const psu = new ScriptedPsu(t.app);
    const login = await psu.open(challenge._links.scaRedirect.href);
    assert.match(login.body, /asks you to confirm who you are/);
    const done = await psu.logIn(KARI, '123456');
    assert.equal(done.statusCode, 303);
    const back = psu.redirect()!;
    const psuId = back.searchParams.get('psu-id')!;
    assert.match(psuId, /^[0-9a-f-]{36}$/);
    assert.equal(back.searchParams.get('tpp-session-id'), 'sess-9');
    assert.equal(back.searchParams.get('state'), 'abc');
    const retry = await createCrossBorder(t, { headers: { 'PSU-ID': psuId, 'TPP-Session-ID': 'sess-9' } });
    assert.equal(retry.statusCode, 201, retry.body);
  });

  it('challenges a PSU whose last SCA is older than 180 days, and renews the session keeping the PSU-ID', async () => {
    const fresh = await createCrossBorder(t);
    assert.equal(fresh.statusCode, 201);
    clock.current = new Date(Date.now() + 181 * 86_400_000);
    const stale = await createCrossBorder(t, { body: { ...crossBorderBody(), requestedExecutionDate: undefined } });
    assert.equal(stale.statusCode, 401, stale.body);
    const psu = new ScriptedPsu(t.app);
    await psu.open(stale.json()._links.scaRedirect.href);
    await psu.logIn(OLA, '123456');
    assert.equal(psu.redirect()!.searchParams.get('psu-id'), PSU_ID);
    assert.equal((await createCrossBorder(t)).statusCode, 201);
  });

  it('checks the request before the session: a bad request with an unknown PSU-ID is a 400, not a challenge', async () => {
    const body = crossBorderBody();
    body.creditorName = '';
    assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CROSS_BORDER_PATH,
        body,
        headers: createHeaders({ 'PSU-ID': '11111111-2222-4333-8444-555555555556' }),
      }),
      400,
      'FORMAT_ERROR',
    );
  });
});

describe('changes while the PSU is on the page', () => {
  /** Ola logged in on the payment's link: the confirmation page, ready to approve. */
  async function olaOnConfirmPage(link: string): Promise<ScriptedPsu> {
    const psu = new ScriptedPsu(t.app);
    await psu.open(link);
    const confirm = await psu.logIn(OLA, '123456');
    assert.match(confirm.body, /id="approve"/, confirm.body);
    return psu;
  }

  it('does not send the PSU back as approved when the TPP cancelled the payment meanwhile: the page says so and the return carries message=payment-cancelled', async () => {
    const payment = await olaPayment({}, { 'TPP-Session-ID': 'sess-cancel' });
    const psu = await olaOnConfirmPage(payment.link!);
    assert.equal((await t.signed({ method: 'DELETE', url: payment.created._links.self!.href })).statusCode, 204);
    const page = await psu.approve();
    assert.equal(page.statusCode, 200, 'a page to read, not a redirect as if approved');
    assert.match(page.body, /The payment was cancelled/);
    assert.match(page.body, /cancelled before your approval reached the bank/);
    const back = new URL(
      /href="([^"]+)"/.exec(page.body.slice(page.body.indexOf('cancelled before')))![1]!.replaceAll('&amp;', '&'),
    );
    assert.equal(back.searchParams.get('message'), 'payment-cancelled');
    assert.equal(back.searchParams.get('psu-id'), PSU_ID);
    assert.equal(back.searchParams.get('tpp-session-id'), 'sess-cancel');
    assert.equal(back.searchParams.get('state'), 'abc');
    assert.equal((await payment.status()).transactionStatus, 'CANC', 'the cancellation stands');
  });

  it('says so in Norwegian Bokmål too', async () => {
    const payment = await olaPayment();
    const psu = new ScriptedPsu(t.app, 'nb');
    await psu.open(payment.link!);
    await psu.logIn(OLA, '123456');
    await t.signed({ method: 'DELETE', url: payment.created._links.self!.href });
    const page = await psu.approve();
    assert.match(page.body, /Betalingen ble kansellert/);
  });

  it("tells the PSU and the TPP (message=payment-expired) when the payment's signing window ended while the PSU was on the page", async () => {
    const payment = await olaPayment();
    clock.advanceMinutes(50);
    const started = await t.signed({
      method: 'POST',
      url: `${payment.created._links.self!.href}/authorisations`,
      headers: { 'TPP-Redirect-URI': 'https://tpp.example/again' },
    });
    assert.equal(started.statusCode, 201, started.body);
    const psu = await olaOnConfirmPage(started.json()._links.scaRedirect.href);
    clock.advanceMinutes(11);
    const page = await psu.approve();
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /The payment has expired/);
    assert.match(page.body, /message=payment-expired/);
    assert.equal((await payment.status()).transactionStatus, 'RJCT');
  });

  it('tells the PSU and the TPP (message=payment-rejected) when the payment was declined on another link meanwhile', async () => {
    const payment = await olaPayment();
    const psu = await olaOnConfirmPage(payment.link!);
    const started = await t.signed({
      method: 'POST',
      url: `${payment.created._links.self!.href}/authorisations`,
      headers: { 'TPP-Redirect-URI': 'https://tpp.example/again' },
    });
    const other = await olaOnConfirmPage(started.json()._links.scaRedirect.href);
    await other.decline();
    const page = await psu.approve();
    assert.match(page.body, /The payment was rejected/);
    assert.match(page.body, /message=payment-rejected/);
    assert.equal((await payment.status()).transactionStatus, 'RJCT');
  });
});

describe('wrong one-time codes per PSU', () => {
  /** A customer of their own, known to the test TPP: customer number and PSU-ID. */
  async function newCustomer(): Promise<{ customerNumber: string; psuId: string }> {
    const customerNumber = `T${randomUUID()}`;
    const customerId = newBankId();
    await t.store.saveBankData(TPP_ID, {
      customers: [{ id: customerId, customerNumber, name: 'Locked Person', type: 'PRIVATE', createdAt: clock.now() }],
      accounts: [],
      agreements: [],
      engagements: [],
    });
    return {
      customerNumber,
      psuId: (await t.store.recordSca(TPP_ID, customerId, clock.now(), undefined, randomUUID())).psuId,
    };
  }

  /** A new link for a payment initiated for this PSU. */
  async function linkFor(psuId: string): Promise<string> {
    return (await olaPayment({}, { 'PSU-ID': psuId, 'TPP-Session-ID': 'sess-lock' })).link!;
  }

  it(`locks the PSU out across links after ${PSU_CODE_FAILURES_MAX} wrong codes: 30 wrong codes on 10 links are not followed by a login on the 11th, even with the right code`, async () => {
    const { customerNumber, psuId } = await newCustomer();
    let locked = 0;
    for (let link = 0; link < 10; link++) {
      const psu = new ScriptedPsu(t.app);
      await psu.open(await linkFor(psuId));
      for (let attempt = 0; attempt < 3 && psu.currentForm !== undefined; attempt++) {
        const page = await psu.logIn(customerNumber, '000000');
        if (/Logging in is blocked for now/.test(page.body)) locked += 1;
      }
    }
    assert.ok(locked > 0, 'the lockout page was shown');
    const psu = new ScriptedPsu(t.app);
    await psu.open(await linkFor(psuId));
    const page = await psu.logIn(customerNumber, '123456');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Logging in is blocked for now/);
    assert.doesNotMatch(page.body, /id="approve"/);
    assert.match(page.body, /message=psu-locked/);
    assert.match(page.body, /tpp-session-id=sess-lock/);
  });

  it(`locks out after exactly ${PSU_CODE_FAILURES_MAX} wrong codes, and lets the PSU in again when the oldest is ${PSU_CODE_FAILURE_WINDOW_MINUTES} minutes old`, async () => {
    const { customerNumber, psuId } = await newCustomer();
    let psu: ScriptedPsu | undefined;
    for (let wrong = 1; wrong <= PSU_CODE_FAILURES_MAX; wrong++) {
      if (psu?.currentForm === undefined) {
        psu = new ScriptedPsu(t.app);
        await psu.open(await linkFor(psuId));
      }
      const page = await psu.logIn(customerNumber, '000000');
      assert.equal(
        /Logging in is blocked for now/.test(page.body),
        wrong === PSU_CODE_FAILURES_MAX,
        `wrong code ${wrong}`,
      );
    }
    clock.advanceMinutes(PSU_CODE_FAILURE_WINDOW_MINUTES + 1);
    psu = new ScriptedPsu(t.app);
    await psu.open(await linkFor(psuId));
    assert.match((await psu.logIn(customerNumber, '123456')).body, /Logged in as Locked Person/);
  });

  it('counts wrong codes under the PSU named at initiation, whatever customer number is typed', async () => {
    const { customerNumber, psuId } = await newCustomer();
    let psu: ScriptedPsu | undefined;
    for (let wrong = 0; wrong < PSU_CODE_FAILURES_MAX; wrong++) {
      if (psu?.currentForm === undefined) {
        psu = new ScriptedPsu(t.app);
        await psu.open(await linkFor(psuId));
      }
      await psu.logIn(`T${randomUUID()}`, '123456');
    }
    psu = new ScriptedPsu(t.app);
    await psu.open(await linkFor(psuId));
    assert.match((await psu.logIn(customerNumber, '123456')).body, /Logging in is blocked for now/);
  });

  it('does not lock out another PSU', async () => {
    const victim = await newCustomer();
    for (let link = 0; link < 4; link++) {
      const psu = new ScriptedPsu(t.app);
      await psu.open(await linkFor(victim.psuId));
      for (let attempt = 0; attempt < 3 && psu.currentForm !== undefined; attempt++)
        await psu.logIn(victim.customerNumber, '000000');
    }
    const other = await newCustomer();
    const psu = new ScriptedPsu(t.app);
    await psu.open(await linkFor(other.psuId));
    assert.match((await psu.logIn(other.customerNumber, '123456')).body, /Logged in as Locked Person/);
  });
});

describe('the national identity number at rest', () => {
  it('is stored as HMAC-SHA256 under the installation key, not as SHA-256 anyone can recompute, and still matches its PSU', async () => {
    const payment = await olaPayment({}, { 'X-PSU-IDENTITY': OLA }, ['PSU-ID']);
    const [stored] = await t.store.findPaymentsForSca(TPP_ID, [payment.created.paymentId]);
    assert.equal(stored?.psuNationalIdHash, createHmac('sha256', NATIONAL_ID_KEY.bytes).update(OLA).digest('hex'));
    assert.notEqual(stored?.psuNationalIdHash, createHash('sha256').update(`psd2-psu:${OLA}`).digest('hex'));
    assert.ok(!stored?.psuKey.includes(createHash('sha256').update(`psd2-psu:${OLA}`).digest('hex')));
    const psu = new ScriptedPsu(t.app);
    await psu.open(payment.link!);
    assert.match((await psu.logIn(OLA, '123456')).body, /Logged in as Ola Nordmann/);
  });
});
