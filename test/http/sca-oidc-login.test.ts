import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { PsuOidcSettings } from '../../src/config/psu-oidc-settings.js';
import type { Clock } from '../../src/domain/clock.js';
import { ServerMetrics } from '../../src/metrics/server-metrics.js';
import { PROVIDER_CALLBACK_PATH } from '../../src/http/routes/sca-page-routes.js';
import { askConsent } from '../support/ais-requests.js';
import { IdpBrowser } from '../support/idp-browser.js';
import { LogLines } from '../support/log-lines.js';
import { OLA_ACCOUNTS, PSU_ID, createCrossBorder, crossBorderBody } from '../support/payment-requests.js';
import { sampleValue } from '../support/prometheus-text.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { PUBLIC_URL, type TestApp, startTestApp } from '../support/test-app.js';
import { ACR_HIGH, ACR_LOW, STRANGER_NIN, type TestIdp, startTestIdp } from '../support/test-idp.js';

/**
 * The PSU logs in at the bank's identity provider over OpenID Connect (docs/sca.md, "Production
 * log-in"): a real provider (oidc-provider, test/support/test-idp.ts) on 127.0.0.1, the bank's pages
 * in-process, the browser's redirects followed by hand. A payment, a consent and a basket signed;
 * then each way the provider's answer is refused, or the provider is not there.
 */
class ManualClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const OLA = '13039319955';
const clock = new ManualClock();
const log = new LogLines();
let idp: TestIdp;
let t: TestApp;

function settingsOf(provider: TestIdp, changes: Partial<PsuOidcSettings> = {}): PsuOidcSettings {
  return {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientAuth: { kind: 'client-secret', secret: provider.clientSecret },
    scope: 'openid',
    acrValues: [ACR_HIGH],
    identityClaim: 'nin',
    nameClaim: 'name',
    ...changes,
  };
}

before(async () => {
  idp = await startTestIdp({ redirectUri: `${PUBLIC_URL}${PROVIDER_CALLBACK_PATH}` });
  t = await startTestApp({
    clock,
    identityProvider: settingsOf(idp),
    metrics: new ServerMetrics(),
    logger: { level: 'info', stream: log.stream },
  });
});
after(async () => {
  await t.close();
  await idp.close();
});
beforeEach(() => {
  idp.reset();
  clock.offsetMs = 0;
});

interface Link {
  href: string;
}

/** A cross-border payment from Ola's account for Ola (PSU-ID), with its SCA link. */
async function olaPayment(headers: Record<string, string> = {}) {
  const body: Record<string, unknown> = {
    ...crossBorderBody(),
    debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' },
  };
  const response = await createCrossBorder(t, { body, headers });
  assert.equal(response.statusCode, 201, response.body);
  const created = response.json() as { paymentId: string; _links: Record<string, Link> };
  return {
    body,
    link: created._links.scaRedirect!.href,
    status: async () =>
      ((await t.signed({ method: 'GET', url: created._links.status!.href })).json() as { transactionStatus: string })
        .transactionStatus,
  };
}

function browser(): IdpBrowser {
  return new IdpBrowser(idp, new ScriptedPsu(t.app));
}

async function outcomes(outcome: string): Promise<number> {
  const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
  return sampleValue(metrics.body, 'psd2_sca_outcomes_total', { outcome });
}

/** The page refused the log-in: 403, said so, the way back to the TPP with message=login-refused, counted. */
async function assertRefused(
  page: { statusCode: number; body: string },
  before: number,
  returns = true,
): Promise<void> {
  assert.equal(page.statusCode, 403, page.body);
  assert.match(page.body, /The log-in could not be used/);
  if (returns) assert.match(page.body, /message=login-refused/);
  assert.equal(await outcomes('login-refused'), before + 1);
}

