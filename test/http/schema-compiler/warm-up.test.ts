import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createBulk } from '../../support/payment-requests.js';
import { type TestApp, startTestApp } from '../../support/test-app.js';

/**
 * Issue 10, point 3: once the server listens, main.ts runs the large-body steps over made-up bodies
 * (src/http/schema-compiler/warm-up.ts), so that the first large body after a start is not read by code the JIT has
 * not compiled yet. The warm-up must pass its own shape check, touch nothing, and leave every route
 * answering as before.
 */
describe('warm-up of the large-body steps', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("runs every list route's validation over made-up bodies without error, stores nothing, and leaves validation as it was", async () => {
    const customersBefore = (await t.signed({ method: 'GET', url: '/v1/sandbox/customers' })).json();
    await t.app.warmUp();
    assert.deepEqual(
      (await t.signed({ method: 'GET', url: '/v1/sandbox/customers' })).json(),
      customersBefore,
      'nothing was made',
    );
    const refused = await createBulk(t, { body: { debtorAccount: { bban: '12345678903' }, payments: [{}] } });
    assert.equal(refused.statusCode, 400, 'a bad bulk is still refused after the warm-up');
    assert.ok((refused.json() as { tppMessages: unknown[] }).tppMessages.length > 0);
  });

  it('makes Node load its fetch implementation, which every answer is checked against, before the first answer', async () => {
    // In a process of its own: this one may have loaded it already.
    const warmUpModule = new URL('../../../src/http/schema-compiler/warm-up.js', import.meta.url).href;
    const script = `const { warmUp } = await import(${JSON.stringify(warmUpModule)});
      const loaded = () => process.moduleLoadList.some((name) => name.includes('undici'));
      const before = loaded();
      await warmUp([]);
      process.stdout.write(JSON.stringify({ before, after: loaded() }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    assert.deepEqual(JSON.parse(stdout), { before: false, after: true });
  });
});
