import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { type SigningCredentials, signRequest } from '../../src/toolkit/request-signer.js';
import type { TestApp } from './test-app.js';

/** Valid requests of both create operations, for tests to start from and change one thing. */
export const CROSS_BORDER_PATH = '/v1/payments/norwegian-cross-border-credit-transfers';
export const BULK_PATH = '/v1/bulk-payments/norwegian-domestic-credit-transfers';

/** Norwegian account numbers with a valid MOD11 check digit. */
export const NO_ACCOUNTS = [
  '12345678903',
  '12345678911',
  '12345678938',
  '12345678946',
  '12345678954',
  '12345678962',
] as const;
export const NO_IBAN = 'NO9386011117947';
export const NO_IBAN_BBAN = '86011117947';
export const SE_IBAN = 'SE4550000000058398257466';
export const DE_IBAN = 'DE89370400440532013000';
import { OTHER_PSU_ID, PSU_ID } from './psu-ids.js';

export { OTHER_PSU_ID, PSU_ID };
/** Ola Nordmann's own accounts in the default data set. */
export const OLA_ACCOUNTS = ['15061012343', '15061012351'] as const;
/** KIDs whose check digit holds by one method only: 76543214 by MOD10, 76543216 by MOD11. */
export const KID_MOD10 = '76543214';
export const KID_MOD11 = '76543216';

/** NOK 150 000: above the regulatory reporting threshold, so the reporting fields are present. */
export function crossBorderBody(): Record<string, unknown> {
  return {
    instructedAmount: { amount: '150000.00', currency: 'NOK' },
    creditorName: 'Svenska Leverantör AB',
    creditorAgent: 'ESSESESSXXX',
    creditorAccount: { iban: SE_IBAN, currency: 'SEK' },
    creditorAddress: {
      street: 'Kungsgatan',
      buildingNumber: '1',
      postalCode: '11143',
      city: 'Stockholm',
      country: 'SE',
    },
    debtorAccount: { bban: NO_ACCOUNTS[0], currency: 'NOK' },
    remittanceInformationUnstructured: `Invoice ${randomUUID().slice(0, 8)}`,
    purposeCode: 'SUPP',
    regulatoryReportingCode: '14',
    regulatoryReportingInformation: 'Import of goods',
  };
}

export function bulkEntry(index = 0): Record<string, unknown> {
  return {
    instructedAmount: { amount: `${100 + index}.50`, currency: 'NOK' },
    creditorName: `Kreditor ${index}`,
    creditorAccount: { bban: NO_ACCOUNTS[1 + (index % 5)], currency: 'NOK' },
    creditorAddress: { street: 'Storgata', buildingNumber: '1', postalCode: '0155', city: 'Oslo', country: 'NO' },
    remittanceInformationUnstructured: `Faktura ${index} ${randomUUID().slice(0, 8)}`,
  };
}

export function bulkBody(entries = 2): Record<string, unknown> {
  return {
    paymentInformationId: `PI-${randomUUID().slice(0, 8)}`,
    debtorAccount: { bban: NO_ACCOUNTS[0], currency: 'NOK' },
    payments: Array.from({ length: entries }, (_, i) => bulkEntry(i)),
  };
}

/** The headers a create operation needs besides the signed ones (which the signer adds). */
export function createHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'PSU-ID': PSU_ID,
    'PSU-IP-Address': '192.0.2.10',
    'TPP-Session-ID': randomUUID(),
    'TPP-Redirect-URI': 'https://tpp.example/callback?state=abc',
    'x-accept-fix': 'longer-name',
    'PSU-Context': 'PRIVATE',
    ...extra,
  };
}

/** The real server has no session for the tests' PSU-ID: name the PSU by national identity number. */
export function psuByNationalId(): Record<string, string> {
  const headers = createHeaders({ 'X-PSU-IDENTITY': '13039319955' });
  delete headers['PSU-ID'];
  return headers;
}

/** A cross-border create signed for a server process, ready for fetch; sign it again with the same requestId and body to retry it. */
export interface SignedCreate {
  requestId: string;
  body: string;
  headers: Record<string, string>;
}

export function signedCrossBorderCreate(
  credentials: SigningCredentials,
  retry?: { requestId: string; body: string },
): SignedCreate {
  const body = retry?.body ?? JSON.stringify(crossBorderBody());
  const requestId = retry?.requestId ?? randomUUID();
  const headers = signRequest({
    method: 'POST',
    url: CROSS_BORDER_PATH,
    body,
    requestId,
    headers: { ...psuByNationalId(), 'content-type': 'application/json' },
    credentials,
  });
  return { requestId, body, headers };
}

export interface CreateOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Header names to leave out. */
  without?: string[];
  query?: string;
  requestId?: string;
  as?: CertificateAndKey;
}

export function createCrossBorder(t: TestApp, options: CreateOptions = {}): Promise<LightMyRequestResponse> {
  return create(t, CROSS_BORDER_PATH, options.body ?? crossBorderBody(), options);
}

export function createBulk(t: TestApp, options: CreateOptions = {}): Promise<LightMyRequestResponse> {
  return create(t, BULK_PATH, options.body ?? bulkBody(), options);
}

function create(t: TestApp, path: string, body: unknown, options: CreateOptions): Promise<LightMyRequestResponse> {
  const headers = createHeaders(options.headers);
  if (options.as === t.fixtures.otherTpp && options.headers?.['PSU-ID'] === undefined) headers['PSU-ID'] = OTHER_PSU_ID;
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

/** The tppMessages of an answer by path. */
export function messagesByPath(
  response: LightMyRequestResponse,
): Map<string, { code: string; text: string; category: string }[]> {
  const map = new Map<string, { code: string; text: string; category: string }[]>();
  for (const message of (
    response.json() as { tppMessages?: { path?: string; code: string; text?: string; category: string }[] }
  ).tppMessages ?? []) {
    const list = map.get(message.path ?? '') ?? [];
    list.push({ code: message.code, text: message.text ?? '', category: message.category });
    map.set(message.path ?? '', list);
  }
  return map;
}
