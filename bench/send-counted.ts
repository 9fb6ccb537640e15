import autocannon from 'autocannon';
import type { CertificateAndKey } from '../src/toolkit/certificate-factory.js';
import { type PreparedRequest, sending } from './load.js';
import { createRequest, createdPaymentId, readRequest } from './requests.js';

/** Requests in flight while a counted number is sent: the loads' own (load.ts). */
const CONNECTIONS = 16;

/**
 * Sends exactly `count` requests made by `make`, CONNECTIONS at a time, each expected to succeed:
 * through autocannon as the bench's loads, so that the server reads the same bytes (fetch would add
 * Accept, Accept-Encoding and more, which the server then negotiates). For the tools that measure
 * work per answer over a counted window, not a rate over a timed one.
 */
export async function sendCounted(url: string, count: number, make: () => PreparedRequest): Promise<void> {
  let failed = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount: count,
    timeout: 600,
    requests: [
      {
        setupRequest: (request) => sending(request, make()),
        onResponse: (status) => {
          if (status >= 300) failed += 1;
        },
      },
    ],
  });
  failed += result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${failed} of ${count} requests were not answered with success`);
}

/** A positive whole number given to `tool` on the command line or in the environment. */
export function countOf(tool: string, text: string, what: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`${tool}: ${what} must be a whole number from 1, not ${text}`);
  return value;
}

/**
 * Warms a server up for a counted row: `warmUp` creates, and for a status read a payment to read and
 * as many reads of it. Returns what makes each of the row's next requests, for the window counted.
 */
export async function warmedUpRow(
  url: string,
  credentials: CertificateAndKey,
  read: boolean,
  warmUp: number,
): Promise<() => PreparedRequest> {
  let n = 0;
  await sendCounted(url, warmUp, () => createRequest(credentials, n++));
  if (!read) return () => createRequest(credentials, n++);
  const paymentId = await createdPaymentId(url, credentials, 999_999);
  const next = () => readRequest(credentials, paymentId);
  await sendCounted(url, warmUp, next);
  return next;
}