describe('signing at the identity provider', () => {
  it('sends the browser to the provider with PKCE, state, nonce, acr_values and the payment as authorization_details, pushed (PAR); the PSU approves and the payment is ACTC', async () => {
    const payment = await olaPayment();
    const b = browser();
    const opened = await b.open(payment.link);
    assert.equal(opened.statusCode, 303);
    const callback = await b.logIn({ account: 'ola' });
    // Pushed: the browser carries only the request_uri, not what is signed.
    assert.ok(b.authorizationUrl!.searchParams.get('request_uri'), String(b.authorizationUrl));
    assert.equal(b.authorizationUrl!.searchParams.get('authorization_details'), null);
    assert.equal(callback.origin + callback.pathname, `${PUBLIC_URL}${PROVIDER_CALLBACK_PATH}`);
    const sent = idp.lastAuthorizationParameters;
    assert.equal(sent.code_challenge_method, 'S256');
    assert.match(String(sent.code_challenge), /^[A-Za-z0-9_-]{43}$/);
    assert.match(String(sent.state), /^[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]+$/, 'the step token, bound to the browser');
    assert.match(String(sent.nonce), /^[A-Za-z0-9_-]{43}$/);
    assert.equal(sent.acr_values, ACR_HIGH);
    assert.equal(sent.prompt, 'login');
    assert.equal(String(sent.max_age), '300');
    assert.equal(callback.searchParams.get('state'), sent.state);
    assert.deepEqual(idp.lastAuthorizationDetails, [
      {
        type: 'payment_initiation',
        actions: ['initiate'],
        instructedAmount: { amount: '150000.00', currency: 'NOK' },
        creditorName: payment.body.creditorName,
        creditorAccount: { iban: 'SE4550000000058398257466' },
        debtorAccount: { bban: OLA_ACCOUNTS[0] },
        remittanceInformationUnstructured: payment.body.remittanceInformationUnstructured,
      },
    ]);
    const confirm = await b.back(callback);
    assert.equal(confirm.statusCode, 200, confirm.body);
    assert.match(confirm.body, /Ola Nordmann/);
    await b.psu.approve();
    const back = b.psu.redirect();
    assert.equal(back?.origin, 'https://tpp.example');
    assert.ok(back?.searchParams.get('psu-id'));
    assert.equal(await payment.status(), 'ACTC');
  });

  it('a consent: account_information details, then the bank-offered accounts to tick', async () => {
    const response = await askConsent(t);
    assert.equal(response.statusCode, 201, response.body);
    const link = (response.json() as { _links: { scaRedirect: Link } })._links.scaRedirect.href;
    const b = browser();
    const page = await b.signIn(link, { account: 'ola' });
    assert.equal(page.statusCode, 200, page.body);
    assert.deepEqual(idp.lastAuthorizationDetails, [
      { type: 'account_information', actions: ['read'], access: { accounts: [], balances: [], transactions: [] } },
    ]);
    const offered = b.psu.offered().all;
    assert.ok(offered.length > 0, page.body);
    await b.psu.share(offered);
    assert.ok(b.psu.redirect()?.searchParams.get('psu-id'), b.psu.last?.body);
  });

  it('a basket: its total and count in the details; approved, every payment ACTC', async () => {
    const ids: string[] = [];
    for (const amount of ['100.00', '250.50']) {
      const body = {
        ...crossBorderBody(),
        instructedAmount: { amount, currency: 'NOK' },
        debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' },
      };
      const created = await createCrossBorder(t, { body, without: ['PSU-Context'] });
      assert.equal(created.statusCode, 201, created.body);
      ids.push((created.json() as { paymentId: string }).paymentId);
    }
    const basket = await t.signed({
      method: 'POST',
      url: '/v1/signing-baskets',
      body: { paymentIds: ids },
      headers: {
        'PSU-ID': PSU_ID,
        'PSU-IP-Address': '192.0.2.10',
        'TPP-Redirect-URI': 'https://tpp.example/basket',
        'TPP-Session-ID': 'basket-session',
      },
    });
    assert.equal(basket.statusCode, 201, basket.body);
    const created = basket.json() as { basketId: string; _links: { scaRedirect: Link } };
    const b = browser();
    const page = await b.signIn(created._links.scaRedirect.href);
    assert.equal(page.statusCode, 200, page.body);
    const [detail] = idp.lastAuthorizationDetails as Record<string, unknown>[];
    assert.deepEqual(detail!.instructedAmount, { amount: '350.50', currency: 'NOK' });
    assert.equal(detail!.numberOfPayments, 2);
    assert.equal(detail!.remittanceInformationUnstructured, '2 payments, NOK 350.50 in all');
    await b.psu.approve();
    assert.ok(b.psu.redirect()?.searchParams.get('psu-id'), b.psu.last?.body);
    const status = await t.signed({ method: 'GET', url: `/v1/signing-baskets/${created.basketId}/status` });
    assert.equal((status.json() as { transactionStatus: string }).transactionStatus, 'ACTC');
  });

  it('someone else than the PSU the payment names is wrong-psu, as with the form', async () => {
    const payment = await olaPayment();
    const page = await browser().signIn(payment.link, { account: 'kari' });
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /You are not the person this payment was initiated for/);
    assert.match(page.body, /message=wrong-psu/);
    assert.equal(await payment.status(), 'RCVD');
  });

  it('the 401 challenge of an unknown PSU-ID: a session, with no authorization_details; the PSU-ID it gives is served', async () => {
    const response = await createCrossBorder(t, {
      headers: { 'PSU-ID': '11111111-2222-4333-8444-555555555555', 'TPP-Session-ID': 'oidc-session' },
    });
    assert.equal(response.statusCode, 401);
    const b = browser();
    const done = await b.signIn((response.json() as { _links: { scaRedirect: Link } })._links.scaRedirect.href, {
      account: 'kari',
    });
    assert.equal(done.statusCode, 303, done.body);
    assert.equal(idp.lastAuthorizationDetails, undefined);
    const psuId = b.psu.redirect()!.searchParams.get('psu-id')!;
    const retry = await createCrossBorder(t, { headers: { 'PSU-ID': psuId, 'TPP-Session-ID': 'oidc-session' } });
    assert.equal(retry.statusCode, 201, retry.body);
  });

  it('a payment named by X-PSU-IDENTITY: signed by that person, wrong-psu for another', async () => {
    const byIdentity = async () => {
      const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } };
      const response = await createCrossBorder(t, {
        body,
        headers: { 'X-PSU-IDENTITY': OLA },
        without: ['PSU-ID'],
      });
      assert.equal(response.statusCode, 201, response.body);
      return (response.json() as { _links: Record<string, Link> })._links.scaRedirect!.href;
    };
    const kari = await browser().signIn(await byIdentity(), { account: 'kari' });
    assert.match(kari.body, /message=wrong-psu/);
    const ola = await browser().signIn(await byIdentity(), { account: 'ola' });
    assert.equal(ola.statusCode, 200, ola.body);
    assert.match(ola.body, /id="approve"/);
  });

  it('cancelled at the provider: back to the TPP with message=cancelled', async () => {
    const payment = await olaPayment();
    const b = browser();
    await b.open(payment.link);
    const page = await b.back(await b.logIn({ deny: true }));
    assert.equal(page.statusCode, 303);
    assert.equal(b.psu.redirect()?.searchParams.get('message'), 'cancelled');
    assert.equal(await payment.status(), 'RCVD');
  });

  it('asks the PSU to log in at the provider for every authorisation, even with a session there (prompt=login, max_age)', async () => {
    const b = browser();
    await b.signIn((await olaPayment()).link);
    await b.psu.approve();
    const second = await olaPayment();
    await b.open(second.link);
    const callback = await b.logIn();
    assert.equal(b.askedToLogIn, true, 'the provider asked again');
    assert.equal(b.authorizationUrl!.searchParams.get('request_uri') !== null, true);
    assert.equal((await b.back(callback)).statusCode, 200);
  });

  it('the form log-in is not offered: the link leads to the provider only', async () => {
    const payment = await olaPayment();
    const opened = await new ScriptedPsu(t.app).open(payment.link);
    assert.equal(opened.statusCode, 303);
    assert.ok(String(opened.headers.location).startsWith(idp.issuer));
  });
});

