import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { addDays, osloDate, type Clock } from '../../src/domain/clock.js';
import { type ConsentSession, completeConsent, giveConsent, readAis } from '../support/ais-requests.js';
import { type AisCustomer, newAisCustomer, postCardTransactions, postTransactions } from '../support/ais-data.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * The access rules of account information (docs/ais.md): a consent's SCA is renewed every 180 days;
 * transactions older than 90 days need an SCA at most 90 days old; without the PSU present a TPP
 * reads an account at most four times a day (RTS 36(5)). The bank's clock decides, moved here.
 */
type Json = Record<string, any>;
const DAY_MS = 86_400_000;

class ManualClock implements Clock {
  current = new Date();
  now(): Date {
    return new Date(this.current);
  }
}

describe('account-information access rules', () => {
  const clock = new ManualClock();
  let t: TestApp;
  let customer: AisCustomer;
  let session: ConsentSession;
  const today = () => osloDate(clock.now());
  const transactionsUrl = (from: string) =>
    `/v1/accounts/${encodeURIComponent(customer.accounts[0]!.id)}/transactions?bookingStatus=booked&dateFrom=${from}`;

  before(async () => {
    t = await startTestApp({ clock });
  });
  after(() => t.close());
  beforeEach(async () => {
    customer = await newAisCustomer(t, [{ balance: 1000 }], 1);
    session = await giveConsent(t, { customerNumber: customer.number });
  });

  /** Follows a 401's scaRedirect as the PSU, who keeps the accounts ticked. */
  async function renew(response: { json(): unknown }): Promise<void> {
    const link = (response.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href;
    const renewed = await completeConsent(t, link, customer.number);
    assert.deepEqual(renewed.tppSessionId, session.tppSessionId, 'renewed in the same session');
    assert.deepEqual(renewed.psuId, session.psuId);
  }

  it("challenges every read once the consent's SCA is older than 180 days (401 CONSENT_EXPIRED), and reads again after the PSU renews it", async () => {
    clock.current = new Date(clock.current.getTime() + 180 * DAY_MS);
    assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200, 'at 180 days the SCA still holds');
    clock.current = new Date(clock.current.getTime() + DAY_MS);
    const expired = await readAis(t, '/v1/accounts', session);
    assert.equal(expired.statusCode, 401, expired.body);
    const body = expired.json() as { tppMessages: { code: string; text: string }[] };
    assert.equal(body.tppMessages[0]!.code, 'CONSENT_EXPIRED');
    assert.match(body.tppMessages[0]!.text, /older than 180 days/);
    await renew(expired);
    const again = await readAis(t, '/v1/accounts', session);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal((again.json() as { accounts: unknown[] }).accounts.length, 1, 'the renewal kept the accounts ticked');
  });

  it('reads the whole history with an SCA at most 90 days old; older, the last 90 days only, and a dateFrom before them is 401 CONSENT_INVALID at query:dateFrom until a new SCA', async () => {
    const start = today();
    const [old] = await postTransactions(t, customer.accounts[0]!, [
      { amount: 1, bookingDate: addDays(start, -100), remittance: 'old' },
      { amount: 2, bookingDate: addDays(start, -1), remittance: 'mid' },
    ]);
    await postCardTransactions(t, customer.cards[0]!.id, [{ bookingDate: addDays(start, -100), amount: -5 }]);
    const all = await readAis(t, transactionsUrl('1970-01-01'), session);
    assert.deepEqual(
      (all.json() as Json).transactions.booked.map((b: Json) => b.remittanceInformationUnstructured),
      ['old', 'mid'],
      'a fresh SCA reads from 1970',
    );

    clock.current = new Date(clock.current.getTime() + 91 * DAY_MS);
    const [recent] = await postTransactions(t, customer.accounts[0]!, [
      { amount: 3, bookingDate: addDays(today(), -1), remittance: 'recent' },
    ]);
    const first = addDays(today(), -89);
    const window = await readAis(t, transactionsUrl(first), session);
    assert.equal(window.statusCode, 200, window.body);
    assert.deepEqual(
      (window.json() as Json).transactions.booked.map((b: Json) => b.remittanceInformationUnstructured),
      ['recent'],
    );
    const further = await readAis(t, transactionsUrl(addDays(first, -1)), session);
    assert.equal(further.statusCode, 401, further.body);
    const message = (further.json() as { tppMessages: { code: string; path: string; text: string }[] }).tppMessages[0]!;
    assert.deepEqual([message.code, message.path], ['CONSENT_INVALID', 'query:dateFrom']);
    assert.match(message.text, new RegExp(`read from ${first}`));
    assert.equal(
      (
        await readAis(
          t,
          `/v1/card-accounts/${encodeURIComponent(customer.cards[0]!.id)}/transactions?bookingStatus=booked&dateFrom=1970-01-01`,
          session,
        )
      ).statusCode,
      401,
      'card transactions alike',
    );
    assert.equal(
      (
        await readAis(
          t,
          `/v1/accounts/${encodeURIComponent(customer.accounts[0]!.id)}/transactions/${encodeURIComponent(old!)}`,
          session,
        )
      ).statusCode,
      401,
      'a single old transaction alike',
    );
    assert.equal(
      (
        await readAis(
          t,
          `/v1/accounts/${encodeURIComponent(customer.accounts[0]!.id)}/transactions/${encodeURIComponent(recent!)}`,
          session,
        )
      ).statusCode,
      200,
    );
    const pendingOnly = await readAis(
      t,
      `/v1/accounts/${encodeURIComponent(customer.accounts[0]!.id)}/transactions?bookingStatus=pending&dateFrom=1970-01-01`,
      session,
    );
    assert.equal(pendingOnly.statusCode, 200, 'pending transactions are no history');

    await renew(further);
    const renewed = await readAis(t, transactionsUrl('1970-01-01'), session);
    assert.deepEqual(
      (renewed.json() as Json).transactions.booked.map((b: Json) => b.remittanceInformationUnstructured),
      ['old', 'mid', 'recent'],
    );
  });

  it('allows 4 reads a day without PSU-IP-Address per account and kind of read (RTS 36(5)): the fifth is 429 ACCESS_EXCEEDED, the next Norwegian day counts afresh', async () => {
    const balances = `/v1/accounts/${encodeURIComponent(customer.accounts[0]!.id)}/balances`;
    for (let i = 0; i < 4; i++)
      assert.equal((await readAis(t, balances, session, { present: false })).statusCode, 200, `read ${i + 1}`);
    const fifth = assertErrorBody(await readAis(t, balances, session, { present: false }), 429, 'ACCESS_EXCEEDED');
    assert.equal(fifth.tppMessages![0]!.path, 'header:PSU-IP-Address');
    assert.match(fifth.tppMessages![0]!.text!, /RTS article 36\(5\)/);
    assert.equal((await readAis(t, balances, session)).statusCode, 200, 'with the PSU present there is no limit');
    assert.equal(
      (await readAis(t, `/v1/accounts/${encodeURIComponent(customer.accounts[0]!.id)}`, session, { present: false }))
        .statusCode,
      200,
      'the details are another kind of read',
    );
    assert.equal(
      (await readAis(t, transactionsUrl(today()), session, { present: false })).statusCode,
      200,
      'so are the transactions',
    );

    // Midnight in Norway: the next day's allowance.
    const tomorrow = addDays(today(), 1);
    while (osloDate(clock.now()) !== tomorrow) clock.current = new Date(clock.current.getTime() + 3_600_000);
    assert.equal((await readAis(t, balances, session, { present: false })).statusCode, 200);
  });
});
