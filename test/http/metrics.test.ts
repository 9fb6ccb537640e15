import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ServerMetrics } from '../../src/metrics/server-metrics.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { CROSS_BORDER_PATH, createHeaders, crossBorderBody } from '../support/payment-requests.js';
import { sampleValue } from '../support/prometheus-text.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * GET /metrics in the Prometheus text format: what a bank's monitoring reads. Each test scrapes
 * before and after what it does and checks that the series it names moved by what it did.
 */
let t: TestApp;
before(async () => {
  t = await startTestApp({ metrics: new ServerMetrics() });
});
after(() => t.close());

/** A scrape of GET /metrics, and the value of a series in it. */
async function scrape(): Promise<{ text: string; value(name: string, labels?: Record<string, string>): number }> {
  const response = await t.app.inject({ method: 'GET', url: '/metrics' });
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return { text: response.body, value: (name, labels) => sampleValue(response.body, name, labels) };
}

describe('GET /metrics', () => {
  it("counts a signed create by route and status, its store calls, the PSU's approval, and the batch run that executes it", async () => {
    const before = await scrape();
    const headers = createHeaders({ 'X-PSU-IDENTITY': '13039319955' });
    delete headers['PSU-ID'];
    // From Ola's savings account (NOK 150 000 in the default data set), so that the run executes it.
    const body = {
      ...crossBorderBody(),
      instructedAmount: { amount: '100000.00', currency: 'NOK' },
      debtorAccount: { bban: '15061012351', currency: 'NOK' },
    };
    const created = await t.signed({ method: 'POST', url: CROSS_BORDER_PATH, body, headers });
    assert.equal(created.statusCode, 201, created.body);
    const psu = new ScriptedPsu(t.app);
    await psu.open(created.json()._links.scaRedirect.href);
    await psu.logIn('13039319955', '123456');
    await psu.approve();
    assert.equal(psu.redirect()?.searchParams.get('message'), null, psu.last?.body);
    const run = await t.signed({ method: 'POST', url: '/v1/sandbox/batch-runs', sign: { digest: true } });
    assert.equal(run.statusCode, 200, run.body);
    assert.equal(run.json().executed, 1, run.body);
    const afterward = await scrape();

    const moved = (name: string, labels?: Record<string, string>) =>
      afterward.value(name, labels) - before.value(name, labels);
    assert.equal(
      moved('psd2_http_request_duration_seconds_count', { method: 'POST', route: CROSS_BORDER_PATH, status: '201' }),
      1,
    );
    assert.equal(
      moved('psd2_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/v1/sandbox/batch-runs',
        status: '200',
      }),
      1,
    );
    assert.ok(
      moved('psd2_http_request_duration_seconds_sum', { method: 'POST', route: CROSS_BORDER_PATH, status: '201' }) > 0,
    );
    assert.equal(moved('psd2_store_call_duration_seconds_count', { method: 'createPayment', outcome: 'ok' }), 1);
    assert.ok(moved('psd2_store_call_duration_seconds_count', { method: 'executePayments', outcome: 'ok' }) >= 1);
    assert.equal(moved('psd2_sca_outcomes_total', { outcome: 'approved' }), 1);
    assert.equal(moved('psd2_batch_run_duration_seconds_count'), 1);
    assert.equal(moved('psd2_batch_payments_total', { outcome: 'executed' }), 1);
    assert.equal(moved('psd2_batch_payments_total', { outcome: 'rejected' }), 0);
  });

  it('labels requests by route pattern, never by the path asked for, and puts unmatched paths in one series', async () => {
    await t.signed({ method: 'GET', url: `${CROSS_BORDER_PATH}/enc!!no-such-payment/status` });
    await t.app.inject({ method: 'GET', url: '/no/such/path/1' });
    await t.app.inject({ method: 'GET', url: '/no/such/path/2' });
    const { text, value } = await scrape();
    assert.equal(
      value('psd2_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/v1/payments/:product/:paymentId/status',
      }),
      1,
    );
    assert.equal(value('psd2_http_request_duration_seconds_count', { route: '(none)', status: '404' }), 2);
    assert.doesNotMatch(text, /no-such-payment|\/no\/such\/path/);
  });

  it('has the process metrics: CPU, memory, event-loop delay, garbage collection', async () => {
    const { value, text } = await scrape();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      assert.match(text, new RegExp(`^${name} `, 'm'), name);
    }
    assert.ok(value('process_resident_memory_bytes') > 0);
  });
});

describe('GET /health/live and /health/ready', () => {
  it('live: the process answers; ready: the database answers and has every migration', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    assert.equal(live.statusCode, 200);
    assert.deepEqual(live.json(), { status: 'live' });
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(ready.statusCode, 200, ready.body);
    const body = ready.json() as { status: string; migrations: { known: number; applied: number } };
    assert.equal(body.status, 'ready');
    assert.ok(body.migrations.known > 0);
    assert.equal(body.migrations.applied, body.migrations.known);
  });

  it('ready is 503 on a database without the migrations, and on one that does not answer; live stays 200', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'psd2-ready-'));
    const store = SqliteStore.open(join(dir, 'empty.db'));
    const empty = await startTestApp({ store, seed: false });
    try {
      const unmigrated = await empty.app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(unmigrated.statusCode, 503);
      const body = unmigrated.json() as {
        status: string;
        reason: string;
        migrations: { known: number; applied: number };
      };
      assert.equal(body.status, 'not-ready');
      assert.equal(body.migrations.applied, 0);
      assert.match(body.reason, /the database lacks migration 001-payments, /);
      await store.close();
      const closed = await empty.app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(closed.statusCode, 503);
      assert.match((closed.json() as { reason: string }).reason, /^the database does not answer: /);
      assert.equal((await empty.app.inject({ method: 'GET', url: '/health/live' })).statusCode, 200);
    } finally {
      await empty.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
