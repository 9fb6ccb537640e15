import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AIS_UNATTENDED_READS_PER_DAY,
  PSU_CODE_FAILURES_MAX,
  PSU_CODE_FAILURE_WINDOW_MINUTES,
} from '../../src/domain/limits.js';
import {
  MAX_CODE_ATTEMPTS,
  PSU_SESSION_VALIDITY_DAYS,
  SCA_LINK_TTL_MINUTES,
  SIGNING_WINDOW_MINUTES,
} from '../../src/domain/sca.js';
import { DEFAULT_CUSTOMERS } from '../../src/sandbox/default-data-set.js';
import { askConsent, giveConsent, readAis } from '../support/ais-requests.js';
import { OLA_ACCOUNTS, createCrossBorder, crossBorderBody } from '../support/payment-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

const OLA = DEFAULT_CUSTOMERS.ola.customerNumber;

/**
 * docs/scenarios.md, "SCA" and "Consents": each outcome a TPP must handle, produced the way a TPP's
 * own test suite produces it, over the API and the bank's pages only: the PSU's buttons and codes,
 * and the sandbox clock moved with POST /v1/sandbox/clock. No scenario needs anything but what the
 * sandbox offers every TPP.
 */
describe('scenarios: SCA and consents, driven as a TPP test suite drives them', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const moveClock = async (seconds: number) => {
    const moved = await t.signed({
      method: 'POST',
      url: '/v1/sandbox/clock',
      body: { advanceSeconds: seconds },
      sign: { digest: true },
    });
    assert.equal(moved.statusCode, 200, moved.body);
  };

  async function payment() {
    const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } };
    const created = await createCrossBorder(t, { body, query: '?allowLogicalDuplicate=true' });
    assert.equal(created.statusCode, 201, created.body);
    const json = created.json() as Json;
    const self = json._links.self.href as string;
    const scaRead = async () => {
      const ids = ((await t.signed({ method: 'GET', url: `${self}/authorisations` })).json() as Json)
        .authorisationIds as string[];
      return (await t.signed({ method: 'GET', url: `${self}/authorisations/${ids[0]}` })).json() as Json;
    };
    return {
      link: json._links.scaRedirect.href as string,
      status: async () => (await t.signed({ method: 'GET', url: `${self}/status` })).json() as Json,
      scaStatus: async () => (await scaRead()).scaStatus as string,
      scaRead,
    };
  }

  it('the PSU declines: back with message=declined, the payment RJCT "declined by the PSU"', async () => {
    const p = await payment();
    const psu = new ScriptedPsu(t.app);
    await psu.open(p.link);
    await psu.logIn(OLA, '123456');
    await psu.decline();
    assert.equal(psu.redirect()?.searchParams.get('message'), 'declined');
    const status = await p.status();
    assert.equal(status.transactionStatus, 'RJCT');
    assert.match(status.tppMessages[0].text, /declined by the PSU/);
    const sca = await p.scaRead();
    assert.equal(sca.scaStatus, 'failed');
    assert.equal(sca.tppMessages, undefined, 'a decline is no expiry');
  });

  it(`wrong codes: ${MAX_CODE_ATTEMPTS} on one link end it with message=too-many-attempts; the payment waits for a new authorisation`, async () => {
    const p = await payment();
    const psu = new ScriptedPsu(t.app);
    await psu.open(p.link);
    for (let i = 1; i < MAX_CODE_ATTEMPTS; i++)
      assert.match((await psu.logIn(OLA, '000000')).body, /role="alert"/, `wrong code ${i}: the form again`);
    await psu.logIn(OLA, '000000');
    const back = new URL(psu.last!.body.match(/href="([^"]+)" id="return"/)![1]!.replaceAll('&amp;', '&'));
    assert.equal(back.searchParams.get('message'), 'too-many-attempts');
    assert.equal(await p.scaStatus(), 'failed');
    assert.equal((await p.status()).transactionStatus, 'RCVD');
  });

  it(`wrong codes up to the lock-out: after ${PSU_CODE_FAILURES_MAX} over several links the PSU the payment names is locked out (message=psu-locked), even with the right code`, async () => {
    // Wrong codes count for the PSU the payment names (Ola) over the last window; the earlier tests' ones age out.
    await moveClock((PSU_CODE_FAILURE_WINDOW_MINUTES + 1) * 60);
    const other = DEFAULT_CUSTOMERS.kari.customerNumber;
    let wrong = 0;
    let psu: ScriptedPsu | undefined;
    while (wrong < PSU_CODE_FAILURES_MAX) {
      const p = await payment();
      psu = new ScriptedPsu(t.app);
      await psu.open(p.link);
      for (let i = 0; i < MAX_CODE_ATTEMPTS && wrong < PSU_CODE_FAILURES_MAX; i++, wrong++)
        await psu.logIn(other, '000000');
    }
    const p = await payment();
    psu = new ScriptedPsu(t.app);
    await psu.open(p.link);
    const locked = await psu.logIn(other, '123456');
    assert.match(locked.body, /data-outcome="psu-locked"/);
    assert.match(locked.body, /message=psu-locked/);
  });

  it('the PSU cancels on the log-in page: back with message=cancelled and no psu-id', async () => {
    const p = await payment();
    const psu = new ScriptedPsu(t.app);
    await psu.open(p.link);
    await psu.cancel();
    const back = psu.redirect()!;
    assert.equal(back.searchParams.get('message'), 'cancelled');
    assert.equal(back.searchParams.get('psu-id'), null);
    assert.equal(await p.scaStatus(), 'failed');
  });

  it(`the PSU abandons the page: after ${SCA_LINK_TTL_MINUTES} minutes of the bank's clock the link is 410, after ${SIGNING_WINDOW_MINUTES} the payment RJCT`, async () => {
    const p = await payment();
    const psu = new ScriptedPsu(t.app);
    await psu.open(p.link);
    await moveClock((SCA_LINK_TTL_MINUTES + 1) * 60);
    const late = await psu.logIn(OLA, '123456');
    assert.equal(late.statusCode, 410, 'the page left open has expired with its link');
    assert.match(late.body, /expired/);
    assert.equal((await new ScriptedPsu(t.app).open(p.link)).statusCode, 410);
    const sca = await p.scaRead();
    assert.equal(sca.scaStatus, 'failed');
    assert.equal(sca.tppMessages[0].code, 'SCA_EXPIRED', 'the TPP reads why: the PSU left the page');
    await moveClock(SIGNING_WINDOW_MINUTES * 60);
    const status = await p.status();
    assert.equal(status.transactionStatus, 'RJCT');
    assert.match(status.tppMessages[0].text, /not authorised by the PSU within/);
  });

  it('a consent the PSU withdraws on the bank page: reads are 403 CONSENT_UNKNOWN (revokedByPsu)', async () => {
    const session = await giveConsent(t, { customerNumber: OLA });
    assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200);
    const asked = await askConsent(t, { headers: { 'TPP-Session-ID': session.tppSessionId, 'PSU-ID': session.psuId } });
    const psu = new ScriptedPsu(t.app);
    await psu.open((asked.json() as Json)._links.scaRedirect.href);
    await psu.logIn(OLA, '123456');
    await psu.withdraw();
    assert.equal(psu.redirect()?.searchParams.get('message'), 'withdrawn');
    const refused = assertErrorBody(await readAis(t, '/v1/accounts', session), 403, 'CONSENT_UNKNOWN');
    assert.match(refused.tppMessages![0]!.text!, /revokedByPsu/);
  });

  it(`a consent expired by the clock: ${PSU_SESSION_VALIDITY_DAYS} days on, a read is 401 with an scaRedirect to renew it`, async () => {
    const session = await giveConsent(t, { customerNumber: OLA });
    assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200);
    await moveClock((PSU_SESSION_VALIDITY_DAYS + 1) * 86_400);
    const challenged = await readAis(t, '/v1/accounts', session);
    assert.equal(challenged.statusCode, 401, challenged.body);
    assert.ok((challenged.json() as Json)._links.scaRedirect.href);
  });

  it(`over the ${AIS_UNATTENDED_READS_PER_DAY} reads a day without the PSU: the next is 429 ACCESS_EXCEEDED, with the PSU present it reads`, async () => {
    const session = await giveConsent(t, { customerNumber: OLA });
    for (let i = 0; i < AIS_UNATTENDED_READS_PER_DAY; i++)
      assert.equal((await readAis(t, '/v1/accounts', session, { present: false })).statusCode, 200);
    assertErrorBody(await readAis(t, '/v1/accounts', session, { present: false }), 429, 'ACCESS_EXCEEDED');
    assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200, 'a read with the PSU present');
  });
});
