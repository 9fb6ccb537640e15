import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { issueTppCertificate } from '../../src/toolkit/certificate-factory.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { CONSENT_PATH, REDIRECT, askConsent, completeConsent, giveConsent, readAis } from '../support/ais-requests.js';
import { PSU_ID } from '../support/payment-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * Consents as the platform offers them (docs/ais.md): POST /v1/bank-offered-consents, the PSU chooses
 * accounts on the bank's page and returns with psu-id and tpp-session-id, the reads name the consent
 * by those two; a read without a consent in force is a 401 challenge. Run on both databases.
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`account-information consents (${engine})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ engine });
    });
    after(() => t.close());

    it('answers POST /v1/bank-offered-consents with 201 and _links.scaRedirect only, as the platform', async () => {
      const response = await askConsent(t, { headers: { 'TPP-Session-ID': 'session-a' } });
      assert.equal(response.statusCode, 201, response.body);
      const body = response.json() as { _links: { scaRedirect: { href: string; verbs: string[] } } };
      assert.deepEqual(Object.keys(body), ['_links']);
      assert.deepEqual(Object.keys(body._links), ['scaRedirect']);
      assert.match(body._links.scaRedirect.href, /^http:\/\/127\.0\.0\.1:8080\/sca\/[\w-]+$/);
      assert.deepEqual(body._links.scaRedirect.verbs, ['GET']);
    });

    it("lets the PSU choose accounts on the page and returns with psu-id and the TPP's tpp-session-id, no Consent-ID", async () => {
      const asked = await askConsent(t, { headers: { 'TPP-Session-ID': 'session-choose' } });
      const link = (asked.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href;
      const psu = new ScriptedPsu(t.app);
      await psu.open(link);
      await psu.logIn('13039319955', '123456');
      const offered = psu.offered();
      assert.equal(offered.all.length, 2, "Ola's two accounts");
      assert.deepEqual(offered.ticked, offered.all, 'a first consent offers every account ticked');
      await psu.share([offered.all[1]!]);
      const back = psu.redirect()!;
      assert.equal(`${back.origin}${back.pathname}`, 'https://tpp.example/callback');
      assert.equal(back.searchParams.get('state'), 'ais');
      assert.equal(back.searchParams.get('psu-id'), PSU_ID, "Ola's PSU-ID with this TPP");
      assert.equal(back.searchParams.get('tpp-session-id'), 'session-choose');
      assert.equal(back.searchParams.get('consent-id'), null);

      const accounts = await readAis(t, '/v1/accounts', { psuId: PSU_ID, tppSessionId: 'session-choose' });
      assert.equal(accounts.statusCode, 200, accounts.body);
      assert.deepEqual(
        (accounts.json() as { accounts: { resourceId: string; bban: string }[] }).accounts.map((a) => [
          a.resourceId,
          a.bban,
        ]),
        [[offered.all[1], '15061012351']],
      );
    });

    it('makes a tpp-session-id when the TPP sends none, and returns it with psu-id', async () => {
      const asked = await askConsent(t);
      assert.equal(asked.statusCode, 201, asked.body);
      const session = await completeConsent(
        t,
        (asked.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href,
        '13039319955',
      );
      assert.match(session.tppSessionId, /^[0-9a-f-]{36}$/);
      assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200);
    });

    it('challenges a read without PSU-ID and TPP-Session-ID with 401 and an scaRedirect that gives a consent', async () => {
      const response = await readAis(t, '/v1/accounts', undefined, { headers: { 'TPP-Redirect-URI': REDIRECT } });
      assert.equal(response.statusCode, 401, response.body);
      const body = response.json() as {
        tppMessages: { code: string; path: string }[];
        _links: { scaRedirect: { href: string } };
      };
      assert.equal(body.tppMessages[0]!.code, 'CONSENT_UNKNOWN');
      assert.equal(body.tppMessages[0]!.path, 'header:PSU-ID');
      const session = await completeConsent(t, body._links.scaRedirect.href, '12085592767');
      const accounts = await readAis(t, '/v1/accounts', session);
      assert.equal(accounts.statusCode, 200, accounts.body);
      assert.deepEqual(
        (accounts.json() as { accounts: { bban: string }[] }).accounts.map((a) => a.bban),
        ['15061012378', '15061012386'],
        "Kari's accounts",
      );
    });

    it('challenges a read in a session where this PSU gave no consent: 401 CONSENT_UNKNOWN at TPP-Session-ID', async () => {
      const response = await readAis(t, '/v1/accounts', { psuId: PSU_ID, tppSessionId: `never-${randomUUID()}` });
      assert.equal(response.statusCode, 401);
      const body = response.json() as {
        tppMessages: { code: string; path: string }[];
        _links: { scaRedirect: { href: string } };
      };
      assert.deepEqual(
        [body.tppMessages[0]!.code, body.tppMessages[0]!.path],
        ['CONSENT_UNKNOWN', 'header:TPP-Session-ID'],
      );
      assert.ok(body._links.scaRedirect.href);
    });

    it('shares nothing when the PSU declines: back with message=declined, and the read stays 401', async () => {
      const asked = await askConsent(t, { headers: { 'TPP-Session-ID': 'session-declined' } });
      const psu = new ScriptedPsu(t.app);
      await psu.open((asked.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href);
      await psu.logIn('13039319955', '123456');
      await psu.decline();
      assert.equal(psu.redirect()!.searchParams.get('message'), 'declined');
      assert.equal(
        (await readAis(t, '/v1/accounts', { psuId: PSU_ID, tppSessionId: 'session-declined' })).statusCode,
        401,
      );
    });

    it('asks again when the PSU approves with no account ticked, and shares nothing until they tick one', async () => {
      const asked = await askConsent(t, { headers: { 'TPP-Session-ID': 'session-none' } });
      const psu = new ScriptedPsu(t.app);
      await psu.open((asked.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href);
      await psu.logIn('13039319955', '123456');
      const offered = psu.offered().all;
      const again = await psu.share([]);
      assert.equal(again.statusCode, 200);
      assert.match(again.body, /Tick at least one account/);
      assert.equal((await readAis(t, '/v1/accounts', { psuId: PSU_ID, tppSessionId: 'session-none' })).statusCode, 401);
      await psu.share([offered[0]!, 'enc!!not-offered']);
      assert.equal(psu.redirect()!.searchParams.get('tpp-session-id'), 'session-none');
      const accounts = await readAis(t, '/v1/accounts', { psuId: PSU_ID, tppSessionId: 'session-none' });
      assert.deepEqual(
        (accounts.json() as { accounts: { resourceId: string }[] }).accounts.map((a) => a.resourceId),
        [offered[0]],
      );
    });

    it('renews a consent in the same session: the page ticks the current choice, and the new choice replaces it', async () => {
      const first = await giveConsent(t, {
        headers: { 'TPP-Session-ID': 'session-renew' },
        choose: (all) => [all[0]!],
      });
      const asked = await askConsent(t, { headers: { 'TPP-Session-ID': 'session-renew', 'PSU-ID': first.psuId } });
      const psu = new ScriptedPsu(t.app);
      await psu.open((asked.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href);
      await psu.logIn('13039319955', '123456');
      const offered = psu.offered();
      assert.deepEqual(offered.ticked, [offered.all[0]]);
      await psu.share([offered.all[1]!]);
      const accounts = await readAis(t, '/v1/accounts', first);
      assert.deepEqual(
        (accounts.json() as { accounts: { resourceId: string }[] }).accounts.map((a) => a.resourceId),
        [offered.all[1]],
      );
    });
  });
}

describe('account-information consents: what is refused', () => {
  let t: TestApp;
  let thirdTpp: CertificateAndKey;
  before(async () => {
    t = await startTestApp();
    thirdTpp = await issueTppCertificate({
      issuer: t.fixtures.ca,
      roles: ['PSP_AI'],
      organisationId: 'PSDNO-FSA-333333333',
      name: 'Third TPP AS',
    });
  });
  after(() => t.close());

  it('needs the PSD2 role PSP_AI: a certificate with PSP_PI only gets 401 ROLE_INVALID', async () => {
    assertErrorBody(await askConsent(t, { as: t.fixtures.otherTpp }), 401, 'ROLE_INVALID');
    assertErrorBody(await readAis(t, '/v1/accounts', undefined, { as: t.fixtures.otherTpp }), 401, 'ROLE_INVALID');
  });

  it('refuses a consent without TPP-Redirect-URI with 400 HTTP_HEADER_REQUIRED naming it', async () => {
    const response = await t.signed({ method: 'POST', url: CONSENT_PATH });
    const body = assertErrorBody(response, 400, 'HTTP_HEADER_REQUIRED');
    assert.equal(body.tppMessages![0]!.path, 'header:TPP-Redirect-URI');
  });

  it('refuses a body with 400 FORMAT_ERROR at $: the PSU chooses the accounts on the page', async () => {
    const body = assertErrorBody(
      await askConsent(t, { body: { access: { allPsd2: 'allAccounts' } } }),
      400,
      'FORMAT_ERROR',
    );
    assert.equal(body.tppMessages![0]!.path, '$');
    assert.equal((await askConsent(t, { body: {} })).statusCode, 201, 'an empty object is tolerated');
  });

  it('refuses PSU-Context CORPORATE without PSU-Corporate-ID, and a PSU-Corporate-ID naming no agreement, each at its header', async () => {
    assert.equal(
      assertErrorBody(await askConsent(t, { headers: { 'PSU-Context': 'CORPORATE' } }), 400, 'HTTP_HEADER_REQUIRED')
        .tppMessages![0]!.path,
      'header:PSU-Corporate-ID',
    );
    const unknown = assertErrorBody(
      await askConsent(t, { headers: { 'PSU-Context': 'CORPORATE', 'PSU-Corporate-ID': 'AGR-NONE' } }),
      400,
      'FORMAT_ERROR',
    );
    assert.equal(unknown.tppMessages![0]!.path, 'header:PSU-Corporate-ID');
    assert.match(unknown.tppMessages![0]!.text!, /AGR-NONE names no corporate agreement/);
    assertErrorBody(
      await askConsent(t, { headers: { 'PSU-Context': 'PRIVATE', 'PSU-Corporate-ID': 'AGR-18129215603' } }),
      400,
      'FORMAT_ERROR',
    );
  });

  it('refuses a malformed PSU-ID or X-PSU-IDENTITY at its header', async () => {
    for (const [name, value] of [
      ['PSU-ID', 'not-a-uuid'],
      ['X-PSU-IDENTITY', '12345678901'],
    ] as const) {
      const body = assertErrorBody(await askConsent(t, { headers: { [name]: value } }), 400, 'FORMAT_ERROR');
      assert.equal(body.tppMessages![0]!.path, `header:${name}`, name);
    }
  });

  it('gives the first answer again to a retry with the same X-Request-ID', async () => {
    const requestId = randomUUID();
    const first = await askConsent(t, { headers: { 'X-Request-ID': requestId, 'TPP-Session-ID': 'retry' } });
    const second = await askConsent(t, { headers: { 'X-Request-ID': requestId, 'TPP-Session-ID': 'retry' } });
    assert.equal(second.statusCode, 201);
    assert.equal(second.body, first.body);
  });

  it('answers a PSU-ID without a session with 401 and an scaRedirect that gives the consent and a psu-id', async () => {
    const response = await askConsent(t, { headers: { 'PSU-ID': randomUUID(), 'TPP-Session-ID': 'unknown-psu' } });
    assert.equal(response.statusCode, 401, response.body);
    const body = response.json() as { tppMessages: { path: string }[]; _links: { scaRedirect: { href: string } } };
    assert.equal(body.tppMessages[0]!.path, 'header:PSU-ID');
    const session = await completeConsent(t, body._links.scaRedirect.href, '12085592767');
    assert.equal(session.tppSessionId, 'unknown-psu');
    assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200);
  });

  it('lets only the PSU the TPP named give the consent: another customer is turned away and nothing is shared', async () => {
    const asked = await askConsent(t, { headers: { 'PSU-ID': PSU_ID, 'TPP-Session-ID': 'wrong-psu' } });
    const psu = new ScriptedPsu(t.app);
    await psu.open((asked.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href);
    const page = await psu.logIn('12085592767', '123456');
    assert.match(page.body, /You are not the person the request was made for/);
    assert.equal((await readAis(t, '/v1/accounts', { psuId: PSU_ID, tppSessionId: 'wrong-psu' })).statusCode, 401);
  });

  it("keeps each TPP in its own bank: another TPP's session headers and account ids get it nothing", async () => {
    const ola = await giveConsent(t);
    const olaAccount = ((await readAis(t, '/v1/accounts', ola)).json() as { accounts: { resourceId: string }[] })
      .accounts[0]!.resourceId;
    assert.equal(
      (await readAis(t, '/v1/accounts', ola, { as: thirdTpp })).statusCode,
      401,
      "the session is the test TPP's",
    );
    const third = await giveConsent(t, { as: thirdTpp });
    const foreign = await readAis(t, `/v1/accounts/${encodeURIComponent(olaAccount)}`, third, { as: thirdTpp });
    assert.equal(assertErrorBody(foreign, 404, 'RESOURCE_UNKNOWN').tppMessages![0]!.path, 'path:accountId');
  });
});
