import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../src/domain/clock.js';
import { type ConsentSession, giveConsent, readAis } from '../support/ais-requests.js';
import {
  type AisCustomer,
  ELSEWHERE,
  approvedBulk,
  bankDate,
  newAisCustomer,
  nextBatchRun,
  postCardTransactions,
  postTransactions,
} from '../support/ais-data.js';
import { bulkBody, bulkEntry } from '../support/payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * The published changes (x-accept-fix, docs/accept-fix.md) as account information shows them: each
 * before and after, asked for with the header or in force from its default date by the bank's clock.
 */
type Json = Record<string, any>;

class ManualClock implements Clock {
  constructor(public current: Date) {}
  now(): Date {
    return new Date(this.current);
  }
}

const LONG_NAME = 'Brukskonto for felles husholdning og ferie 2027 (Ola)';

describe('x-accept-fix on account information', () => {
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
  let t: TestApp;
  let customer: AisCustomer;
  let session: ConsentSession;
  const read = async (url: string, acceptFix?: string): Promise<Json> => {
    const response = await readAis(
      t,
      url,
      session,
      acceptFix === undefined ? {} : { headers: { 'x-accept-fix': acceptFix } },
    );
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as Json;
  };

  before(async () => {
    t = await startTestApp({ clock });
    customer = await newAisCustomer(t, [
      { balance: 10000, name: LONG_NAME },
      { balance: 0, cashAccountType: 'SVGS' },
    ]);
    session = await giveConsent(t, { customerNumber: customer.number });
  });
  after(() => t.close());

  it("cash-account-type-iso: the platform's names (Current, Savings) before, the ISO 20022 codes with the header", async () => {
    assert.deepEqual((await read('/v1/accounts')).accounts.map((a: Json) => a.cashAccountType).sort(), [
      'Current',
      'Savings',
    ]);
    assert.deepEqual(
      (await read('/v1/accounts', 'cash-account-type-iso')).accounts.map((a: Json) => a.cashAccountType).sort(),
      ['CACC', 'SVGS'],
    );
  });

  it('longer-name: the name cut to 35 characters before, whole (up to 70) with the header', async () => {
    const url = `/v1/accounts/${encodeURIComponent(customer.accounts[0]!.id)}`;
    assert.equal((await read(url)).account.name, LONG_NAME.slice(0, 35));
    assert.equal((await read(url, 'longer-name')).account.name, LONG_NAME);
    assert.equal((await read(url, 'longer-names')).account.name, LONG_NAME, "the alias the platform's clients send");
  });

  it("bank-transaction-code-iso: a posted code of the bank's own form is bankTransactionCode before and left out after; an ISO code stays; the platform's proprietaryBankTransactionCode either way", async () => {
    const day = await bankDate(t, -1);
    await postTransactions(t, customer.accounts[1]!, [
      { amount: 10, bookingDate: day, bankTransactionCode: 'PMNT' },
      { amount: 20, bookingDate: day, bankTransactionCode: 'PMNT-RCDT-DMCT' },
    ]);
    const url = `/v1/accounts/${encodeURIComponent(customer.accounts[1]!.id)}/transactions?bookingStatus=booked&dateFrom=${day}`;
    const codes = (body: Json) =>
      body.transactions.booked.map((b: Json) => [b.bankTransactionCode, b.proprietaryBankTransactionCode]);
    assert.deepEqual(codes(await read(url)), [
      ['PMNT', 'R_999'],
      ['PMNT-RCDT-DMCT', 'R_601'],
    ]);
    assert.deepEqual(codes(await read(url, 'bank-transaction-code-iso')), [
      [undefined, 'R_999'],
      ['PMNT-RCDT-DMCT', 'R_601'],
    ]);
  });

  it("batch-transactions: a bulk payment's entries one by one before; one batch entry with their number and total after, paged as one", async () => {
    const bulk = bulkBody(3);
    bulk.debtorAccount = { bban: customer.accounts[0]!.bban, currency: 'NOK' };
    bulk.payments = [0, 1, 2].map((i) => ({
      ...bulkEntry(i),
      instructedAmount: { amount: `${100 * (i + 1)}.00`, currency: 'NOK' },
      creditorAccount: { bban: ELSEWHERE.bban, currency: 'NOK' },
    }));
    await approvedBulk(t, customer.number, bulk);
    await nextBatchRun(t);
    const day = await bankDate(t, 0);
    await postTransactions(t, customer.accounts[0]!, [{ amount: 7, bookingDate: day, remittance: 'after the batch' }]);
    const url = `/v1/accounts/${encodeURIComponent(customer.accounts[0]!.id)}/transactions?bookingStatus=booked&dateFrom=${day}`;

    const separate = (await read(url)).transactions.booked as Json[];
    assert.deepEqual(
      separate.map((b) => [b.transactionAmount.amount, b.batchIndicator]),
      [
        ['-100.00', undefined],
        ['-200.00', undefined],
        ['-300.00', undefined],
        ['7.00', undefined],
      ],
    );
    const batched = (await read(url, 'batch-transactions')).transactions.booked as Json[];
    assert.deepEqual(
      batched.map((b) => [b.transactionAmount.amount, b.batchIndicator, b.batchNumberOfTransactions]),
      [
        ['-600.00', true, 3],
        ['7.00', undefined, undefined],
      ],
    );
    assert.equal(batched[0]!.transactionId, separate[0]!.transactionId, "the batch entry has its first entry's id");

    const firstPage = (await read(`${url}&limit=1`, 'batch-transactions')).transactions;
    assert.deepEqual(
      firstPage.booked.map((b: Json) => b.batchNumberOfTransactions),
      [3],
    );
    const secondPage = (await read(firstPage._links.next.href, 'batch-transactions')).transactions;
    assert.deepEqual(
      secondPage.booked.map((b: Json) => b.remittanceInformationUnstructured),
      ['after the batch'],
    );
    assert.equal(secondPage._links.next, undefined);
  });

  it('answers an x-accept-fix name the bank does not know with a WARNING BAD_REQUEST beside the answer', async () => {
    const body = await read('/v1/accounts', 'longer-name, no-such-fix');
    assert.equal(body.tppMessages[0].category, 'WARNING');
    assert.equal(body.tppMessages[0].code, 'BAD_REQUEST');
    assert.equal(body.tppMessages[0].path, 'header:x-accept-fix');
    assert.equal(body.accounts.length, 2);
  });

  it("longer-name and cash-account-type-iso: in force without the header from their default dates (2027-01-01, 2027-03-15) by the bank's clock", async () => {
    clock.current = new Date('2027-03-15T10:00:00Z');
    session = await giveConsent(t, { customerNumber: customer.number });
    const accounts = (await read('/v1/accounts')).accounts as Json[];
    assert.deepEqual(accounts.map((a) => a.cashAccountType).sort(), ['CACC', 'SVGS']);
    assert.ok(accounts.some((a) => a.name === LONG_NAME));
  });
});

