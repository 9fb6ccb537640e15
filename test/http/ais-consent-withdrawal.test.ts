import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type ConsentSession, askConsent, giveConsent, readAis } from '../support/ais-requests.js';
import { type AisCustomer, newAisCustomer } from '../support/ais-data.js';
import { DEFAULT_CUSTOMERS } from '../../src/sandbox/default-data-set.js';
import { type CertificateAndKey, issueTppCertificate } from '../../src/toolkit/certificate-factory.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';
import { OTHER_TPP_ID } from '../support/tpp-fixtures.js';

/**
 * Issue 31, section 5: a consent can be ended before its 180 days. The TPP ends its own with DELETE
 * /v1/consents/{consentId} (the consent's TPP-Session-ID); the PSU, coming back through a renewal in
 * the same session, unticks accounts or withdraws. Reads then answer 403 CONSENT_UNKNOWN, as the
 * platform answers a revoked consent.
 */
describe('ending a consent (issue 31, section 5)', () => {
  let t: TestApp;
  let customer: AisCustomer;
  let session: ConsentSession;
  const consentPath = () => `/v1/consents/${encodeURIComponent(session.tppSessionId)}`;
  const accountUrl = (i: number) => `/v1/accounts/${encodeURIComponent(customer.accounts[i]!.id)}`;

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());
  beforeEach(async () => {
    customer = await newAisCustomer(t, [{ balance: 1000 }, { balance: 50 }], 0);
    session = await giveConsent(t, { customerNumber: customer.number });
    assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200);
  });

  /** The PSU comes back to the consent page through a renewal the TPP asks for in the same session. */
  async function renewalPage(): Promise<ScriptedPsu> {
    const asked = await askConsent(t, { headers: { 'TPP-Session-ID': session.tppSessionId, 'PSU-ID': session.psuId } });
    assert.equal(asked.statusCode, 201, asked.body);
    const psu = new ScriptedPsu(t.app);
    await psu.open((asked.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href);
    await psu.logIn(customer.number, '123456');
    return psu;
  }

  it('lets the TPP end its consent with DELETE /v1/consents/{consentId}: 204, then every read is 403 CONSENT_UNKNOWN saying terminatedByTpp', async () => {
    const deleted = await t.signed({ method: 'DELETE', url: consentPath() });
    assert.equal(deleted.statusCode, 204, deleted.body);
    assert.equal(deleted.body, '');
    for (const url of ['/v1/accounts', accountUrl(0), `${accountUrl(0)}/balances`]) {
      const refused = assertErrorBody(await readAis(t, url, session), 403, 'CONSENT_UNKNOWN');
      assert.equal(refused.tppMessages![0]!.path, 'header:TPP-Session-ID');
      assert.match(refused.tppMessages![0]!.text!, /terminatedByTpp: this TPP ended it/);
      assert.equal((refused as { _links?: unknown })._links, undefined, 'no scaRedirect: a new consent is asked');
    }
    assert.equal((await t.signed({ method: 'DELETE', url: consentPath() })).statusCode, 204, 'sent again: 204');

    // A new consent given in the session reads again.
    const again = await giveConsent(t, {
      customerNumber: customer.number,
      headers: { 'TPP-Session-ID': session.tppSessionId },
    });
    assert.equal((await readAis(t, '/v1/accounts', again)).statusCode, 200);
  });

  it('answers DELETE of a session with no consent of this TPP 403 CONSENT_UNKNOWN at path:consentId, and ends nothing', async () => {
    const refused = assertErrorBody(
      await t.signed({ method: 'DELETE', url: '/v1/consents/no-such-session' }),
      403,
      'CONSENT_UNKNOWN',
    );
    assert.equal(refused.tppMessages![0]!.path, 'path:consentId');
    assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200);
  });

  it('ends with the consent a link the TPP had asked in the session, so the PSU cannot give it afterwards', async () => {
    const asked = await askConsent(t, { headers: { 'TPP-Session-ID': session.tppSessionId } });
    assert.equal((await t.signed({ method: 'DELETE', url: consentPath() })).statusCode, 204);
    const psu = new ScriptedPsu(t.app);
    await psu.open((asked.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href);
    await psu.logIn(customer.number, '123456');
    await psu.share(psu.offered().all);
    assert.equal(psu.redirect()?.searchParams.get('message') ?? null, null);
    assertErrorBody(await readAis(t, '/v1/accounts', session), 403, 'CONSENT_UNKNOWN');
  });

  it('lets the PSU withdraw on the consent page of a renewal: back with message=withdrawn, then every read is 403 CONSENT_UNKNOWN saying revokedByPsu', async () => {
    const psu = await renewalPage();
    assert.match(psu.last!.body, /id="withdraw"/);
    await psu.withdraw();
    const back = psu.redirect();
    assert.equal(back?.searchParams.get('message'), 'withdrawn');
    assert.equal(back?.searchParams.get('tpp-session-id'), session.tppSessionId);
    for (const url of ['/v1/accounts', accountUrl(0), `${accountUrl(1)}/balances`]) {
      const refused = assertErrorBody(await readAis(t, url, session), 403, 'CONSENT_UNKNOWN');
      assert.match(refused.tppMessages![0]!.text!, /revokedByPsu: the PSU withdrew it on the bank's page/);
    }
  });

  it('lets the PSU untick an account on the consent page of a renewal: the account is no longer read, the other is', async () => {
    const psu = await renewalPage();
    assert.deepEqual(psu.offered().ticked, psu.offered().all, 'the current choice is ticked');
    await psu.share([customer.accounts[1]!.id]);
    assert.equal(psu.redirect()?.searchParams.get('message') ?? null, null);
    assertErrorBody(await readAis(t, accountUrl(0), session), 404, 'RESOURCE_UNKNOWN');
    assert.equal((await readAis(t, accountUrl(1), session)).statusCode, 200);
    const list = (await readAis(t, '/v1/accounts', session)).json() as { accounts: { resourceId: string }[] };
    assert.deepEqual(
      list.accounts.map((a) => a.resourceId),
      [customer.accounts[1]!.id],
    );
  });

  it('offers no withdrawal on a first consent, and a forged withdraw there ends nothing in force', async () => {
    const asked = await askConsent(t, { headers: { 'TPP-Session-ID': `fresh-${session.tppSessionId}` } });
    const psu = new ScriptedPsu(t.app);
    await psu.open((asked.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href);
    await psu.logIn(customer.number, '123456');
    assert.doesNotMatch(psu.last!.body, /id="withdraw"/);
    await psu.withdraw();
    assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200, 'the other session is untouched');
  });
});

