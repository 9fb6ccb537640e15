import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseCoreKey, signCoreRequest } from '../../src/core/http/core-signature.js';
import { HttpCore } from '../../src/core/http/http-core.js';
import { NO_FAULTS } from '../../src/reference-core/faults.js';
import { type ReferenceCore, startReferenceCore } from '../../src/reference-core/reference-core.js';
import { CoreReportPoller } from '../../src/services/core-handover/report-poller.js';
import { askConsent, readAis } from '../support/ais-requests.js';
import { IdpBrowser } from '../support/idp-browser.js';
import { ACR_HIGH, type TestIdp, startTestIdp } from '../support/test-idp.js';
import { PROVIDER_CALLBACK_PATH } from '../../src/http/routes/sca-page-routes.js';
import { BULK_PATH, OLA_ACCOUNTS, bulkBody, createBulk } from '../support/payment-requests.js';
import { PERIODIC_PATH, periodicBody } from '../support/periodic-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { NDCT_PATH, createSingle, ndctBody } from '../support/single-payment-requests.js';
import { PUBLIC_URL, type TestApp, startTestApp } from '../support/test-app.js';

const KEY = parseCoreKey('3c'.repeat(32), 'test');
/** The PSU named by national identity number: the core's customer ids are its own, not the server's seed's. */
const AS_OLA = { headers: { 'X-PSU-IDENTITY': '13039319955' }, without: ['PSU-ID'] };

interface Stats {
  handOvers: number;
  distinctPayments: number;
  executions: Record<string, number>;
  executedTwice: string[];
}

/**
 * Issue 38: a production server whose CORE_URL is the reference core, over HTTP: payments go from
 * create through SCA to the core, executed there once, and the TPP reads the core's statuses; account
 * information shows the core's data.
 */
describe('a production server with the reference core as its core', () => {
  let dir: string;
  let reference: ReferenceCore;
  let t: TestApp;
  let core: HttpCore;
  let idp: TestIdp;

  async function admin(method: string, path: string): Promise<unknown> {
    const response = await fetch(`${reference.url}${path}`, {
      method,
      headers: { 'core-signature': signCoreRequest(KEY, method, path, undefined, new Date()) },
    });
    assert.equal(response.status, 200);
    return response.json();
  }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-with-reference-core-'));
    reference = await startReferenceCore({
      host: '127.0.0.1',
      port: 0,
      database: { kind: 'sqlite', path: join(dir, 'core.db') },
      key: KEY,
      callbackUrl: undefined,
      faults: NO_FAULTS,
      // The feed gives out a change at once: the test polls right after the batch.
    });
    core = new HttpCore({ url: reference.url, key: KEY });
    // Production with a bank's own core: the server's own database holds none of the bank's data, and
    // the PSU logs in at the bank's identity provider (issue 39's test provider), as nothing else opens production's SCA.
    idp = await startTestIdp({ redirectUri: `${PUBLIC_URL}${PROVIDER_CALLBACK_PATH}` });
    t = await startTestApp({
      mode: 'production',
      core: () => core,
      seed: false,
      identityProvider: {
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientAuth: { kind: 'client-secret', secret: idp.clientSecret },
        scope: 'openid',
        acrValues: [ACR_HIGH],
        identityClaim: 'nin',
        nameClaim: 'name',
      },
    });
  });
  after(async () => {
    await t.close();
    await idp.close();
    await reference.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The PSU approves on the SCA pages; the relay hands the payment over. */
  async function approve(created: { statusCode: number; body: string }): Promise<string> {
    assert.equal(created.statusCode, 201, created.body);
    const body = JSON.parse(created.body) as { paymentId: string; _links: { scaRedirect: { href: string } } };
    const browser = new IdpBrowser(idp, new ScriptedPsu(t.app));
    await browser.signIn(body._links.scaRedirect.href, { account: 'ola' });
    const approved = await browser.psu.approve();
    assert.equal(approved.statusCode, 303, approved.body);
    await t.relay!.drain();
    return body.paymentId;
  }

  /** The server's poll of the core's status reports, once. */
  const poll = () => new CoreReportPoller(t.store, core, 'test', t.clock, 60_000, () => undefined).poll();

  const status = async (path: string, id: string) =>
    JSON.parse((await t.signed({ method: 'GET', url: `${path}/${id}/status` })).body) as Record<string, unknown>;

  it('takes an NDCT and a bulk from create through SCA to executed at the core, each once', async () => {
    const single = await approve(await createSingle(t, NDCT_PATH, ndctBody(), AS_OLA));
    const bulk = await approve(
      await createBulk(t, {
        ...AS_OLA,
        body: { ...bulkBody(2), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } },
      }),
    );
    assert.equal((await status(NDCT_PATH, single)).transactionStatus, 'ACSP');
    await admin('POST', '/admin/run-batch');
    await poll();
    assert.equal((await status(NDCT_PATH, single)).transactionStatus, 'ACSC');
    const bulkRead = await status(BULK_PATH, bulk);
    assert.equal(bulkRead.transactionStatus, 'ACSC');
    assert.equal((bulkRead.entries as unknown[]).length, 2);
    const stats = (await admin('GET', '/admin/stats')) as Stats;
    assert.equal(stats.executions[single], 1);
    assert.equal(stats.executions[bulk], 1);
    assert.deepEqual(stats.executedTwice, []);
  });

  it('hands a standing order over once; the TPP reads its next execution as the core keeps it', async () => {
    const start = new Date();
    start.setUTCMonth(start.getUTCMonth() + 2, 1);
    const id = await approve(
      await createSingle(
        t,
        PERIODIC_PATH,
        periodicBody({
          debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' },
          startDate: start.toISOString().slice(0, 10),
        }),
        AS_OLA,
      ),
    );
    await poll();
    const read = await status(PERIODIC_PATH, id);
    assert.equal(read.transactionStatus, 'PDNG');
    assert.equal((await core.paymentReport('', id))?.nextExecutionDate, read.nextExecutionDate);
  });

  it('shows the core’s accounts in account information', async () => {
    const asked = await askConsent(t, {
      headers: { 'TPP-Session-ID': 'session-core', 'PSU-IP-Address': '192.0.2.10' },
    });
    assert.equal(asked.statusCode, 201, asked.body);
    const browser = new IdpBrowser(idp, new ScriptedPsu(t.app));
    await browser.signIn((asked.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href);
    await browser.psu.share(browser.psu.offered().all);
    const back = browser.psu.redirect()!;
    const session = { psuId: back.searchParams.get('psu-id')!, tppSessionId: back.searchParams.get('tpp-session-id')! };
    const accounts = (await readAis(t, '/v1/accounts', session)).json() as {
      accounts: { bban?: string; resourceId: string }[];
    };
    const coreAccount = await core.findAccount('', { bban: OLA_ACCOUNTS[0] });
    assert.ok(
      accounts.accounts.some((a) => a.resourceId === coreAccount?.id),
      JSON.stringify(accounts),
    );
  });
});
