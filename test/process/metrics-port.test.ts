import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { signRequest } from '../../src/toolkit/request-signer.js';
import { CROSS_BORDER_PATH, signedCrossBorderCreate } from '../support/payment-requests.js';
import { sampleValue } from '../support/prometheus-text.js';
import { type ServerData, freshServerData, startServerProcess } from '../support/server-process.js';
import { tppFixtures } from '../support/tpp-fixtures.js';

/** METRICS_PORT as a bank sets it: /metrics on a port of its own that TPPs do not reach, or off. */
const data: ServerData[] = [];
after(() => Promise.all(data.map((d) => d.remove())));
async function serverData(): Promise<ServerData> {
  const fresh = await freshServerData('sqlite');
  data.push(fresh);
  return fresh;
}

describe('the metrics of the server process', () => {
  it('on a port of its own: counts a signed create and a batch run there, and the API port has no /metrics', async () => {
    const server = await startServerProcess({ ...(await serverData()).env, METRICS_PORT: '0' });
    try {
      const ready = server.lines.find((l) => l.msg === 'ready')!;
      const metricsUrl = String(ready.metrics);
      assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      assert.notEqual(new URL(metricsUrl).port, new URL(server.url).port);
      const onApi = await fetch(`${server.url}/metrics`);
      assert.equal(onApi.status, 404);
      assert.equal(((await onApi.json()) as { code: string }).code, 'NOT_FOUND');

      const scrape = async () => {
        const response = await fetch(metricsUrl);
        assert.equal(response.status, 200);
        return response.text();
      };
      const before = await scrape();
      const fixtures = await tppFixtures();
      const create = signedCrossBorderCreate(fixtures.tpp);
      assert.equal(
        (
          await fetch(`${server.url}${CROSS_BORDER_PATH}`, {
            method: 'POST',
            headers: create.headers,
            body: create.body,
          })
        ).status,
        201,
      );
      const runHeaders = signRequest({
        method: 'POST',
        url: '/v1/sandbox/batch-runs',
        credentials: fixtures.tpp,
        digest: true,
      });
      assert.equal(
        (await fetch(`${server.url}/v1/sandbox/batch-runs`, { method: 'POST', headers: runHeaders })).status,
        200,
      );
      const afterward = await scrape();

      const moved = (name: string, labels?: Record<string, string>) =>
        sampleValue(afterward, name, labels) - sampleValue(before, name, labels);
      assert.equal(
        moved('psd2_http_request_duration_seconds_count', { method: 'POST', route: CROSS_BORDER_PATH, status: '201' }),
        1,
      );
      assert.equal(moved('psd2_store_call_duration_seconds_count', { method: 'createPayment', outcome: 'ok' }), 1);
      assert.equal(moved('psd2_batch_run_duration_seconds_count'), 1);
      assert.ok(sampleValue(afterward, 'process_cpu_seconds_total') > 0);
      assert.equal((await fetch(metricsUrl.replace('/metrics', '/other'))).status, 404);
    } finally {
      server.child.kill('SIGTERM');
      assert.equal((await server.exited).code, 0);
    }
  });

  it('on the API port by default, and nowhere with METRICS_PORT=off', async () => {
    const { env } = await serverData();
    for (const [metricsPort, status] of [
      ['', 200],
      ['off', 404],
    ] as const) {
      const server = await startServerProcess({ ...env, METRICS_PORT: metricsPort });
      try {
        assert.equal((await fetch(`${server.url}/metrics`)).status, status, `METRICS_PORT='${metricsPort}'`);
        assert.equal(server.lines.find((l) => l.msg === 'ready')!.metrics, metricsPort === 'off' ? 'off' : '/metrics');
        assert.equal((await fetch(`${server.url}/health/ready`)).status, 200);
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }
  });
});
