import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * Issue 40, 4: the headers of a TPP's signed GET /v1/sandbox/customers, sent again as
 * POST /v1/sandbox/console-links, got a console link (an 8-hour session in the TPP's bank), without
 * Date too; the same headers initialized the bank and deleted a snapshot. Operations that open or
 * change a bank as a whole now need Date within the skew, and bind their X-Request-ID strictly.
 */
describe("the sandbox's operations on a bank as a whole cannot be replayed", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('refuses the headers of a captured read sent again as a console link, an initialize or a snapshot deletion (409)', async () => {
    const requestId = randomUUID();
    const read = await t.signed({ method: 'GET', url: '/v1/sandbox/customers', sign: { requestId } });
    assert.equal(read.statusCode, 200);
    const saved = await t.signed({ method: 'POST', url: '/v1/sandbox/snapshots', body: {} });
    assert.equal(saved.statusCode, 201, saved.body);
    const snapshot = (saved.json() as { snapshotId: string }).snapshotId;
    for (const [method, url] of [
      ['POST', '/v1/sandbox/console-links'],
      ['POST', '/v1/sandbox/initialize'],
      ['DELETE', `/v1/sandbox/snapshots/${snapshot}`],
    ] as const) {
      const replayed = await t.signed({ method, url, sign: { requestId } });
      const refused = assertErrorBody(replayed, 409, 'CONFLICT');
      assert.equal(refused.tppMessages?.[0]?.path, 'header:X-Request-ID', `${method} ${url}`);
    }
    assert.equal(
      (await t.signed({ method: 'GET', url: `/v1/sandbox/snapshots/${snapshot}` })).statusCode,
      200,
      'the snapshot stays',
    );
  });

  it('needs Date on them: without it 400 HTTP_HEADER_REQUIRED at header:Date, and nothing is done', async () => {
    for (const [method, url] of [
      ['POST', '/v1/sandbox/console-links'],
      ['POST', '/v1/sandbox/initialize'],
      ['POST', '/v1/sandbox/keys'],
    ] as const) {
      const refused = assertErrorBody(
        await t.signed({
          method,
          url,
          ...(method === 'POST' && url.endsWith('keys') ? { body: { publicKey: 'x' } } : {}),
          sign: { date: false },
        }),
        400,
        'HTTP_HEADER_REQUIRED',
      );
      assert.equal(refused.tppMessages?.[0]?.path, 'header:Date', `${method} ${url}`);
    }
  });

  it("keeps the test-data operations' leniency: one literal X-Request-ID on customers, accounts and their reads, as the platform's setup scripts send", async () => {
    const requestId = 'literal-id-of-a-setup-script';
    assert.equal(
      (await t.signed({ method: 'GET', url: '/v1/sandbox/customers', sign: { requestId } })).statusCode,
      200,
    );
    const customer = await t.signed({
      method: 'POST',
      url: '/v1/sandbox/customers',
      body: { customerNumber: '01017412345', name: 'Script Person', type: 'private' },
      sign: { requestId, date: false },
    });
    assert.ok([201, 400].includes(customer.statusCode), customer.body);
    assert.notEqual(customer.statusCode, 409, 'not refused as a reused X-Request-ID');
  });
});
