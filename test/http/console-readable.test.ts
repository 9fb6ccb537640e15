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

  it('an armed scenario lists labelled fields written for people, in Norwegian time, in English and Bokmål', async () => {
    const a = await signedIn();
    await a.open('/console/scenarios?kind=payment-pending');
    const armed = await a.post('/console/scenarios', {
      kind: 'payment-pending',
      debtorBban: OLA_ACCOUNTS[1],
      amount: '250.00',
      currency: 'NOK',
      endToEnd: '',
      holdHours: '24',
      then: 'RJCT',
      reasonCode: 'AM04',
      reasonText: '',
      times: '1',
    });
    assert.equal(armed.statusCode, 303, armed.body);
    await a.open('/console/scenarios');
    const text = a.text();
    assert.match(text, /Debtor account 15061012351|Debtor account \d{11}/);
    assert.match(text, /Amount NOK 250\.00/);
    assert.match(text, /Until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/, 'Norwegian time, as the other pages');
    assert.match(text, /Then RJCT: rejected/);
    assert.match(text, /Reason AM04: insufficient funds/);
    assert.match(text, /Times left 1/);
    assert.doesNotMatch(a.last!.body, /debtorAccount|instructedAmount|statusReason|timesLeft|armedAt|"bban"/);
    assert.doesNotMatch(text, /\d{4}-\d\d-\d\dT\d\d:\d\d/, 'no UTC ISO instants');

    const nb = await signedIn('nb');
    await nb.open('/console/scenarios');
    assert.match(nb.text(), /Fra konto \d{11}/);
    assert.match(nb.text(), /Beløp NOK 250,00|Beløp .*250/);
    assert.match(nb.text(), /Deretter RJCT: avvist/);
    assert.match(nb.text(), /Årsak AM04: ikke dekning/);
    assert.match(nb.text(), /Ganger igjen 1/);
    const disarm = /action="(\/console\/scenarios\/[^"]+\/disarm)"/.exec(a.last!.body)![1]!;
    await a.open('/console/scenarios');
    assert.equal((await a.post(disarm, {})).statusCode, 303);
  });

  it('the scenario form names each reason code with its meaning, in English and Bokmål', async () => {
    const a = await signedIn();
    await a.open('/console/scenarios?kind=payment-rejected');
    assert.match(a.last!.body, /<option value="AC06">AC06: the account is blocked<\/option>/);
    const nb = await signedIn('nb');
    await nb.open('/console/scenarios?kind=payment-rejected');
    assert.match(nb.last!.body, /<option value="AC06">AC06: kontoen er sperret<\/option>/);
  });

  it("a rejected payment's reason code is shown with its meaning, in English and Bokmål", async () => {
    const a = await signedIn();
    await a.open('/console/scenarios?kind=payment-rejected');
    const armed = await a.post('/console/scenarios', {
      kind: 'payment-rejected',
      debtorBban: OLA_ACCOUNTS[1],
      currency: 'NOK',
      reasonCode: 'AC06',
      reasonText: 'blocked by the test',
      times: '1',
    });
    assert.equal(armed.statusCode, 303, armed.body);
    const paymentId = await approvedPayment();
    await a.open('/console');
    assert.equal((await a.post('/console/batch-runs', {})).statusCode, 303);
    const path = `/console/payments/${encodeURIComponent(paymentId)}`;
    await a.open(path);
    assert.match(a.last!.body, /data-status="RJCT"/);
    assert.match(a.text(), /Reason AC06: the account is blocked \(“blocked by the test”\)/);
    const nb = await signedIn('nb');
    await nb.open(path);
    assert.match(nb.text(), /Årsak AC06: kontoen er sperret \(“blocked by the test”\)/);
  });
});
