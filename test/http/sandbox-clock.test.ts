import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { messagesByPath } from '../support/payment-requests.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/** POST /v1/sandbox/clock: every instant RFC 3339 allows is either taken or refused at $.to, never a server fault. */
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('POST /v1/sandbox/clock', () => {
  it('refuses a leap second (23:59:60), which RFC 3339 allows and the clock cannot hold, with 400 at $.to', async () => {
    for (const to of ['2026-12-31T23:59:60Z', '2026-12-31T23:59:60.5+00:00']) {
      const response = await t.signed({ method: 'POST', url: '/v1/sandbox/clock', body: { to } });
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      const text = messagesByPath(response).get('$.to')?.map((m) => m.text).join(' ') ?? '';
      assert.match(text, /leap second/, response.body);
    }
    const clock = (await t.signed({ method: 'GET', url: '/v1/sandbox/clock' })).json() as { offsetSeconds: number };
    assert.equal(clock.offsetSeconds, 0, 'the clock did not move');
  });
});
