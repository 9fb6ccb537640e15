import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../src/domain/clock.js';
import { CONSOLE_LINK_TTL_MS } from '../../src/domain/limits.js';
import { consoleLink, olaPayment } from '../support/console-requests.js';
import { ConsoleVisitor } from '../support/console-visitor.js';
import { OLA_ACCOUNTS } from '../support/payment-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * The console written for people (issue 41 §5): a used link says it was used, however late it is
 * opened again; a payment's bookings carry the business time of the batch slot that made them;
 * reason codes come with their meaning; armed scenarios read as labelled fields in Norwegian time.
 */

class ManualClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const clock = new ManualClock();
let t: TestApp;

before(async () => {
  t = await startTestApp({ clock });
});
after(() => t.close());

async function signedIn(language = 'en'): Promise<ConsoleVisitor> {
  const visitor = new ConsoleVisitor(t.app, language);
  const entered = await visitor.open((await consoleLink(t)).href);
  assert.equal(entered.statusCode, 303, entered.body);
  assert.equal((await visitor.open('/console')).statusCode, 200);
  return visitor;
}

/** A payment of Ola's, approved by Ola: due at the next batch slot. */
async function approvedPayment(): Promise<string> {
  const created = await olaPayment(t);
  const psu = new ScriptedPsu(t.app);
  await psu.open(created._links.scaRedirect.href);
  await psu.logIn('13039319955', '123456');
  await psu.approve();
  return String(created.paymentId);
}

describe('the console written for people', () => {
  it('a used link opened again after it expired says it was used, not that it expired', async () => {
    const link = await consoleLink(t);
    assert.equal((await new ConsoleVisitor(t.app).open(link.href)).statusCode, 303);
    clock.offsetMs = CONSOLE_LINK_TTL_MS + 1000;
    try {
      const other = new ConsoleVisitor(t.app);
      assert.equal((await other.open(link.href)).statusCode, 401);
      assert.match(other.text(), /This link was used already/);
      assert.doesNotMatch(other.text(), /expired/);
      const nb = new ConsoleVisitor(t.app, 'nb');
      await nb.open(link.href);
      assert.match(nb.last!.body, /data-message="link-used"/);
      // A link never opened still says it expired.
      const unused = await consoleLink(t);
      clock.offsetMs += CONSOLE_LINK_TTL_MS + 1000;
      const late = new ConsoleVisitor(t.app);
      await late.open(unused.href);
      assert.match(late.last!.body, /data-message="link-expired"/);
    } finally {
      clock.offsetMs = 0;
    }
  });

  it("a booking shows at the business time of the batch slot that booked it, not at the clock move's", async () => {
    const paymentId = await approvedPayment();
    const a = await signedIn();
    assert.equal((await a.post('/console/clock', { amount: '2', unit: 'days' })).statusCode, 303);
    const now = Date.parse(
      ((await t.signed({ method: 'GET', url: '/v1/sandbox/clock' })).json() as { now: string }).now,
    );
    await a.open(`/console/payments/${encodeURIComponent(paymentId)}`);
    const booked = [...a.last!.body.matchAll(/<li data-kind="booked"><time datetime="([^"]+)">([^<]+)<\/time>/g)];
    assert.ok(booked.length > 0, a.text());
    for (const [, iso, shown] of booked) {
      // Five slots a day: the first after the payment is within a day of it, long before the clock's now.
      assert.ok(Date.parse(iso!) < now - 86_400_000, `${iso} is a slot's time, not the move's`);
      assert.match(shown!, / (06|09|12|15|18):00:00$/, 'a batch time, in Norwegian time');
    }
  });
});