describe('what is refused', () => {
  it('a state made for another browser: refused, nothing used up, and the PSU can still finish', async () => {
    const payment = await olaPayment();
    const b = browser();
    await b.open(payment.link);
    const callback = await b.logIn();
    const before = await outcomes('login-refused');
    // Another browser (no sca_browser cookie of this one) brings the same answer.
    const stranger = await new ScriptedPsu(t.app).open(callback.toString());
    await assertRefused(stranger, before, false);
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')!.split('.')[0]}.forged`);
    await assertRefused(await b.back(tampered), before + 1, false);
    const page = await b.back(callback);
    assert.equal(page.statusCode, 200, page.body);
  });

  it('a HEAD of the callback (a link checker) spends nothing: the PSU then finishes', async () => {
    const payment = await olaPayment();
    const b = browser();
    await b.open(payment.link);
    const callback = await b.logIn();
    const head = await t.app.inject({ method: 'HEAD', url: `${callback.pathname}${callback.search}` });
    assert.equal(head.statusCode, 404);
    assert.equal((await b.back(callback)).statusCode, 200);
  });

  it('a replayed code: the second callback finds the step used', async () => {
    const payment = await olaPayment();
    const b = browser();
    await b.open(payment.link);
    const callback = await b.logIn();
    assert.equal((await b.back(callback)).statusCode, 200);
    const before = await outcomes('link-invalid');
    const again = await b.back(callback);
    assert.equal(again.statusCode, 410, again.body);
    assert.equal(await outcomes('link-invalid'), before + 1);
  });

  it('an expired flow: a callback after the link expired', async () => {
    const payment = await olaPayment();
    const b = browser();
    await b.open(payment.link);
    const callback = await b.logIn();
    clock.offsetMs = 16 * 60_000;
    const before = await outcomes('link-expired');
    const page = await b.back(callback);
    assert.equal(page.statusCode, 410, page.body);
    assert.match(page.body, /message=link-expired/);
    assert.equal(await outcomes('link-expired'), before + 1);
  });

  for (const [name, fault] of [
    ['a nonce of another log-in', 'wrong-nonce'],
    ['an ID token signed by a key the provider does not publish', 'unpublished-key'],
    ['an unsigned ID token (alg: none)', 'alg-none'],
    ['an ID token for another client (aud)', 'wrong-audience'],
  ] as const) {
    it(name, async () => {
      const payment = await olaPayment();
      idp.faults = { idToken: fault };
      const before = await outcomes('login-refused');
      await assertRefused(await browser().signIn(payment.link), before);
      assert.equal(await payment.status(), 'RCVD');
    });
  }

  it('an acr below PSU_OIDC_ACR_VALUES', async () => {
    const payment = await olaPayment();
    const before = await outcomes('login-refused');
    await assertRefused(await browser().signIn(payment.link, { acr: ACR_LOW }), before);
  });

  it('says so in Norwegian Bokmål too', async () => {
    const payment = await olaPayment();
    const page = await new IdpBrowser(idp, new ScriptedPsu(t.app, 'nb')).signIn(payment.link, { acr: ACR_LOW });
    assert.equal(page.statusCode, 403);
    assert.match(page.body, /Innloggingen kunne ikke brukes/);
  });

  it('an ID token without the identity claim', async () => {
    const payment = await olaPayment();
    const before = await outcomes('login-refused');
    await assertRefused(await browser().signIn(payment.link, { account: 'nameless' }), before);
  });

  it('a person who is not a customer of the bank', async () => {
    const payment = await olaPayment();
    const before = await outcomes('login-refused');
    await assertRefused(await browser().signIn(payment.link, { account: 'stranger' }), before);
  });

  it('authorization_details in the token response other than those sent (dynamic linking)', async () => {
    const payment = await olaPayment();
    idp.faults = {
      authorizationDetails: (details) =>
        details.map((d) => ({ ...(d as object), instructedAmount: { amount: '1.00', currency: 'NOK' } })),
    };
    const before = await outcomes('login-refused');
    await assertRefused(await browser().signIn(payment.link), before);
  });

  it('logs why, but no identity number, code or token', async () => {
    const payment = await olaPayment();
    idp.faults = { idToken: 'wrong-nonce' };
    const b = browser();
    await b.open(payment.link);
    const callback = await b.logIn();
    const from = log.lines.length;
    await b.back(callback);
    const lines = log.lines.slice(from).map((l) => JSON.stringify(l));
    assert.ok(
      lines.some((l) => l.includes('PSU log-in at the identity provider failed')),
      lines.join('\n'),
    );
    for (const secret of [OLA, STRANGER_NIN, callback.searchParams.get('code')!, callback.searchParams.get('state')!])
      assert.ok(!lines.some((l) => l.includes(secret)), `the log holds ${secret}`);
  });
});

