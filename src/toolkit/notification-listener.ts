import type { JSONWebKeySet } from 'jose';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { causeOf } from './cause.js';
import { exchange } from './http-exchange.js';

/**
 * The largest notification body the listener reads, in bytes: the bank's are some 400 bytes (an
 * event id, a resource and its link, a status); 64 KiB is far above any, and a body past it is
 * answered 413 without being read on.
 */
export const LISTENER_MAX_BODY_BYTES = 64 * 1024;
/** How long a request may take to arrive, headers and body: the bank's own try gives up after 10 s (NOTIFICATION_TIMEOUT_MS). */
export const LISTENER_REQUEST_TIMEOUT_MS = 10_000;
/** How long an idle kept-alive connection is held for the bank's next notification. */
export const LISTENER_KEEP_ALIVE_MS = 5_000;
/** Connections held at once: the bank sends at most 32 at a time to one destination per instance (NOTIFICATION_DESTINATION_CONCURRENCY). */
export const LISTENER_MAX_CONNECTIONS = 64;
/** How long reading the bank's JWKS may take. */
export const JWKS_FETCH_TIMEOUT_MS = 10_000;
/** The header the bank signs in (src/security/notification-signer.ts). */
const SIGNATURE_HEADER = 'x-jws-signature';
/** The bank signs with an asymmetric key (ES256, or PS256 with an RSA key); a header naming anything else (HS256, none) is refused. */
const ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'EdDSA'];

/** One notification as the listener tells it: whether its signature holds, and what it says. */
export interface HeardNotification {
  verified: boolean;
  /** Why it was not verified, or was not taken. */
  reason?: string;
  eventId?: string;
  eventType?: string;
  occurredAt?: string;
  resource?: unknown;
  subject?: unknown;
  transactionStatus?: string;
  scaStatus?: string;
  consentStatus?: string;
  last?: boolean;
  /** The path it was sent to. */
  path: string;
  receivedAt: string;
}

export interface NotificationListenerOptions {
  /** The bank's JWKS, e.g. http://127.0.0.1:8080/.well-known/jwks.json. */
  jwksUrl: string;
  port?: number;
  host?: string;
  /** Told of each notification once it is answered (204, 401, 413 or 503). */
  onNotification: (heard: HeardNotification) => void;
}

export interface NotificationListener {
  /** Where it listens, e.g. http://127.0.0.1:40123: the TPP-Notification-URI's origin. */
  url: string;
  close(): Promise<void>;
}

/**
 * A local receiver of the bank's notifications (docs/notifications.md, "In the sandbox"): each POST's
 * X-JWS-Signature is checked as a TPP's own receiver would, a detached JWS over the body's exact bytes
 * with a key of the bank's JWKS (fetched once, and again once when a signature names a key it does
 * not list: a key the bank added since). A verified notification is answered 204, one that is not 401;
 * 503 when the JWKS cannot be read, so that the bank tries again later (docs/decisions/0339).
 */
