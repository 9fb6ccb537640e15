import type { IncomingHttpHeaders } from 'node:http';
import { exchange } from './http-exchange.js';
import { type SignOptions, signRequest } from './request-signer.js';

export interface SignedResponse {
  status: number;
  /** Names in lower case; set-cookie as a list. */
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON when it is JSON, else the text. */
  body: unknown;
}

/** Signs a request as the bank expects and sends it; the answer is returned whatever its status. */
export async function sendSignedRequest(options: SignOptions & { url: string }): Promise<SignedResponse> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : Buffer.from(options.body);
  const headers = signRequest({ ...options, body });
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  headers['accept'] ??= 'application/json';
  const response = await exchange({ method: options.method, url: options.url, headers, body });
  const text = response.text;
  let parsed: unknown = text;
  if ((response.headers['content-type'] ?? '').includes('json') && text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, headers: response.headers, body: parsed };
}