/**
 * Issue 31, section 5, from the other side: consentId is a TPP-Session-ID, which another TPP may learn
 * or guess (it travels in the PSU's browser). A TPP ends only its own consents: another TPP's DELETE of
 * the same session is answered as a session it has no consent in, and the consent reads on. In
 * production every TPP shares one bank, so the TPP, not the bank, is what separates them.
 */
for (const mode of ['production', 'sandbox'] as const) {
  describe(`no TPP ends another TPP's consent, in ${mode}`, () => {
    let t: TestApp;
    let other: CertificateAndKey;
    before(async () => {
      t = await startTestApp({ mode });
      other = await issueTppCertificate({
        issuer: t.fixtures.ca,
        roles: ['PSP_AI'],
        organisationId: OTHER_TPP_ID,
        name: 'Other TPP AB',
      });
    });
    after(() => t.close());

    it("answers another TPP's DELETE of the session 403 CONSENT_UNKNOWN, and the consent reads on", async () => {
      const session = await giveConsent(t, { customerNumber: DEFAULT_CUSTOMERS.ola.customerNumber });
      assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200);
      const url = `/v1/consents/${encodeURIComponent(session.tppSessionId)}`;
      const refused = assertErrorBody(await t.signed({ method: 'DELETE', url, as: other }), 403, 'CONSENT_UNKNOWN');
      assert.equal(refused.tppMessages![0]!.path, 'path:consentId');
      assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200, "A's consent is in force");
      // The other TPP's own consent in a session of the same name is its own, and ends alone.
      const its = await giveConsent(t, {
        customerNumber: DEFAULT_CUSTOMERS.ola.customerNumber,
        headers: { 'TPP-Session-ID': session.tppSessionId },
        as: other,
      });
      assert.equal((await t.signed({ method: 'DELETE', url, as: other })).statusCode, 204);
      assertErrorBody(await readAis(t, '/v1/accounts', its, { as: other }), 403, 'CONSENT_UNKNOWN');
      assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200, "A's consent outlives B's");
    });
  });
}
