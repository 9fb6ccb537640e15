import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ServerMetrics } from '../../src/metrics/server-metrics.js';
import { OTHER_PSU_ID, createHeaders } from '../support/payment-requests.js';
import { sampleValue } from '../support/prometheus-text.js';
import { ELSEWHERE, NDCT, arm, bankNow, domesticBody, moveClockTo } from '../support/scenario-steps.js';
import { LogLines } from '../support/log-lines.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

const HOUR = 3_600_000;

/**
 * The bank's own faults a TPP's test arms (docs/scenarios.md): each driven over HTTP as a TPP's
 * client meets it. They answer the TPP's signed requests to the bank's API only: never another TPP's,
 * never the sandbox's own operations (so a test can always move the clock and disarm). Their answers
 * are counted as scenarios, not as faults of the server.
 */
const log = new LogLines();
const lines = log.lines;

let t: TestApp;
before(async () => {
  t = await startTestApp({ metrics: new ServerMetrics(), logger: { level: 'info', stream: log.stream } });
});
after(() => t.close());

/** Creates an NDCT from Ola's current account (not signed by the PSU: the answer is what matters). */
function createPayment(requestId = randomUUID(), as = t.fixtures.tpp) {
  return t.signed({
    method: 'POST',
    url: NDCT,
    body: domesticBody('15061012343', ELSEWHERE, '1.00'),
    headers: {
      ...createHeaders(as === t.fixtures.otherTpp ? { 'PSU-ID': OTHER_PSU_ID } : {}),
      'X-Request-ID': requestId,
    },
    as,
  });
}

const ola = { 'PSU-ID': '3fa85f64-5717-4562-b3fc-2c963f66afa6' };
const clock = () => t.signed({ method: 'GET', url: '/v1/sandbox/clock' });

describe('bank scenarios', () => {
  it('bank-throttled: 429 ACCESS_EXCEEDED with Retry-After, `times` requests; a retry with the same X-Request-ID then succeeds', async () => {
    await arm(t, {
      kind: 'bank-throttled',
      operationId: 'initiatePaymentNorwegianDomesticCreditTransfers',
      retryAfterSeconds: 7,
      times: 2,
    });
    const requestId = randomUUID();
    for (let i = 0; i < 2; i++) {
      const throttled = await createPayment(requestId);
      assert.equal(throttled.statusCode, 429, throttled.body);
      assert.equal(throttled.headers['retry-after'], '7');
      assert.equal(throttled.json().code, 'ACCESS_EXCEEDED');
      assert.equal(throttled.json().tppMessages[0].code, 'ACCESS_EXCEEDED');
      // Another TPP and the sandbox's own operations are never throttled.
      assert.equal((await createPayment(randomUUID(), t.fixtures.otherTpp)).statusCode, 201);
      assert.equal((await clock()).statusCode, 200);
    }
    const retried = await createPayment(requestId);
    assert.equal(retried.statusCode, 201, retried.body);
  });

  it("bank-maintenance: 503 SERVICE_UNAVAILABLE with Retry-After to its end, for a window of the bank's clock", async () => {
    const now = await bankNow(t);
    const from = new Date(now.getTime() + HOUR);
    const until = new Date(now.getTime() + 3 * HOUR);
    const armed = await arm(t, { kind: 'bank-maintenance', from: from.toISOString(), until: until.toISOString() });
    assert.equal(armed.timesLeft, undefined);
    assert.equal((await createPayment()).statusCode, 201, 'before the window');
    await moveClockTo(t, new Date(from.getTime() + HOUR));
    const down = await createPayment();
    assert.equal(down.statusCode, 503, down.body);
    assert.equal(down.json().code, 'SERVICE_UNAVAILABLE');
    const retryAfter = Number(down.headers['retry-after']);
    assert.ok(retryAfter > 3590 && retryAfter <= 3600, `Retry-After ${retryAfter}: about the hour left`);
    const read = await t.signed({ method: 'GET', url: '/v1/accounts', headers: ola });
    assert.equal(read.statusCode, 503, 'every operation of the bank without an operationId');
    assert.equal((await clock()).statusCode, 200, "the sandbox's own operations answer");
    await moveClockTo(t, until);
    assert.equal((await createPayment()).statusCode, 201, 'after the window');
    assert.deepEqual((await t.signed({ method: 'GET', url: '/v1/sandbox/scenarios' })).json(), [], 'ended: gone');
  });

  it('bank-slow: the answer after the delay, on a timer: the server answers other requests meanwhile', async () => {
    await arm(t, { kind: 'bank-slow', operationId: 'initiatePaymentNorwegianDomesticCreditTransfers', delayMs: 1000 });
    const order: string[] = [];
    const started = performance.now();
    const slow = createPayment().then((answer) => {
      order.push('slow');
      return { answer, ms: performance.now() - started };
    });
    const other = await clock();
    order.push('other');
    const { answer, ms } = await slow;
    assert.equal(other.statusCode, 200);
    assert.equal(answer.statusCode, 201, answer.body);
    assert.deepEqual(order, ['other', 'slow']);
    assert.ok(ms >= 998, `answered after ${ms} ms`);
    assert.deepEqual(
      (await t.signed({ method: 'GET', url: '/v1/sandbox/scenarios' })).json(),
      [],
      'its one time is spent',
    );
  });

  it('bank-error: 500 SYSTEM_ERROR in the error body on the operation named, counted and logged as a scenario, not a fault', async () => {
    const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const before = await scrape();
    await arm(t, { kind: 'bank-error', operationId: 'getAccountList' });
    const failed = await t.signed({ method: 'GET', url: '/v1/accounts', headers: ola });
    assert.equal(failed.statusCode, 500, failed.body);
    assert.deepEqual(Object.keys(failed.json()).sort(), ['code', 'id', 'status', 'system']);
    assert.equal(failed.json().code, 'SYSTEM_ERROR');
    assert.equal((await createPayment()).statusCode, 201, 'another operation');
    assert.notEqual((await t.signed({ method: 'GET', url: '/v1/accounts', headers: ola })).statusCode, 500, 'spent');

    const after = await scrape();
    assert.equal(
      sampleValue(after, 'psd2_sandbox_scenario_answers_total', { kind: 'bank-error', status: '500' }) -
        sampleValue(before, 'psd2_sandbox_scenario_answers_total', { kind: 'bank-error', status: '500' }),
      1,
    );
    assert.equal(
      sampleValue(after, 'psd2_http_request_duration_seconds_count', { status: '500' }),
      0,
      'no 5xx counted',
    );
    const line = lines.find((l) => l.msg === 'request' && l.status === 500);
    assert.deepEqual([line?.scenario, line?.level], ['bank-error', 30]);
    assert.deepEqual(
      lines.filter((l) => (l.level as number) >= 50),
      [],
      'nothing at error level',
    );
  });
});

describe('bank scenarios in production', () => {
  it('are never applied, even armed in its store: the request is answered as ever', async () => {
    const production = await startTestApp({ mode: 'production' });
    try {
      await production.store.armSandboxScenario(
        production.banks.of('any'),
        {
          id: 'x',
          rule: { kind: 'bank-error', operationId: 'getAccountList' },
          timesLeft: undefined,
          createdAt: new Date(),
        },
        50,
        new Date(),
      );
      const read = await production.signed({ method: 'GET', url: '/v1/accounts', headers: ola });
      assert.notEqual(read.statusCode, 500, read.body);
    } finally {
      await production.close();
    }
  });
});
