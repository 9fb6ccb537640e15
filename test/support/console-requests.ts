import assert from 'node:assert/strict';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { OLA_ACCOUNTS, createCrossBorder, crossBorderBody } from './payment-requests.js';
import type { TestApp } from './test-app.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

/**
 * The API requests of the console's tests (test/http/console.test.ts, the browser's
 * console-browser.test.ts): the link that opens the console and a payment for it to show, made by
 * the TPP (A by default) in its bank.
 */

/** A console link, as `tpp console` asks for it: the 201's body (its `href`). */
export async function consoleLink(t: TestApp, as?: CertificateAndKey): Promise<Json> {
  const response = await t.signed({ method: 'POST', url: '/v1/sandbox/console-links', ...(as ? { as } : {}) });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as Json;
}

/** A payment from Ola's savings account for Ola to sign: the 201's body (paymentId, _links). */
export async function olaPayment(t: TestApp, as?: CertificateAndKey): Promise<Json> {
  const response = await createCrossBorder(t, {
    body: {
      ...crossBorderBody(),
      instructedAmount: { amount: '1200.00', currency: 'NOK' },
      debtorAccount: { bban: OLA_ACCOUNTS[1], currency: 'NOK' },
    },
    headers: { 'X-PSU-IDENTITY': '13039319955' },
    without: ['PSU-ID'],
    ...(as ? { as } : {}),
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as Json;
}
