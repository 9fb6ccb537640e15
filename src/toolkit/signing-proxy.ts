import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { causeOf } from './cause.js';
import { exchange } from './http-exchange.js';
import { type SigningCredentials, signRequest } from './request-signer.js';

/** The largest body the proxy takes from its client: twice the largest the bank takes (a bulk's), so the bank answers an oversized body itself. */
export const PROXY_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The vendor's developer kit listens here: a TPP's tools already point at it. */
export const PROXY_DEFAULT_PORT = 8731;

export interface SigningProxyOptions {
  /** The bank's address, e.g. http://127.0.0.1:8080 (a path of its own is kept in front of each request's). */
  upstream: string;
  credentials: SigningCredentials;
  port?: number;
  host?: string;
}

export interface SigningProxy {
  /** Where the proxy listens, e.g. http://127.0.0.1:8731. */
  url: string;
  close(): Promise<void>;
}

/** Headers of one connection (RFC 9110, 7.6.1), and those the proxy makes itself: never forwarded as the client sent them. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
  'date',
  'digest',
  'signature',
  'tpp-signature-certificate',
]);

/** Headers of the bank's answer that belong to one connection, or that the proxy sets itself: the length of what it sends back (it asks the bank for no content coding). */
const NOT_ANSWERED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'content-length']);

/**
 * A local signing proxy (README, "Any HTTP tool"): plain HTTP in, signed requests out. Postman, Bruno,
 * curl or the TPP's own application sends to it as if the bank needed no signature; the proxy adds
 * Date, X-Request-ID (when the client sent none), Digest, TPP-Signature-Certificate and Signature
 * over the headers the platform requires, and passes the bank's answer back unchanged but for its
 * addresses: each absolute link to the bank (an scaRedirect, a Location) is rewritten to the proxy, so
 * that following it goes through the proxy too. Only the API (/v1, the sandbox's /api-sandbox) is
 * signed; the bank's pages (SCA, console, /docs) pass as they are.
 */
export async function startSigningProxy(options: SigningProxyOptions): Promise<SigningProxy> {
  const upstream = new URL(options.upstream);
  const base = upstream.href.replace(/\/+$/, '');
  let self = '';
  const server: Server = createServer((request, response) => {
    forward(request, response, { base, origin: upstream.origin, self, credentials: options.credentials }).catch(
      (error: unknown) => answerError(response, 502, `the signing proxy could not reach ${base}: ${causeOf(error)}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? PROXY_DEFAULT_PORT, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  self = `http://${host}:${address.port}`;
  return {
    url: self,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface Route {
  base: string;
  origin: string;
  self: string;
  credentials: SigningCredentials;
}

async function forward(request: IncomingMessage, response: ServerResponse, route: Route): Promise<void> {
  const body = await readBody(request);
  if (body === 'too-large')
    return answerError(response, 413, `the signing proxy takes bodies of at most ${PROXY_MAX_BODY_BYTES} bytes`);
  const method = (request.method ?? 'GET').toUpperCase();
  const path = request.url ?? '/';
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const sent = body.length > 0 ? body : undefined;
  if (sent !== undefined) headers['content-type'] ??= 'application/json';
  const url = `${route.base}${path}`;
  const signed = isApi(path)
    ? signRequest({ method, url, headers, body: sent, credentials: route.credentials, digest: true })
    : headers;
  const answer = await exchange({ method, url, headers: signed, body: sent });
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || NOT_ANSWERED.has(name)) continue;
    out[name] = typeof value === 'string' ? rewrite(value, route) : value; // set-cookie, a list, as it is
  }
  const json = (answer.headers['content-type'] ?? '').includes('json');
  const payload = json ? Buffer.from(rewrite(answer.text, route), 'utf8') : answer.body;
  response.writeHead(answer.status, { ...out, 'content-length': String(payload.length) });
  response.end(payload);
}

/** The bank's operations that are signed: the others (pages, health, the certificate a TPP asks for first) are not. */
function isApi(path: string): boolean {
  return /^\/(v1|api-sandbox\/v1)\//.test(path) && !path.startsWith('/v1/sandbox/certificates');
}

/** Addresses of the bank, in a header's value or a JSON body's text, as the proxy's. */
function rewrite(text: string, route: Route): string {
  return route.origin === route.self ? text : text.split(route.origin).join(route.self);
}

/** The body, or 'too-large' once it passes the limit: the rest is read and dropped, so that the client still gets its answer. */
function readBody(request: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    request.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length <= PROXY_MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(length > PROXY_MAX_BODY_BYTES ? 'too-large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function answerError(response: ServerResponse, status: number, text: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = JSON.stringify({ tppMessages: [{ category: 'ERROR', code: 'PROXY_ERROR', text }] });
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}
