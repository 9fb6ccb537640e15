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
import { giveConsent, readAis } from '../support/ais-requests.js';
import { BULK_PATH, OLA_ACCOUNTS, bulkBody, createBulk } from '../support/payment-requests.js';
import { PERIODIC_PATH, periodicBody } from '../support/periodic-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { NDCT_PATH, createSingle, ndctBody } from '../support/single-payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

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
      reportSettleMs: 0,
    });
    core = new HttpCore({ url: reference.url, key: KEY });
    // Production with a bank's own core: the server's own database holds none of the bank's data.
    t = await startTestApp({ mode: 'production', core: () => core, seed: false });
  });
  after(async () => {
    await t.close();
    await reference.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The PSU approves on the SCA pages; the relay hands the payment over. */
  async function approve(created: { statusCode: number; body: string }): Promise<string> {
    assert.equal(created.statusCode, 201, created.body);
    const body = JSON.parse(created.body) as { paymentId: string; _links: { scaRedirect: { href: string } } };
    const psu = new ScriptedPsu(t.app);
    await psu.open(body._links.scaRedirect.href);
    await psu.logIn('13039319955', '123456');
    const approved = await psu.approve();
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
    const session = await giveConsent(t);
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