describe('a provider that is not there', () => {
  it('slow: the token endpoint does not answer within 5 s; the page says so and the way back carries message=idp-unavailable', async () => {
    const payment = await olaPayment();
    const b = browser();
    await b.open(payment.link);
    const callback = await b.logIn();
    idp.faults = { tokenEndpointHangs: true };
    const before = await outcomes('idp-unavailable');
    const page = await b.back(callback);
    assert.equal(page.statusCode, 503, page.body);
    assert.match(page.body, /Logging in is not available right now/);
    assert.match(page.body, /message=idp-unavailable/);
    assert.equal(await outcomes('idp-unavailable'), before + 1);
  });

  it('down: the link leads to a page that says so', async () => {
    const gone = await startTestIdp({ redirectUri: `${PUBLIC_URL}${PROVIDER_CALLBACK_PATH}` });
    await gone.close();
    const other = await startTestApp({ identityProvider: settingsOf(gone) });
    try {
      const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } };
      const created = await createCrossBorder(other, { body });
      const link = (created.json() as { _links: { scaRedirect: Link } })._links.scaRedirect.href;
      const page = await new ScriptedPsu(other.app).open(link);
      assert.equal(page.statusCode, 503, page.body);
      assert.match(page.body, /Logging in is not available right now/);
      assert.match(page.body, /message=idp-unavailable/);
    } finally {
      await other.close();
    }
  });
});

