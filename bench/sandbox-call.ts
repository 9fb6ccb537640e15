import type { CertificateAndKey } from '../src/toolkit/certificate-factory.js';
import { signRequest } from '../src/toolkit/request-signer.js';

/**
 * One signed call of the sandbox API (or another, with `extraHeaders`), signed when sent (for a bench's set-up, not its load). A POST
 * carries a Digest, of its JSON body or of the empty body. Throws unless the answer is `expect`.
 */
export async function sandboxCall<T>(
  baseUrl: string,
  credentials: CertificateAndKey,
  method: 'GET' | 'POST',
  path: string,
  expect: number,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = signRequest({
    method,
    url: path,
    credentials,
    digest: method === 'POST',
    headers: extraHeaders,
    ...(text === undefined ? {} : { body: text }),
  });
  if (text !== undefined) headers['content-type'] = 'application/json';
  const answer = await fetch(`${baseUrl}${path}`, { method, headers, ...(text === undefined ? {} : { body: text }) });
  const received = await answer.text();
  if (answer.status !== expect)
    throw new Error(`${method} ${path}: ${answer.status}, expected ${expect}: ${received.slice(0, 500)}`);
  return JSON.parse(received) as T;
}
