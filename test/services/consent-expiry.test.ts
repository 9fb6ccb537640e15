import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../src/domain/clock.js';
import { ConsentExpiry } from '../../src/services/consent-expiry.js';
import { completeConsent, giveConsent, readAis } from '../support/ais-requests.js';
import { type NotifyingTestApp, startNotifyingTestApp } from '../support/notifying-test-app.js';
import type { LightMyRequestResponse } from 'fastify';

/**
 * Issue 43, 2: "a consent withdrawn or expired" is told to the TPP. A consent whose SCA is 180 days
 * old by its bank's clock is written down as expired (services/consent-expiry.ts): at once when a
 * clock move makes it so, and by each instance's look every minute when time passes. A read is
 * refused as before, CONSENT_EXPIRED, and the PSU renews it.
 */
const DAY_MS = 86_400_000;

class ManualClock implements Clock {
  current = new Date();
  now(): Date {
    return new Date(this.current);
  }
}

interface ConsentNotice {
  resource: { type: string; id: string };
  consentStatus: string;
  last: boolean;
}

/** A read's 401 CONSENT_EXPIRED, with the scaRedirect that renews the consent. */
function expiredRead(response: LightMyRequestResponse) {
  assert.equal(response.statusCode, 401, response.body);
  const body = response.json() as {
    tppMessages: { code: string; text: string }[];
    _links: { scaRedirect: { href: string } };
  };
  assert.equal(body.tppMessages[0]!.code, 'CONSENT_EXPIRED');
  return body;
}

describe('consent expiry', () => {
  const clock = new ManualClock();
  let n: NotifyingTestApp;

  before(async () => {
    n = await startNotifyingTestApp({ clock });
  });
  after(() => n.close());

  /** A consent of Ola's in a new session, subscribed to its final status only. */
  async function subscribedConsent(path: string) {
    return giveConsent(n.t, {
      headers: { 'TPP-Notification-URI': `${n.base}${path}`, 'TPP-Notification-Content-Preferred': 'status=LAST' },
    });
  }

  it(
    'tells the TPP at once when a clock move makes the SCA older than 180 days, as the last notification; a read is then 401 CONSENT_EXPIRED and a DELETE 204',
    { timeout: 30_000 },
    async () => {
      const session = await subscribedConsent('/hooks/moved');
      const told = n.next();
      const moved = await n.t.signed({
        method: 'POST',
        url: '/v1/sandbox/clock',
        body: { advanceSeconds: 181 * 86_400 },
      });
      assert.equal(moved.statusCode, 200, moved.body);
      const notice = await told;
      assert.equal(notice.path, '/hooks/moved');
      const body = JSON.parse(notice.body) as ConsentNotice;
      assert.deepEqual([body.resource.type, body.consentStatus, body.last], ['consent', 'expired', true]);

      const read = expiredRead(await readAis(n.t, '/v1/accounts', session));
      assert.match(read.tppMessages[0]!.text, /older than 180 days/);
      const deleted = await n.t.signed({ method: 'DELETE', url: `/v1/consents/${session.tppSessionId}` });
      assert.equal(deleted.statusCode, 204, 'an expired consent has ended: its DELETE is answered as one sent again');
      assert.deepEqual(
        n.received.filter((r) => r.path === '/hooks/moved').length,
        1,
        'nothing after the last: the DELETE changed nothing',
      );
    },
  );

  it('expires, as the wall clock passes 180 days, each valid consent once, by its own bank’s clock', async () => {
    const expiry = new ConsentExpiry(n.t.store, n.t.banks);
    const session = await subscribedConsent('/hooks/passing');
    // The moves of the test before put this bank's clock 181 days ahead: the consent was given then.
    clock.current = new Date(clock.current.getTime() + 180 * DAY_MS);
    assert.equal(await expiry.expireDue(), 0, 'at 180 days the SCA still holds');
    assert.equal((await readAis(n.t, '/v1/accounts', session)).statusCode, 200);
    clock.current = new Date(clock.current.getTime() + DAY_MS);
    const told = n.next();
    assert.equal(await expiry.expireDue(), 1);
    const body = JSON.parse((await told).body) as ConsentNotice;
    assert.deepEqual([body.consentStatus, body.last], ['expired', true]);
    assert.equal(await expiry.expireDue(), 0, 'once');
    const refused = expiredRead(await readAis(n.t, '/v1/accounts', session));
    // The PSU renews it in the same session: the renewal is valid, and reads.
    await completeConsent(n.t, refused._links.scaRedirect.href, '13039319955');
    assert.equal((await readAis(n.t, '/v1/accounts', session)).statusCode, 200);
  });
});
