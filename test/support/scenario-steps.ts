import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { nextFnr } from './norwegian-numbers.js';
import { createHeaders } from './payment-requests.js';
import { sandboxAccountBody } from './sandbox-bodies.js';
import { ScriptedPsu } from './scripted-psu.js';
import type { TestApp } from './test-app.js';

/**
 * The steps a TPP's test takes to drive a scenario of docs/scenarios.md over HTTP: make its test
 * data, arm a scenario, create and sign a payment, move the bank's clock, read the outcome.
 */

export const NDCT = '/v1/payments/norwegian-domestic-credit-transfers';
export const STRAKS = '/v1/payments/instant-norwegian-domestic-credit-transfers-straks';
export const BULK = '/v1/bulk-payments/norwegian-domestic-credit-transfers';

/** A creditor account at another bank (registration number 1234): the sandbox cannot know it. */
export const ELSEWHERE = '12345678911';

export interface TestCustomer {
  id: string;
  number: string;
  accounts: { id: string; bban: string; iban: string }[];
}

/** A new private customer with NOK accounts holding these balances, made with the test-data API. */
export async function newCustomer(
  t: TestApp,
  balances: number[],
  extra: Record<string, unknown> = {},
): Promise<TestCustomer> {
  const number = nextFnr();
  const customer = await t.signed({
    method: 'POST',
    url: '/v1/sandbox/customers',
    body: { customerNumber: number, name: `Test ${number}`, type: 'private', ...extra },
  });
  assert.equal(customer.statusCode, 201, customer.body);
  const accounts = [];
  for (const amount of balances) {
    const body = sandboxAccountBody(number, {
      balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount, currency: 'NOK' } }],
    });
    const account = await t.signed({ method: 'POST', url: '/v1/sandbox/accounts', body });
    assert.equal(account.statusCode, 201, account.body);
    accounts.push({ id: account.json().id as string, bban: body.bban as string, iban: body.iban as string });
  }
  return { id: customer.json().customerId, number, accounts };
}

/** A domestic credit transfer's body (NDCT and Straks): NOK `amount` from `from` to `to`. */
export function domesticBody(from: string, to: string, amount: string, extra: Record<string, unknown> = {}) {
  return {
    instructedAmount: { amount, currency: 'NOK' },
    creditorName: 'Kreditor AS',
    creditorAccount: { bban: to, currency: 'NOK' },
    debtorAccount: { bban: from, currency: 'NOK' },
    remittanceInformationUnstructured: `Faktura ${randomUUID().slice(0, 8)}`,
    ...extra,
  };
}

/** A bulk of domestic credit transfers from `from`, one entry per creditor and amount. */
export function bulkOf(from: string, entries: { to: string; amount: string }[]) {
  return {
    paymentInformationId: `PI-${randomUUID().slice(0, 8)}`,
    debtorAccount: { bban: from, currency: 'NOK' },
    payments: entries.map((e, i) => ({
      instructedAmount: { amount: e.amount, currency: 'NOK' },
      creditorName: `Kreditor ${i}`,
      creditorAccount: { bban: e.to, currency: 'NOK' },
      creditorAddress: { street: 'Storgata', buildingNumber: '1', postalCode: '0155', city: 'Oslo', country: 'NO' },
      remittanceInformationUnstructured: `Faktura ${i} ${randomUUID().slice(0, 8)}`,
    })),
  };
}

/** Creates a payment for the customer and approves it on the SCA page as they would: its id and status link. */
export async function signedPayment(
  t: TestApp,
  path: string,
  body: unknown,
  customerNumber: string,
): Promise<{ paymentId: string; status: string }> {
  const headers = createHeaders({ 'X-PSU-IDENTITY': customerNumber });
  delete headers['PSU-ID'];
  const created = await t.signed({ method: 'POST', url: path, body, headers });
  assert.equal(created.statusCode, 201, created.body);
  const json = created.json();
  const psu = new ScriptedPsu(t.app);
  await psu.open(json._links.scaRedirect.href);
  await psu.logIn(customerNumber, '123456');
  await psu.approve();
  return { paymentId: json.paymentId, status: json._links.status.href };
}

export interface StatusAnswer {
  transactionStatus: string;
  fundsAvailable?: boolean;
  tppMessages?: { category: string; code: string; text: string }[];
  entries?: { transactionStatus: string; statusReason?: string }[];
}

export async function statusOf(t: TestApp, href: string): Promise<StatusAnswer> {
  const read = await t.signed({ method: 'GET', url: href });
  assert.equal(read.statusCode, 200, read.body);
  return read.json();
}

/** The statusReason a rejected payment's status read gives (its PAYMENT_FAILED tppMessage). */
export async function reasonOf(t: TestApp, href: string): Promise<string | undefined> {
  const answer = await statusOf(t, href);
  const failed = answer.tppMessages?.find((m) => m.code === 'PAYMENT_FAILED');
  return failed?.text;
}

/** The bank's time now, by its clock. */
export async function bankNow(t: TestApp): Promise<Date> {
  return new Date((await t.signed({ method: 'GET', url: '/v1/sandbox/clock' })).json().now);
}

/** Moves the bank's clock to its next batch run, which runs on the way; the runs' counts. */
export async function nextBatchRun(t: TestApp): Promise<{ executed: number; partial: number; rejected: number }[]> {
  const clock = (await t.signed({ method: 'GET', url: '/v1/sandbox/clock' })).json();
  return moveClockTo(t, new Date(clock.nextBatchRun));
}

export async function moveClockTo(
  t: TestApp,
  to: Date,
): Promise<{ executed: number; partial: number; rejected: number }[]> {
  const moved = await t.signed({ method: 'POST', url: '/v1/sandbox/clock', body: { to: to.toISOString() } });
  assert.equal(moved.statusCode, 200, moved.body);
  return moved.json().batchRuns;
}

/** Arms a scenario; the 201's body. */
export async function arm(t: TestApp, body: Record<string, unknown>): Promise<Record<string, any>> {
  const armed = await t.signed({ method: 'POST', url: '/v1/sandbox/scenarios', body });
  assert.equal(armed.statusCode, 201, armed.body);
  return armed.json();
}

/** Arms a scenario expecting a refusal; the answer. */
export async function armRefused(t: TestApp, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return t.signed({ method: 'POST', url: '/v1/sandbox/scenarios', body });
}

/** The paths of an error answer's tppMessages. */
export function pathsOf(response: LightMyRequestResponse): string[] {
  return (response.json().tppMessages as { path?: string }[]).map((m) => m.path ?? '');
}

/** The expected balance of a sandbox account now, as its read gives it. */
export async function balanceOf(t: TestApp, accountId: string): Promise<string> {
  const read = await t.signed({ method: 'GET', url: `/v1/sandbox/accounts/${accountId}` });
  assert.equal(read.statusCode, 200, read.body);
  return read.json().balances[0].balanceAmount.amount;
}
