import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { SANDBOX_BULK_BUSY_RETRY_SECONDS } from '../../src/domain/limits.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { createHeaders } from '../support/payment-requests.js';
import { NDCT_PATH, ndctBody } from '../support/single-payment-requests.js';
import { issueSandboxCertificate } from '../support/sandbox-certificates.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';
import { postedTransaction } from '../store/snapshot-contract.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

const SNAPSHOTS = '/v1/sandbox/snapshots';
/** The TPP whose bank is large: made as a TPP makes itself, a certificate over HTTP. */
const B_ID = 'PSDNO-FSA-555555555';
/** Transactions in B's bank: a save and a restore of it take some tens of slices. */
const B_TRANSACTIONS = 10_000;

const issue = (t: TestApp, id: string) => issueSandboxCertificate(t, id, { name: 'Bulk Test TPP' });

/**
 * Bulk operations on a sandbox bank (issue 40, section 1; docs/decisions/0314, docs/decisions/0315 and
 * docs/decisions/0316): one at a time per bank, a rate per TPP, and other TPPs answered while one runs.
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`bulk operations on a sandbox bank, on ${engine}`, () => {
    let t: TestApp;
    let b: CertificateAndKey;
    before(async () => {
      t = await startTestApp({ engine });
      b = await issue(t, B_ID);
      // B's first signed request makes its bank; then B fills it.
      assert.equal((await send('GET', SNAPSHOTS, undefined, b)).statusCode, 200);
      const account = (await t.store.findAccount(B_ID, { bban: '15061012343' }))!;
      for (let i = 0; i < B_TRANSACTIONS; i += 1000)
        await t.store.addSandboxTransactions(
          account.id,
          Array.from({ length: 1000 }, (_, j) => postedTransaction(i + j)),
          new Date(),
        );
    });
    after(() => t.close());

    const send = (method: string, url: string, body?: unknown, as?: CertificateAndKey) =>
      t.signed({ method, url, body, sign: { digest: method === 'POST' }, ...(as === undefined ? {} : { as }) });
    const ok = (response: LightMyRequestResponse, status = 200): Json => {
      assert.equal(response.statusCode, status, response.body);
      return (response.body === '' ? {} : response.json()) as Json;
    };
    const restore = (id: string, as?: CertificateAndKey) =>
      send('POST', `${SNAPSHOTS}/${encodeURIComponent(id)}/restore`, undefined, as);

    it("answers another TPP's /health and payment create, sent while a large bank is saved and restored, before the save or restore ends", async () => {
      for (const operation of ['save', 'restore'] as const) {
        let done = false;
        const snapshotId =
          operation === 'restore' ? (ok(await send('POST', SNAPSHOTS, {}, b), 201).snapshotId as string) : '';
        const running = (operation === 'save' ? send('POST', SNAPSHOTS, {}, b) : restore(snapshotId, b)).then((r) => {
          done = true;
          return r;
        });
        const health = await t.app.inject({ method: 'GET', url: '/health' });
        assert.equal(health.statusCode, 200);
        assert.equal(done, false, `/health waited for the ${operation}`);
        const created = await t.signed({ method: 'POST', url: NDCT_PATH, body: ndctBody(), headers: createHeaders() });
        assert.equal(created.statusCode, 201, created.body);
        assert.equal(done, false, `the other TPP's payment create waited for the ${operation}`);
        ok(await running, operation === 'save' ? 201 : 200);
      }
      for (const s of ok(await send('GET', SNAPSHOTS, undefined, b)).snapshots as Json[])
        ok(await send('DELETE', s._links.self.href, undefined, b), 204);
    });

    it("holds the bank's own requests while it is restored: they are answered after the restore, never half restored", async () => {
      const saved = ok(await send('POST', SNAPSHOTS, {}, b), 201);
      let done = false;
      const running = restore(saved.snapshotId, b).then((r) => {
        done = true;
        return r;
      });
      // Sent once the restore holds the bank's gate (or waits for it): no clock, only turns of the event loop.
      while (!t.banks.gate.busy(B_ID)) await new Promise((resolve) => setImmediate(resolve));
      const own = await send('GET', '/v1/sandbox/customers', undefined, b);
      assert.equal(own.statusCode, 200);
      assert.equal(done, true, "the bank's own read came after the restore");
      ok(await running);
      ok(await send('DELETE', `${SNAPSHOTS}/${saved.snapshotId}`, undefined, b), 204);
    });

    it('refuses a second bulk operation on a bank while one holds it, on this instance or another: 409 with Retry-After', async () => {
      const saved = ok(await send('POST', SNAPSHOTS, {}, b), 201);
      // Two at once from this instance: one runs, the other is refused.
      const both = await Promise.all([restore(saved.snapshotId, b), restore(saved.snapshotId, b)]);
      assert.deepEqual(both.map((r) => r.statusCode).sort(), [200, 409]);
      const refused = both.find((r) => r.statusCode === 409)!;
      assert.equal(refused.headers['retry-after'], String(SANDBOX_BULK_BUSY_RETRY_SECONDS));
      assert.match(assertErrorBody(refused, 409, 'CONFLICT').message ?? '', /one bulk operation at a time/);
      // Another instance's lease: every bulk operation of the bank is refused until it is freed.
      const now = new Date();
      const lease = { holder: 'snapshot save of another instance', now, until: new Date(now.getTime() + 60_000) };
      assert.equal(await t.store.takeBulkLease(B_ID, lease), undefined);
      for (const attempt of [
        () => send('POST', SNAPSHOTS, {}, b),
        () => restore(saved.snapshotId, b),
        () => send('POST', '/v1/sandbox/initialize', undefined, b),
      ]) {
        const response = await attempt();
        assertErrorBody(response, 409, 'CONFLICT');
        assert.equal(response.headers['retry-after'], String(SANDBOX_BULK_BUSY_RETRY_SECONDS));
      }
      // Other banks go on.
      ok(await send('POST', SNAPSHOTS, {}), 201);
      await t.store.releaseBulkLease(B_ID, lease.holder);
      ok(await restore(saved.snapshotId, b));
      for (const as of [b, undefined])
        for (const s of ok(await send('GET', SNAPSHOTS, undefined, as)).snapshots as Json[])
          ok(await send('DELETE', s._links.self.href, undefined, as), 204);
    });
  });

  describe(`the rate of bulk operations per TPP, on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ engine, tenancy: { bulkOperationsPerMinute: 3 } });
    });
    after(() => t.close());

    it('answers a TPP over its bulk operations a minute 429 with Retry-After, saves, restores and initializes together; another TPP goes on', async () => {
      const save = () => t.signed({ method: 'POST', url: SNAPSHOTS, body: {}, sign: { digest: true } });
      const saved = (await save()).json() as Json;
      assert.equal(
        (
          await t.signed({
            method: 'POST',
            url: `${SNAPSHOTS}/${saved.snapshotId}/restore`,
            sign: { digest: true },
          })
        ).statusCode,
        200,
      );
      assert.equal(
        (await t.signed({ method: 'POST', url: '/v1/sandbox/initialize', sign: { digest: true } })).statusCode,
        200,
      );
      const over = await save();
      const body = assertErrorBody(over, 429, 'ACCESS_EXCEEDED');
      assert.match(
        body.message ?? '',
        /at most 3 bulk operations .* a minute \(SANDBOX_BULK_OPERATIONS_PER_TPP_PER_MINUTE\)/,
      );
      const seconds = Number(over.headers['retry-after']);
      assert.ok(seconds >= 1 && seconds <= 60, `Retry-After ${over.headers['retry-after']}`);
      const other = await issue(t, 'PSDNO-FSA-666666666');
      const theirs = await t.signed({ method: 'POST', url: SNAPSHOTS, body: {}, sign: { digest: true }, as: other });
      assert.equal(theirs.statusCode, 201, theirs.body);
    });
  });
}