describe('x-accept-fix cardaccount-switch-originalamount-and-transactionamount on card transactions', () => {
  // Before the change's default date (2021-03-31), as the bank's clock tells it.
  const clock = new ManualClock(new Date('2021-02-01T10:00:00Z'));
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ clock });
  });
  after(() => t.close());

  it("switched before its default date (transactionAmount the purchase's currency), as stored with the header and from 2021-03-31", async () => {
    const customer = await newAisCustomer(t, [], 1);
    const card = customer.cards[0]!;
    const day = await bankDate(t, -1);
    await postCardTransactions(t, card.id, [
      { bookingDate: day, amount: -100, original: { amount: -95.5, currency: 'SEK' } },
    ]);
    let session = await giveConsent(t, { customerNumber: customer.number });
    const url = `/v1/card-accounts/${encodeURIComponent(card.id)}/transactions?bookingStatus=booked&dateFrom=${day}`;
    const amounts = async (acceptFix?: string) => {
      const response = await readAis(
        t,
        url,
        session,
        acceptFix === undefined ? {} : { headers: { 'x-accept-fix': acceptFix } },
      );
      assert.equal(response.statusCode, 200, response.body);
      const [b] = (response.json() as Json).cardTransactions.booked as Json[];
      return [b!.transactionAmount, b!.originalAmount];
    };
    assert.deepEqual(await amounts(), [
      { amount: '-95.50', currency: 'SEK' },
      { amount: '-100.00', currency: 'NOK' },
    ]);
    assert.deepEqual(await amounts('cardaccount-switch-originalamount-and-transactionamount'), [
      { amount: '-100.00', currency: 'NOK' },
      { amount: '-95.50', currency: 'SEK' },
    ]);
    clock.current = new Date('2021-03-31T10:00:00Z');
    session = await giveConsent(t, { customerNumber: customer.number });
    assert.deepEqual(await amounts(), [
      { amount: '-100.00', currency: 'NOK' },
      { amount: '-95.50', currency: 'SEK' },
    ]);
  });
});
