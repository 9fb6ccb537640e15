import { type SignOptions, signRequest } from './request-signer.js';

export interface SignedResponse {
  status: number;
  headers: Record<string, string>;
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
  const response = await fetch(options.url, {
    method: options.method.toUpperCase(),
    headers,
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, headers: Object.fromEntries(response.headers.entries()), body: parsed };
}
