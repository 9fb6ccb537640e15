import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { osloDate, addDays } from '../../src/domain/clock.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { ibanOf, nextBban, nextFnr } from './norwegian-numbers.js';
import { BULK_PATH, createHeaders } from './payment-requests.js';
import { ScriptedPsu } from './scripted-psu.js';
import type { TestApp } from './test-app.js';

/** Test data for account information, made through the sandbox's test-data API as a TPP makes it. */
type Json = Record<string, any>;

/** An account of another bank, the counterpart of posted transactions. */
export const ELSEWHERE = { iban: 'NO6290491105991', bban: '90491105991' };

export interface AisCustomer {
  number: string;
  accounts: { id: string; bban: string; iban: string }[];
  cards: { id: string; maskedPan: string }[];
}

function created(response: LightMyRequestResponse): Json {
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as Json;
}

/** A private customer with NOK accounts holding these balances (and credit lines), and card accounts. */
export async function newAisCustomer(
  t: TestApp,
  accounts: { balance: number; creditLine?: number; name?: string; cashAccountType?: string }[],
  cards = 0,
  as?: CertificateAndKey,
): Promise<AisCustomer> {
  const number = nextFnr();
  const post = (url: string, body: unknown) =>
    t.signed({ method: 'POST', url, body, ...(as === undefined ? {} : { as }) });
  created(await post('/v1/sandbox/customers', { customerNumber: number, name: `Test ${number}`, type: 'private' }));
  const made: AisCustomer = { number, accounts: [], cards: [] };
  for (const account of accounts) {
    const bban = nextBban();
    const body = {
      customerNumber: number,
      accountName: account.name ?? 'Brukskonto',
      bban,
      iban: ibanOf(bban),
      currency: 'NOK',
      product: 'Brukskonto',
      cashAccountType: account.cashAccountType ?? 'CACC',
      creditLine: account.creditLine ?? 0,
      balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount: account.balance, currency: 'NOK' } }],
    };
    const json = created(
      await t.signed({
        method: 'POST',
        url: '/v1/sandbox/accounts',
        body,
        headers: { 'x-accept-fix': 'longer-name' },
        ...(as === undefined ? {} : { as }),
      }),
    );
    made.accounts.push({ id: json.id, bban, iban: json.iban });
  }
  for (let i = 0; i < cards; i++) {
    const maskedPan = `525412******${String(1000 + i)}`;
    const json = created(
      await post('/v1/sandbox/card-accounts', {
        customerNumber: number,
        maskedPan,
        name: 'Gullkort',
        product: 'Basic Credit',
        currency: 'NOK',
        creditLimit: { currency: 'NOK', amount: 15000 },
        balances: [{ balanceAmount: { currency: 'NOK', amount: -1234.5 }, balanceType: 'interimBooked' }],
        status: 'ENABLED',
      }),
    );
    made.cards.push({ id: json.id, maskedPan });
  }
  return made;
}

/** The Norwegian date `days` from the bank's today (negative: before). */
export async function bankDate(t: TestApp, days: number): Promise<string> {
  return addDays(osloDate(await t.banks.now('PSDNO-FSA-111111111')), days);
}

/**
 * Posts transactions to an account: credits from an account elsewhere (positive amounts) and debits to
 * it (negative), each with its booking date; the remittance names its order of posting.
 */
export async function postTransactions(
  t: TestApp,
  account: { id: string; bban: string; iban: string },
  entries: { amount: number; bookingDate: string; remittance?: string; bankTransactionCode?: string }[],
): Promise<string[]> {
  const body = entries.map((e, i) => {
    const own = { iban: account.iban, bban: account.bban };
    const debit = e.amount < 0;
    return {
      amount: e.amount,
      currency: 'NOK',
      bookingDate: e.bookingDate,
      valueDate: e.bookingDate,
      remittanceInformationUnstructured: e.remittance ?? `Posted ${i}`,
      creditorName: debit ? 'Sognekraft AS' : 'Test Person',
      creditorAccount: debit ? ELSEWHERE : own,
      debtorName: debit ? 'Test Person' : 'Aftenposten AS',
      debtorAccount: debit ? own : ELSEWHERE,
      purposeCode: 'OTHR',
      bankTransactionCode: e.bankTransactionCode ?? 'PMNT',
    };
  });
  const response = await t.signed({ method: 'POST', url: `/v1/sandbox/accounts/${account.id}/transactions`, body });
  return (created(response) as unknown as { id: string }[]).map((x) => x.id);
}

/** Posts card transactions to a card account. */
export async function postCardTransactions(
  t: TestApp,
  cardId: string,
  entries: { bookingDate: string; amount: number; original?: { amount: number; currency: string } }[],
): Promise<string[]> {
  const body = entries.map((e, i) => ({
    cardTransactionId: `card-${i}`,
    bookingDate: e.bookingDate,
    transactionDate: e.bookingDate,
    transactionAmount: { currency: 'NOK', amount: e.amount },
    ...(e.original === undefined
      ? {}
      : { originalAmount: { currency: e.original.currency, amount: e.original.amount } }),
    merchantCategoryCode: '5411',
    transactionDetails: `Kjøp ${i}`,
  }));
  const response = await t.signed({ method: 'POST', url: `/v1/sandbox/card-accounts/${cardId}/transactions`, body });
  return (created(response) as unknown as { id: string }[]).map((x) => x.id);
}

/** Moves the TPP's sandbox clock to its next batch time; the run executes on the way. */
export async function nextBatchRun(t: TestApp): Promise<void> {
  const clock = (await t.signed({ method: 'GET', url: '/v1/sandbox/clock' })).json() as { nextBatchRun: string };
  const moved = await t.signed({ method: 'POST', url: '/v1/sandbox/clock', body: { to: clock.nextBatchRun } });
  assert.equal(moved.statusCode, 200, moved.body);
}

/** Creates a bulk payment for the customer (by national identity number) and has them approve it on the SCA page. */
export async function approvedBulk(t: TestApp, customerNumber: string, body: Record<string, unknown>): Promise<void> {
  const headers = createHeaders({ 'X-PSU-IDENTITY': customerNumber });
  delete headers['PSU-ID'];
  const created = await t.signed({ method: 'POST', url: BULK_PATH, body, headers });
  assert.equal(created.statusCode, 201, created.body);
  const psu = new ScriptedPsu(t.app);
  await psu.open(created.json()._links.scaRedirect.href);
  await psu.logIn(customerNumber, '123456');
  await psu.approve();
}