export async function startNotificationListener(options: NotificationListenerOptions): Promise<NotificationListener> {
  const keys = new JwksCache(options.jwksUrl);
  const server: Server = createServer((request, response) => {
    void hear(request, response, keys).then(options.onNotification, (error: unknown) => {
      response.writeHead(500).end();
      options.onNotification({
        ...heardAt(request),
        verified: false,
        reason: `the listener failed: ${causeOf(error)}`,
      });
    });
  });
  server.requestTimeout = LISTENER_REQUEST_TIMEOUT_MS;
  server.headersTimeout = LISTENER_REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = LISTENER_KEEP_ALIVE_MS;
  server.maxConnections = LISTENER_MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function heardAt(request: IncomingMessage): { path: string; receivedAt: string } {
  return { path: request.url ?? '/', receivedAt: new Date().toISOString() };
}

/** Reads, checks and answers one request; resolves with what it heard once the answer is sent. */
async function hear(request: IncomingMessage, response: ServerResponse, keys: JwksCache): Promise<HeardNotification> {
  const at = heardAt(request);
  const answer = async (status: number, heard: Omit<HeardNotification, 'path' | 'receivedAt'>) => {
    await new Promise<void>((resolve) => {
      // Told once the answer is sent (finish), or its connection gone (close).
      response.once('finish', resolve);
      response.once('close', resolve);
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(heard.reason ?? '');
    });
    return { ...heard, ...at };
  };
  if (request.method !== 'POST') {
    response.setHeader('allow', 'POST');
    return answer(405, { verified: false, reason: `${request.method} is not a notification: the bank POSTs them` });
  }
  const body = await readBody(request);
  if (body === undefined) {
    response.setHeader('connection', 'close');
    return answer(413, { verified: false, reason: `the body is over ${LISTENER_MAX_BODY_BYTES} bytes` });
  }
  const checked = await checkSignature(body, request.headers[SIGNATURE_HEADER], keys);
  if ('unavailable' in checked) return answer(503, { verified: false, reason: checked.unavailable });
  if ('refused' in checked) return answer(401, { ...told(body), verified: false, reason: checked.refused });
  return answer(204, { verified: true, ...told(body) });
}

/** The body, or undefined when it is over LISTENER_MAX_BODY_BYTES (the rest not waited for). */
function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > LISTENER_MAX_BODY_BYTES) return resolve(undefined);
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > LISTENER_MAX_BODY_BYTES) {
        request.removeAllListeners('data');
        request.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** What a notification's body says, as far as it is the bank's JSON; an unverified one is told too, marked so. */
function told(body: Buffer): Omit<HeardNotification, 'verified' | 'path' | 'receivedAt'> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { reason: 'the body is not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { reason: 'the body is not a JSON object' };
  const fields = parsed as Record<string, unknown>;
  const text = (name: string) => (typeof fields[name] === 'string' ? { [name]: fields[name] as string } : {});
  return {
    ...text('eventId'),
    ...text('eventType'),
    ...text('occurredAt'),
    ...(fields.resource === undefined ? {} : { resource: fields.resource }),
    ...(fields.subject === undefined ? {} : { subject: fields.subject }),
    ...text('transactionStatus'),
    ...text('scaStatus'),
    ...text('consentStatus'),
    ...(typeof fields.last === 'boolean' ? { last: fields.last } : {}),
  };
}

type Checked = { ok: true } | { refused: string } | { unavailable: string };

/** Checks X-JWS-Signature, `protected..signature`, over the body's bytes with a key of the bank's JWKS. */
async function checkSignature(body: Buffer, header: string | string[] | undefined, keys: JwksCache): Promise<Checked> {
  if (typeof header !== 'string' || header === '') return { refused: 'no X-JWS-Signature header' };
  const parts = header.split('.');
  if (parts.length !== 3 || parts[1] !== '')
    return { refused: 'X-JWS-Signature is not a detached JWS (protected..signature)' };
  const { flattenedVerify, createLocalJWKSet } = await import('jose');
  const jws = { protected: parts[0]!, payload: body.toString('base64url'), signature: parts[2]! };
  let refetched = false;
  for (;;) {
    const reading = keys.get();
    let set: JSONWebKeySet;
    try {
      set = await reading;
    } catch (error) {
      return { unavailable: `the bank's JWKS could not be read: ${causeOf(error)}` };
    }
    try {
      await flattenedVerify(jws, createLocalJWKSet(set), { algorithms: ALGORITHMS });
      return { ok: true };
    } catch (error) {
      const code = (error as { code?: string }).code;
      // A key the bank added since the JWKS was read: read it again, once.
      if (code === 'ERR_JWKS_NO_MATCHING_KEY' && !refetched) {
        refetched = true;
        keys.refresh(reading);
        continue;
      }
      return { refused: refusalOf(code, error) };
    }
  }
}

function refusalOf(code: string | undefined, error: unknown): string {
  switch (code) {
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'the signature does not match the body (changed, or signed by another key)';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return "the signature names a key the bank's JWKS does not list";
    default:
      return `the signature cannot be checked: ${causeOf(error)}`;
  }
}

/** The bank's JWKS, read once and shared; read again when asked (a key it did not list), a failed read tried again next time. */
class JwksCache {
  private current: Promise<JSONWebKeySet> | undefined;

  constructor(private readonly url: string) {}

  get(): Promise<JSONWebKeySet> {
    if (this.current === undefined) {
      const reading = this.read();
      this.current = reading;
      reading.catch(() => {
        if (this.current === reading) this.current = undefined;
      });
    }
    return this.current;
  }

  /** The next `get` reads the JWKS again, unless another request had it read again already since `stale`. */
  refresh(stale: Promise<JSONWebKeySet>): void {
    if (this.current === stale) this.current = undefined;
  }

  private async read(): Promise<JSONWebKeySet> {
    const answer = await exchange({ method: 'GET', url: this.url, timeout: JWKS_FETCH_TIMEOUT_MS });
    if (answer.status !== 200) throw new Error(`GET ${this.url} answered ${answer.status}`);
    const set = JSON.parse(answer.text) as { keys?: unknown };
    if (!Array.isArray(set.keys)) throw new Error(`${this.url} is not a JWKS (it has no keys)`);
    return set as JSONWebKeySet;
  }
}
