import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { addDays, osloDate, type Clock } from '../../src/domain/clock.js';
import { type ConsentSession, REDIRECT, giveConsent, readAis } from '../support/ais-requests.js';
import { type AisCustomer, newAisCustomer, postTransactions } from '../support/ais-data.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * Issue 31, section 3: RTS article 36(5)'s four reads a day without the PSU, without loopholes. Each
 * test first makes the attack that got through before (a resend of a signed read, balances through
 * withBalance, an address no PSU has), then shows it refused.
 */
type Json = Record<string, any>;

class ManualClock implements Clock {
  current = new Date();
  now(): Date {
    return new Date(this.current);
  }
}

describe('RTS 36(5): four unattended reads a day, without loopholes (issue 31, section 3)', () => {
  const clock = new ManualClock();
  let t: TestApp;
  let customer: AisCustomer;
  let session: ConsentSession;
  const today = () => osloDate(clock.now());
  const account = () => encodeURIComponent(customer.accounts[0]!.id);
  const card = () => encodeURIComponent(customer.cards[0]!.id);
  const unattended = (url: string) => readAis(t, url, session, { present: false });

  before(async () => {
    t = await startTestApp({ clock });
  });
  after(() => t.close());
  beforeEach(async () => {
    customer = await newAisCustomer(t, [{ balance: 1000 }], 1);
    session = await giveConsent(t, { customerNumber: customer.number });
  });

  /** Sends an unattended read once, signed without Date, and gives the exact headers it went with. */
  async function firstSend(url: string): Promise<{ headers: Record<string, string>; body: Json }> {
    let headers: Record<string, string> = {};
    const response = await t.signed({
      method: 'GET',
      url,
      headers: { 'PSU-ID': session.psuId, 'TPP-Session-ID': session.tppSessionId, 'TPP-Redirect-URI': REDIRECT },
      sign: { date: false },
      tamper: (signed) => {
        headers = { ...signed };
      },
    });
    assert.equal(response.statusCode, 200, response.body);
    return { headers, body: response.json() as Json };
  }

  it('counts a resend of one signed read byte for byte: the fifth is 429, and a resend reads only what a fresh read would', async () => {
    const url = `/v1/accounts/${account()}/transactions?bookingStatus=booked&dateFrom=${addDays(today(), -10)}`;
    await postTransactions(t, customer.accounts[0]!, [{ amount: -1, bookingDate: today(), remittance: 'before' }]);
    const first = await firstSend(url);
    const resend = () => t.app.inject({ method: 'GET', url, headers: first.headers });
    assert.deepEqual(
      first.body.transactions.booked.map((b: Json) => b.remittanceInformationUnstructured),
      ['before'],
    );

    // Posted after the first send: a resend is a new read, counted, and sees what a fresh read sees.
    await postTransactions(t, customer.accounts[0]!, [{ amount: -2, bookingDate: today(), remittance: 'after' }]);
    const fresh = await unattended(url);
    for (let i = 0; i < 2; i++) {
      const again = await resend();
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual((again.json() as Json).transactions, (fresh.json() as Json).transactions);
    }
    // 1 first send + 1 fresh read + 2 resends: the day's four. Before, resends were free (20 × 200).
    for (let i = 0; i < 3; i++) assertErrorBody(await resend(), 429, 'ACCESS_EXCEEDED');
    assertErrorBody(await unattended(url), 429, 'ACCESS_EXCEEDED');
    assert.equal((await readAis(t, url, session)).statusCode, 200, 'the PSU present reads on');
  });

  it('counts balances served through withBalance as balance reads: once those are used up, every withBalance read is 429 and reads without it answer', async () => {
    for (let i = 0; i < 4; i++)
      assert.equal((await unattended(`/v1/accounts/${account()}/balances`)).statusCode, 200, `balances ${i + 1}`);
    const withBalance = [
      `/v1/accounts/${account()}?withBalance=true`,
      '/v1/accounts?withBalance=true',
      `/v1/accounts/${account()}/transactions?bookingStatus=booked&dateFrom=${today()}&withBalance=true`,
    ];
    for (const url of withBalance) {
      const refused = assertErrorBody(await unattended(url), 429, 'ACCESS_EXCEEDED');
      assert.match(refused.tppMessages![0]!.text!, /the balances of .*withBalance/, url);
    }
    // Without withBalance each kind still has its four: the refusals above took none of them.
    for (const url of withBalance.map((u) => u.replace(/[?&]withBalance=true/, ''))) {
      for (let i = 0; i < 4; i++) {
        const read = await unattended(url);
        assert.equal(read.statusCode, 200, `${url}: ${read.body}`);
        assert.doesNotMatch(read.body, /"balances":\[/);
      }
    }

    // Card accounts alike; and withBalance itself counts: four card reads with balances use them up.
    for (let i = 0; i < 4; i++)
      assert.equal((await unattended(`/v1/card-accounts/${card()}?withBalance=true`)).statusCode, 200);
    assertErrorBody(await unattended(`/v1/card-accounts/${card()}/balances`), 429, 'ACCESS_EXCEEDED');
    assertErrorBody(await unattended('/v1/card-accounts?withBalance=true'), 429, 'ACCESS_EXCEEDED');
    assert.equal((await unattended('/v1/card-accounts')).statusCode, 200);
  });

  it('refuses as PSU-IP-Address an address no PSU can have (unspecified, loopback in any IPv6 form, link-local, multicast, reserved, broadcast) with 400 naming the header', async () => {
    const balances = `/v1/accounts/${account()}/balances`;
    for (let i = 0; i < 4; i++) assert.equal((await unattended(balances)).statusCode, 200);
    assertErrorBody(await unattended(balances), 429, 'ACCESS_EXCEEDED');
    // Before, any syntactically valid address counted as the PSU present and read on past the limit.
    for (const address of [
      '0.0.0.0',
      '::',
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
      '239.255.255.250',
      'ff02::1',
      '255.255.255.255',
      '0.1.2.3',
      'fe80::1%eth0',
      // Issue 40, 6: loopback's other IPv6 forms, link-local and reserved counted as a PSU present.
      '::127.0.0.1',
      '64:ff9b::127.0.0.1',
      '2002:7f00:1::',
      '240.0.0.1',
      '169.254.1.1',
      'fe80::1',
    ]) {
      const refused = assertErrorBody(
        await readAis(t, balances, session, { present: false, headers: { 'PSU-IP-Address': address } }),
        400,
        'FORMAT_ERROR',
      );
      assert.equal(refused.tppMessages![0]!.path, 'header:PSU-IP-Address', address);
      assert.match(refused.tppMessages![0]!.text!, /header PSU-IP-Address must be .*(loopback|multicast)/, address);
    }
    for (const address of ['192.0.2.10', '2001:db8::10', '10.1.2.3', '::ffff:198.51.100.7'])
      assert.equal(
        (await readAis(t, balances, session, { present: false, headers: { 'PSU-IP-Address': address } })).statusCode,
        200,
        address,
      );
  });
});
