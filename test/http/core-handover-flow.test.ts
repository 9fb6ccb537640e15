import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EmbeddedCore } from '../../src/core/embedded/embedded-core.js';
import type { EmbeddedPayments } from '../../src/core/embedded/embedded-payments.js';
import { reportToWire } from '../../src/core/http/core-wire.js';
import type { CoreReport } from '../../src/core/core-records.js';
import { OLA_ACCOUNTS, bulkBody, createBulk } from '../support/payment-requests.js';
import { giveConsent, readAis } from '../support/ais-requests.js';
import { PERIODIC_PATH, periodicBody, tomorrowInNorway } from '../support/periodic-requests.js';
import { RecordingCore, report } from '../support/recording-core.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { NDCT_PATH, createSingle, ndctBody } from '../support/single-payment-requests.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

const SIGNED = 'test-signature';

/**
 * Issue 38 in production, in process: a bank's own core (a recording one) gets each payment the PSU
 * authorises, and its status reports reach the TPP's status read.
 */
describe("production with a bank's own core", () => {
  let t: TestApp;
  let core: RecordingCore;
  before(async () => {
    t = await startTestApp({
      mode: 'production',
      core: (store) => (core = new RecordingCore(new EmbeddedCore(store, {} as EmbeddedPayments))),
      coreCallbackVerify: (header) => (header === SIGNED ? undefined : 'no valid Core-Signature'),
    });
  });
  after(() => t.close());

  async function approve(created: { body: string }): Promise<string> {
    const body = JSON.parse(created.body) as { paymentId: string; _links: { scaRedirect: { href: string } } };
    const psu = new ScriptedPsu(t.app);
    await psu.open(body._links.scaRedirect.href);
    await psu.logIn('13039319955', '123456');
    const approved = await psu.approve();
    assert.equal(approved.statusCode, 303, approved.body);
    await t.relay!.drain();
    return body.paymentId;
  }

  const callback = (reports: readonly CoreReport[], signature = SIGNED, raw?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/core/v1/status-reports',
      headers: { 'content-type': 'application/json', 'core-signature': signature },
      payload: raw ?? JSON.stringify({ reports: reports.map(reportToWire) }),
    });

  const status = async (path: string, id: string) =>
    JSON.parse((await t.signed({ method: 'GET', url: `${path}/${id}/status` })).body) as Record<string, unknown>;

  it('hands a payment over once the PSU authorised it, and the TPP reads the core accepting and executing it', async () => {
    const created = await createSingle(t, NDCT_PATH, ndctBody());
    assert.equal(created.statusCode, 201, created.body);
    const id = await approve(created);
    assert.equal(core.received.get(id), 1);
    assert.equal((await status(NDCT_PATH, id)).transactionStatus, 'ACSP');
    assert.equal((await callback([report(id, 'ACSC')])).statusCode, 204);
    assert.equal((await status(NDCT_PATH, id)).transactionStatus, 'ACSC');
    // A report sent again, or an older one, changes nothing.
    assert.equal((await callback([report(id, 'ACSP')])).statusCode, 204);
    assert.equal((await status(NDCT_PATH, id)).transactionStatus, 'ACSC');
  });

  it("takes a bulk's entries as the core executed them (PART)", async () => {
    const created = await createBulk(t, {
      body: { ...bulkBody(2), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } },
    });
    const id = await approve(created);
    assert.equal(core.orders.get(id)?.paymentService, 'bulk-payments');
    const part: CoreReport = {
      ...report(id, 'PART'),
      entries: [
        { seq: 0, status: 'ACSC', statusReason: undefined },
        { seq: 1, status: 'RJCT', statusReason: 'AC04 the creditor account is closed' },
      ],
    };
    assert.equal((await callback([part])).statusCode, 204);
    const read = await status('/v1/bulk-payments/norwegian-domestic-credit-transfers', id);
    assert.equal(read.transactionStatus, 'PART');
    assert.deepEqual(read.entries, [
      { transactionStatus: 'ACSC' },
      { transactionStatus: 'RJCT', statusReason: 'AC04 the creditor account is closed' },
    ]);
  });

  it("hands a standing order over once; the core owns its executions, which the TPP's reads show", async () => {
    const created = await createSingle(
      t,
      PERIODIC_PATH,
      periodicBody({ debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' }, startDate: tomorrowInNorway() }),
    );
    assert.equal(created.statusCode, 201, created.body);
    const id = await approve(created);
    assert.equal(core.orders.get(id)?.paymentService, 'periodic-payments');
    const running: CoreReport = {
      ...report(id, 'ACSP'),
      executions: [{ seq: 1, executionDate: '2026-12-21', status: 'ACSC', statusReason: undefined }],
      nextExecutionDate: '2027-01-20',
    };
    assert.equal((await callback([running])).statusCode, 204);
    const read = await status(PERIODIC_PATH, id);
    assert.equal(read.transactionStatus, 'ACSP');
    assert.equal(read.nextExecutionDate, '2027-01-20');
    assert.deepEqual(read.executions, [{ executionDate: '2026-12-21', transactionStatus: 'ACSC' }]);
  });

  it('refuses a callback not signed with the shared key (401), and one that is not the contract (400), applying nothing', async () => {
    const created = await createSingle(t, NDCT_PATH, ndctBody());
    const id = await approve(created);
    assertErrorBody(await callback([report(id, 'ACSC')], 'forged'), 401, 'SIGNATURE_INVALID');
    assertErrorBody(await callback([], SIGNED, '{"reports":[{"paymentId":'), 400, 'FORMAT_ERROR');
    assertErrorBody(
      await callback([], SIGNED, JSON.stringify({ reports: [{ paymentId: id, transactionStatus: 'DONE' }] })),
      400,
      'FORMAT_ERROR',
    );
    assertErrorBody(await callback([], SIGNED, JSON.stringify({ reports: [] })), 400, 'FORMAT_ERROR');
    const tooMany = JSON.stringify({ reports: Array.from({ length: 1001 }, () => reportToWire(report(id, 'ACSC'))) });
    assertErrorBody(await callback([], SIGNED, tooMany), 400, 'FORMAT_ERROR');
    assert.equal((await status(NDCT_PATH, id)).transactionStatus, 'ACSP');
  });

  it('reads accounts through the core; a read the core cannot answer is 503 and spends none of the four unattended reads', async () => {
    const session = await giveConsent(t);
    const accounts = (await readAis(t, '/v1/accounts', session)).json() as { accounts: { resourceId: string }[] };
    const account = accounts.accounts[0]!.resourceId;
    const url = `/v1/accounts/${account}/transactions?bookingStatus=booked&dateFrom=${new Date().toISOString().slice(0, 10)}`;
    core.failing.add('aisTransactions');
    try {
      for (let i = 0; i < 6; i++) {
        const refused = await readAis(t, url, session, { present: false });
        assertErrorBody(refused, 503, 'SERVICE_UNAVAILABLE');
        assert.equal(refused.headers['retry-after'], '5');
      }
    } finally {
      core.failing.delete('aisTransactions');
    }
    for (let i = 0; i < 4; i++) assert.equal((await readAis(t, url, session, { present: false })).statusCode, 200);
    assertErrorBody(await readAis(t, url, session, { present: false }), 429, 'ACCESS_EXCEEDED');
  });

  it('answers 503 with Retry-After, never 500, when the core does not answer', async () => {
    core.down = true;
    try {
      const response = await createSingle(t, NDCT_PATH, ndctBody());
      assertErrorBody(response, 503, 'SERVICE_UNAVAILABLE');
      assert.equal(response.headers['retry-after'], '5');
    } finally {
      core.down = false;
    }
  });
});
