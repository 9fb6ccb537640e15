import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type NotifyingTestApp,
  approvedSubscribedPayment,
  startNotifyingTestApp,
} from '../support/notifying-test-app.js';

/**
 * Issue 43, 3: a clock move and a batch run send what they change at once. The app's store nudges
 * the relay after each status write, as the server's does; its relay never sweeps, so a notification
 * that comes was sent by the change itself, not found later.
 */
let n: NotifyingTestApp;

before(async () => {
  n = await startNotifyingTestApp();
});
after(() => n.close());

/** The transaction statuses of the next `count` notifications, as they come. */
async function nextStatuses(count: number): Promise<string[]> {
  const statuses: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = JSON.parse((await n.next()).body) as { transactionStatus?: string; scaStatus?: string };
    statuses.push(body.transactionStatus ?? `sca:${body.scaStatus}`);
  }
  return statuses;
}

describe('notifications of a clock move', () => {
  it(
    'sends what the clock move’s batch run makes of a payment (a cross-border one: ACSP) at once, without a sweep',
    { timeout: 30_000 },
    async () => {
      const approval = nextStatuses(3);
      const { paymentId } = await approvedSubscribedPayment(n, '/hooks/clock');
      assert.deepEqual((await approval).sort(), ['ACTC', 'sca:finalised', 'sca:psuAuthenticated'].sort());
      const executed = n.next();
      const moved = await n.t.signed({
        method: 'POST',
        url: '/v1/sandbox/clock',
        body: { advanceSeconds: 2 * 86_400 },
      });
      assert.equal(moved.statusCode, 200, moved.body);
      const body = JSON.parse((await executed).body) as {
        transactionStatus: string;
        resource: { id: string };
        last: boolean;
      };
      assert.deepEqual([body.resource.id, body.transactionStatus, body.last], [paymentId, 'ACSP', false]);
    },
  );
});
