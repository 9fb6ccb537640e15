import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { type CreateOptions, NO_ACCOUNTS, OLA_ACCOUNTS, createHeaders } from './payment-requests.js';
import type { TestApp } from './test-app.js';

/** Valid requests of the single payments of issue 30 (NDCT, Straks, SEPA, the general cross-border product). */
export const NDCT_PATH = '/v1/payments/norwegian-domestic-credit-transfers';
export const STRAKS_PATH = '/v1/payments/instant-norwegian-domestic-credit-transfers-straks';
export const SEPA_PATH = '/v1/payments/sepa-credit-transfers';
export const CBCT_PATH = '/v1/payments/cross-border-credit-transfers';

/** Kari Nordmann's euro account in the default data set (Valutakonto EUR, EUR 5 000.00). */
export const KARI_EUR_ACCOUNT = '15061012386';
/** A creditor account at registration number 9999, a bank that does not take Straks (domain/payments/domestic-payment.ts). */
export const NO_STRAKS_ACCOUNT = '99990000006';
export const FR_IBAN = 'FR1420041010050500013M02606';
/** A Turkish IBAN: valid, outside the SEPA schemes. */
export const TR_IBAN = 'TR330006100519786457841326';

/** NOK 250.00 from Ola's current account to a Norwegian account, with a message. */
export function ndctBody(): Record<string, unknown> {
  return {
    instructedAmount: { amount: '250.00', currency: 'NOK' },
    creditorName: 'Kreditor AS',
    creditorAccount: { bban: NO_ACCOUNTS[1], currency: 'NOK' },
    creditorAddress: { country: 'NO' },
    debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' },
    remittanceInformationUnstructured: `Faktura ${randomUUID().slice(0, 8)}`,
  };
}

/** EUR 100.00 from Ola's current account (NOK) to a French IBAN. */
export function sepaBody(): Record<string, unknown> {
  return {
    instructedAmount: { amount: '100.00', currency: 'EUR' },
    creditorName: 'Fournisseur SARL',
    creditorAccount: { iban: FR_IBAN, currency: 'EUR' },
    debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' },
    remittanceInformationUnstructured: `Facture ${randomUUID().slice(0, 8)}`,
    endToEndIdentification: `E2E-${randomUUID().slice(0, 8)}`,
  };
}

/** SEK 1 000.00 from Ola's current account to a Swedish IBAN: under NOK 100 000. */
export function cbctBody(): Record<string, unknown> {
  return {
    instructedAmount: { amount: '1000.00', currency: 'SEK' },
    creditorName: 'Svenska Leverantör AB',
    creditorAgent: 'ESSESESSXXX',
    creditorAccount: { iban: 'SE4550000000058398257466', currency: 'SEK' },
    creditorAddress: {
      street: 'Kungsgatan',
      buildingNumber: '1',
      postalCode: '11143',
      city: 'Stockholm',
      country: 'SE',
    },
    debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' },
    remittanceInformationUnstructured: `Invoice ${randomUUID().slice(0, 8)}`,
  };
}

/** A create of the product at `path`, signed as the test TPP for Ola (PSU-ID), with PSU-Context. */
export function createSingle(
  t: TestApp,
  path: string,
  body: unknown,
  options: CreateOptions = {},
): Promise<LightMyRequestResponse> {
  const headers = createHeaders(options.headers);
  for (const name of options.without ?? []) delete headers[name];
  return t.signed({
    method: 'POST',
    url: `${path}${options.query ?? ''}`,
    body,
    headers,
    ...(options.as === undefined ? {} : { as: options.as }),
    ...(options.requestId === undefined ? {} : { sign: { requestId: options.requestId } }),
  });
}
