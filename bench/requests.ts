import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createCertificateAuthority,
  issueTppCertificate,
  type CertificateAndKey,
} from '../src/toolkit/certificate-factory.js';
import { signRequest } from '../src/toolkit/request-signer.js';
import { nextFnr } from '../test/support/norwegian-numbers.js';
import type { PreparedRequest } from './load.js';
import { SMOKE, SMOKE_POOL } from './smoke.js';

/** The requests a benchmark sends, signed ahead so that the load process measures the server and not its own signing. */
export const CREATE_PATH = '/v1/payments/norwegian-cross-border-credit-transfers';
export const BULK_PATH = '/v1/bulk-payments/norwegian-domestic-credit-transfers';
export const NDCT_PATH = '/v1/payments/norwegian-domestic-credit-transfers';

/** A fresh CA (written to `caFile`, for the server's TRUSTED_CA_CERTS) and a TPP certificate it issued. */
/** The bench TPP's organisation identifier: its sandbox bank's name (services/banks.ts). */
export const BENCH_TPP_ORGANISATION = 'PSDNO-FSA-123456789';

export interface BenchTpp {
  work: string;
  caFile: string;
  credentials: CertificateAndKey;
}

export async function benchTpp(): Promise<BenchTpp> {
  const work = mkdtempSync(join(tmpdir(), 'psd2-bench-'));
  const ca = await createCertificateAuthority({ commonName: 'Bench CA' });
  const credentials = await issueTppCertificate({
    issuer: ca,
    roles: ['PSP_PI', 'PSP_AI'],
    organisationId: BENCH_TPP_ORGANISATION,
    name: 'Bench TPP',
  });
  const caFile = join(work, 'ca.pem');
  writeFileSync(caFile, ca.certPem);
  return { work, caFile, credentials };
}

const CREATE_HEADERS = {
  'content-type': 'application/json',
  'PSU-Context': 'PRIVATE',
  'PSU-IP-Address': '192.0.2.10',
  'TPP-Redirect-URI': 'https://tpp.example/cb',
  'x-accept-fix': 'longer-name',
};

/**
 * The PSUs the creates are made for, by turns: a TPP's traffic is many customers' payments. Creates
 * for one PSU are serialised (the logical-duplicate check takes a lock per PSU), which on PostgreSQL
 * holds each for its round trips: one PSU alone reached 146 creates/s there, 64 PSUs 333.
 */
const PSUS = Array.from({ length: 64 }, () => nextFnr());

function signedPost(credentials: CertificateAndKey, path: string, payload: unknown, n: number): PreparedRequest {
  const body = JSON.stringify(payload);
  const headers = signRequest({
    method: 'POST',
    url: path,
    credentials,
    body,
    headers: { ...CREATE_HEADERS, 'X-PSU-IDENTITY': PSUS[Math.abs(n) % PSUS.length]!, 'TPP-Session-ID': randomUUID() },
  });
  return { method: 'POST', path, headers, body };
}

/** A signed cross-border create of NOK 150 000, unique by its remittance text. */
export function createRequest(credentials: CertificateAndKey, n: number): PreparedRequest {
  return signedPost(
    credentials,
    CREATE_PATH,
    {
      instructedAmount: { amount: '150000.00', currency: 'NOK' },
      creditorName: 'Svenska Leverantör AB',
      creditorAgent: 'ESSESESSXXX',
      creditorAccount: { iban: 'SE4550000000058398257466', currency: 'SEK' },
      debtorAccount: { bban: '15061012343', currency: 'NOK' },
      remittanceInformationUnstructured: `Invoice ${n} ${randomUUID().slice(0, 8)}`,
      regulatoryReportingCode: '14',
      regulatoryReportingInformation: 'Import of goods',
    },
    n,
  );
}

/** Creditor accounts with a valid MOD11 check digit. */
const CREDITORS = ['12345678903', '12345678911', '12345678938', '12345678946', '12345678954', '12345678962'];

