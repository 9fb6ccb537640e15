import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { serverProcessSettings } from '../../scripts/process-settings.js';
import { createBulk } from '../support/payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * Issue 10, point 3: once the server listens, main.ts runs the large-body steps over made-up bodies
 * (src/http/warm-up.ts), so that the first large body after a start is not read by code the JIT has
 * not compiled yet. The warm-up must pass its own shape check, touch nothing, and leave every route
 * answering as before.
 */
describe('warm-up of the large-body steps', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('runs every list route\'s validation over made-up bodies without error, stores nothing, and leaves validation as it was', async () => {
    const customersBefore = (await t.signed({ method: 'GET', url: '/v1/sandbox/customers' })).json();
    await t.app.warmUp();
    assert.deepEqual((await t.signed({ method: 'GET', url: '/v1/sandbox/customers' })).json(), customersBefore, 'nothing was made');
    const refused = await createBulk(t, { body: { debtorAccount: { bban: '12345678903' }, payments: [{}] } });
    assert.equal(refused.statusCode, 400, 'a bad bulk is still refused after the warm-up');
    assert.ok((refused.json() as { tppMessages: unknown[] }).tppMessages.length > 0);
  });

  it('makes Node load its fetch implementation, which every answer is checked against, before the first answer', async () => {
    // In a process of its own: this one may have loaded it already.
    const warmUpModule = new URL('../../src/http/warm-up.js', import.meta.url).href;
    const script = `const { warmUp } = await import(${JSON.stringify(warmUpModule)});
      const loaded = () => process.moduleLoadList.some((name) => name.includes('undici'));
      const before = loaded();
      await warmUp([]);
      process.stdout.write(JSON.stringify({ before, after: loaded() }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    assert.deepEqual(JSON.parse(stdout), { before: false, after: true });
  });

  it('touches every page of the young generation, so that the first large bodies do not (run with npm start\'s Node flags)', async () => {
    // In a process of its own, with the flags that keep the young generation from shrinking below its start.
    const warmUpModule = new URL('../../src/http/warm-up.js', import.meta.url).href;
    const script = `const v8 = await import('node:v8');
      const { warmUp } = await import(${JSON.stringify(warmUpModule)});
      const young = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
      const before = young();
      await warmUp([]);
      const after = young();
      process.stdout.write(JSON.stringify({ before: before.physical_space_size / before.space_size, after: after.physical_space_size / after.space_size, size: after.space_size }));`;
    const { stdout } = await promisify(execFile)(process.execPath, [...serverProcessSettings().nodeFlags, '--input-type=module', '-e', script]);
    const { before, after, size } = JSON.parse(stdout) as { before: number; after: number; size: number };
    assert.ok(before < 0.5, `most of the young generation is untouched at start (${before})`);
    // Without the touch, the rest of the warm-up leaves about a quarter of it untouched.
    assert.ok(after > 0.9, `the young generation is touched after the warm-up (${after} of ${size} bytes)`);
  });
});