describe('private_key_jwt', () => {
  for (const [type, form] of [
    ['rsa', 'pem'],
    ['ec', 'pem'],
    ['ec', 'jwk'],
  ] as const) {
    it(`authenticates with the bank's ${type === 'rsa' ? 'RSA' : 'P-256'} key from PSU_OIDC_CLIENT_KEY_FILE (${form === 'pem' ? 'PEM' : 'a JWK with its kid'})`, async () => {
      const keys =
        type === 'rsa'
          ? generateKeyPairSync('rsa', { modulusLength: 2048 })
          : generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const dir = mkdtempSync(join(tmpdir(), 'psd2-oidc-key-'));
      const keyFile = join(dir, 'client.key');
      writeFileSync(
        keyFile,
        form === 'pem'
          ? keys.privateKey.export({ type: 'pkcs8', format: 'pem' })
          : JSON.stringify({ ...keys.privateKey.export({ format: 'jwk' }), kid: 'bank-2026' }),
      );
      // With a kid, the provider holds another key of the bank's besides, as during a key rotation.
      const decoy = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
      const keyed = await startTestIdp({
        redirectUri: `${PUBLIC_URL}${PROVIDER_CALLBACK_PATH}`,
        clientPublicKeys:
          form === 'pem'
            ? [keys.publicKey.export({ format: 'jwk' })]
            : [
                { ...decoy, kid: 'bank-2025' },
                { ...keys.publicKey.export({ format: 'jwk' }), kid: 'bank-2026' },
              ],
      });
      const other = await startTestApp({
        identityProvider: {
          ...settingsOf(keyed),
          clientId: keyed.keyClientId,
          clientAuth: { kind: 'private-key-jwt', keyFile },
        },
      });
      try {
        const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } };
        const created = await createCrossBorder(other, { body });
        const link = (created.json() as { _links: { scaRedirect: Link } })._links.scaRedirect.href;
        const page = await new IdpBrowser(keyed, new ScriptedPsu(other.app)).signIn(link);
        assert.equal(page.statusCode, 200, page.body);
        assert.match(page.body, /Ola Nordmann/);
      } finally {
        await other.close();
        await keyed.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