/** A signed bulk create of `entries` domestic transfers. */
export function bulkRequest(credentials: CertificateAndKey, n: number, entries: number): PreparedRequest {
  const tag = randomUUID().slice(0, 8);
  return signedPost(
    credentials,
    BULK_PATH,
    {
      paymentInformationId: `PI-${n}-${tag}`,
      debtorAccount: { bban: '15061012343', currency: 'NOK' },
      payments: Array.from({ length: entries }, (_, i) => ({
        instructedAmount: { amount: `${1 + (i % 500)}.50`, currency: 'NOK' },
        creditorName: `Kreditor ${i}`,
        creditorAccount: { bban: CREDITORS[i % CREDITORS.length], currency: 'NOK' },
        creditorAddress: { street: 'Storgata', buildingNumber: '1', postalCode: '0155', city: 'Oslo', country: 'NO' },
        remittanceInformationUnstructured: `Faktura ${n}-${i} ${tag}`,
      })),
    },
    n,
  );
}

/** A signed single domestic credit transfer (NDCT) create with a KID, unique by its amount and creditor. */
export function ndctRequest(credentials: CertificateAndKey, n: number): PreparedRequest {
  return signedPost(
    credentials,
    NDCT_PATH,
    {
      instructedAmount: {
        amount: `${1 + (Math.abs(n) % 100_000)}.${String(Math.abs(n) % 97).padStart(2, '0')}`,
        currency: 'NOK',
      },
      creditorName: 'Kreditor AS',
      creditorAccount: { bban: CREDITORS[Math.abs(n) % CREDITORS.length], currency: 'NOK' },
      debtorAccount: { bban: '15061012343', currency: 'NOK' },
      remittanceInformationStructuredArray: [{ reference: KIDS[Math.abs(n) % KIDS.length], referenceType: 'SCOR' }],
      endToEndIdentification: `E2E-${n}-${randomUUID().slice(0, 8)}`,
    },
    n,
  );
}

/** KIDs with a valid MOD10 or MOD11 check digit; the duplicate key still differs by amount and creditor. */
const KIDS = ['76543214', '76543216', '12345674', '00000000000000000'];

/**
 * Creates one payment on the server (the create request of index `n`) and gives its id: the payment
 * a status read row reads. A create that is not answered 201 fails the row.
 */
export async function createdPaymentId(url: string, credentials: CertificateAndKey, n: number): Promise<string> {
  const one = createRequest(credentials, n);
  const created = await fetch(`${url}${CREATE_PATH}`, { method: one.method, headers: one.headers, body: one.body! });
  if (created.status !== 201)
    throw new Error(`the payment to read answered ${created.status}: ${await created.text()}`);
  return ((await created.json()) as { paymentId: string }).paymentId;
}

/** A signed status read of one payment. */
export function readRequest(credentials: CertificateAndKey, paymentId: string): PreparedRequest {
  const path = `${CREATE_PATH}/${paymentId}/status`;
  return { method: 'GET', path, headers: signRequest({ method: 'GET', url: path, credentials }) };
}

/**
 * Requests for a load of `seconds` at up to three times the warm-up's rate (the warm-up's second runs
 * code not yet optimised: the load went up to 1.7 times as fast on one machine and 1.8 on another, and
 * a profiled server's further), and never fewer than `least`: a request sent twice is a retry,
 * answered from what was stored (the floor answers it 500), and would inflate the figure (on a VM
 * twice as fast, a fixed pool of 1 500 bulks ran out at 521 bulks/s; a fixed 20 000 creates, at 6 500
 * a second on the floor). runLoad's `sent` tells whether one ran out all the same.
 */
export const poolForLoad = (warmUpRate: number, seconds: number, least: number): number =>
  Math.max(least, Math.ceil(warmUpRate * seconds * 3));

/** `size` requests made ahead of a load; in a smoke run no more than SMOKE_POOL (bench/smoke.ts). */
export function pool<T>(size: number, make: (i: number) => T): T[] {
  return Array.from({ length: SMOKE ? Math.min(size, SMOKE_POOL) : size }, (_, i) => make(i));
}

/** A signed page of `limit` transactions of a sandbox account from `offset` (posting order). */
export function listingRequest(
  credentials: CertificateAndKey,
  accountId: string,
  offset: number,
  limit: number,
): PreparedRequest {
  const path = `/v1/sandbox/accounts/${accountId}/transactions?offset=${offset}&limit=${limit}`;
  return { method: 'GET', path, headers: signRequest({ method: 'GET', url: path, credentials }) };
}
