import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { requestTargetOf } from './request-target.js';

export interface HttpExchangeRequest {
  method: string;
  url: string | URL;
  headers?: Record<string, string>;
  /** Sent byte for byte, with its Content-Length. */
  body?: string | Uint8Array;
  /** Gives up (the whole exchange, answer included) when the signal aborts, or after this many ms. */
  timeout?: AbortSignal | number;
}

export interface HttpExchangeAnswer {
  status: number;
  /** Names in lower case; set-cookie as a list, one entry a cookie. */
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body as UTF-8. */
  readonly text: string;
}

const utf8 = new TextDecoder();

/**
 * One HTTP(S) request and its whole answer, whatever its status; a redirect is returned, not followed.
 * The toolkit's commands are short-lived processes: Node's global fetch loads undici on first use,
 * about 0.3 s of a `tpp call` on Node 20 that otherwise takes less, where node:http is loaded already. No
 * compression is asked for, so the body is the bytes the server meant. A failure rejects with Node's
 * own error, which names what failed and where ("connect ECONNREFUSED 127.0.0.1:8080"); an abort's
 * error has the signal's reason (a timeout) as its cause.
 */
export async function exchange(request: HttpExchangeRequest): Promise<HttpExchangeAnswer> {
  const url = new URL(request.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`${url.href} is not an http: or https: address`);
  // node:https, and TLS with it, is loaded for an https address only: a sandbox on this machine is http.
  const send = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  return new Promise((resolve, reject) => {
    const signal = typeof request.timeout === 'number' ? AbortSignal.timeout(request.timeout) : request.timeout;
    const options = {
      method: request.method.toUpperCase(),
      path: requestTargetOf(typeof request.url === 'string' ? request.url : request.url.href),
      headers: withContentLength(request.headers, request.body),
      signal,
    };
    const outgoing = send(url, options, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A connection closed before the answer's end: a reset, or the timeout.
      answer.on('error', (error) => reject(new Error(`the answer from ${url.origin} was cut off`, { cause: error })));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: answer.statusCode ?? 0,
          headers: answer.headers,
          body,
          get text() {
            return utf8.decode(body);
          },
        });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/**
 * The headers with the body's length: Node sends a DELETE's (or a GET's) body with neither a length
 * nor chunks, which no server can read as HTTP/1.1. Any Content-Length of the caller's is replaced.
 */
function withContentLength(
  headers: Record<string, string> | undefined,
  body: string | Uint8Array | undefined,
): Record<string, string> | undefined {
  if (body === undefined) return headers;
  const kept = Object.entries(headers ?? {}).filter(([name]) => name.toLowerCase() !== 'content-length');
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  return { ...Object.fromEntries(kept), 'content-length': String(length) };
}
