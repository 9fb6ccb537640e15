import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { RetentionJob } from '../../src/services/retention-job.js';
import { readAis } from '../support/ais-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * Issue 31, point 4: account-information reads with an unknown PSU-ID are answered 401 with an
 * scaRedirect; each writes what that answer needs (the challenge's consent and its authorisation,
 * and the X-Request-ID's binding against replay) and nothing else, and the retention job deletes all
 * of it once the link and the replay window are over (docs/retention.md).
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`a failed read leaves nothing behind for good, on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ engine });
    });
    after(() => t.close());

    it('writes one challenge (consent and authorisation) and one binding per failed read, and a sweep after their time deletes them all', async () => {
      const reads = 30;
      for (let i = 0; i < reads; i++) {
        const answer = await readAis(t, '/v1/accounts', { psuId: randomUUID(), tppSessionId: randomUUID() });
        assert.equal(answer.statusCode, 401, answer.body);
      }
      const job = new RetentionJob(t.store, { mode: 'sandbox', idleDays: 30, bookkeepingYears: 5 });
      // Within their time nothing goes (the link's authorisation is kept a week after it expires).
      const early = await job.sweep(new Date());
      assert.equal(early['consents-never-given'], undefined, JSON.stringify(early));
      assert.equal(early.authorisations, undefined, JSON.stringify(early));
      const later = await job.sweep(new Date(Date.now() + 8 * 86_400_000));
      assert.equal(later['consents-never-given'], reads, JSON.stringify(later));
      assert.equal(later.authorisations, reads, JSON.stringify(later));
      assert.ok((later['request-bindings'] ?? 0) >= reads, JSON.stringify(later));
      assert.deepEqual(await job.sweep(new Date(Date.now() + 8 * 86_400_000)), {}, 'nothing is left to delete');
    });
  });
}
