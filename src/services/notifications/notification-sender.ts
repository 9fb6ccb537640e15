import { lookup as dnsLookup } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { isIP } from 'node:net';
import { type DestinationPolicy, refusedDestination } from '../../domain/notifications/destination-policy.js';
import { NOTIFICATION_ANSWER_READ_BYTES, NOTIFICATION_TIMEOUT_MS } from '../../domain/limits.js';

/** What came of one try: the answer's status and first bytes, or why none came. */
export interface SendResult {
  status?: number;
  answer?: string;
  error?: string;
  durationMs: number;
}

/** Sends one signed notification; a send never throws, it says what happened. */
export type NotificationSend = (uri: string, body: string, headers: Record<string, string>) => Promise<SendResult>;

/**
 * POSTs a notification to the TPP's URI (docs/notifications.md, "Delivery"). The host's name is
 * resolved once per try, every address it gives is judged by the destination policy, and the
 * connection goes to the address judged, so a name that resolves elsewhere the next moment (DNS
 * rebinding) changes nothing. An address literal is judged as it is. No redirect is followed: a 3xx
 * is an answer that is not 2xx, and is retried. The try ends after NOTIFICATION_TIMEOUT_MS whatever
 * the TPP's endpoint does, and reads at most NOTIFICATION_ANSWER_READ_BYTES of its answer.
 */
export function notificationSender(
  policy: DestinationPolicy,
  timeoutMs = NOTIFICATION_TIMEOUT_MS,
  /** The resolver (the system's; a test's, to see what is asked and answer as a rebinding name would). */
  resolve: typeof dnsLookup = dnsLookup,
): NotificationSend {
  return (uri, body, headers) => send({ policy, timeoutMs, resolve }, uri, body, headers);
}

interface SendSettings {
  policy: DestinationPolicy;
  timeoutMs: number;
  resolve: typeof dnsLookup;
}

/**
 * Connections kept for the next tries to the same address: the pool is keyed by the address judged
 * (and for https the name, its SNI and the name its certificate is checked against), so a try on a
 * kept connection goes where this try's own resolution said.
 */
const KEEP_ALIVE = { keepAlive: true, maxFreeSockets: 8, timeout: NOTIFICATION_TIMEOUT_MS };
const httpAgent = new HttpAgent(KEEP_ALIVE);
let tls: { agent: import('node:https').Agent; request: typeof import('node:https').request } | undefined;
/**
 * node:https, and TLS with it, loaded at the first https notification rather than at every start,
 * where it was some 10 ms (bench/history.md, "Modules a start loaded for nothing").
 */
function httpsOnFirstUse(): NonNullable<typeof tls> {
  if (tls === undefined) {
    const https = process.getBuiltinModule('node:https');
    tls = { agent: new https.Agent(KEEP_ALIVE), request: https.request };
  }
  return tls;
}

async function send(
  { policy, timeoutMs, resolve: resolver }: SendSettings,
  uri: string,
  body: string,
  headers: Record<string, string>,
): Promise<SendResult> {
  const started = performance.now();
  const done = (result: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...result,
    durationMs: performance.now() - started,
  });
  const url = new URL(uri);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const address = isIP(host) !== 0 ? judged(host, policy) : await resolved(host, policy, resolver);
  if ('refused' in address) return done({ error: address.refused });
  const https = url.protocol === 'https:';
  return new Promise((resolve) => {
    const options = {
      method: 'POST',
      protocol: url.protocol,
      host: address.ip,
      family: address.family,
      port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      // The name, not the address, is what the TPP's server and certificate know.
      ...(https && isIP(host) === 0 ? { servername: host } : {}),
      headers: { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) },
      timeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
      agent: https ? httpsOnFirstUse().agent : httpAgent,
    };
    const request = (https ? httpsOnFirstUse().request : httpRequest)(options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        resolve(
          done({
            status: response.statusCode ?? 0,
            answer: Buffer.concat(chunks).subarray(0, NOTIFICATION_ANSWER_READ_BYTES).toString('utf8'),
          }),
        );
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        // The rest is not waited for: the connection is not kept.
        if (size >= NOTIFICATION_ANSWER_READ_BYTES) {
          response.destroy();
          finish();
        }
      });
      response.on('end', finish);
      response.on('error', finish);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', (error) => resolve(done({ error: reasonOf(error, timeoutMs) })));
    request.end(body);
  });
}

type Judged = { ip: string; family: number } | { refused: string };

function judged(ip: string, policy: DestinationPolicy): Judged {
  const refused = refusedDestination(ip, policy);
  return refused === undefined ? { ip, family: isIP(ip) } : { refused };
}

/** Resolves the name once, and takes the first address the policy allows; none allowed is why. */
function resolved(hostname: string, policy: DestinationPolicy, resolver: typeof dnsLookup): Promise<Judged> {
  return new Promise((resolve) => {
    resolver(hostname, { all: true }, (error, addresses) => {
      if (error !== null) return resolve({ refused: reasonOf(error, 0) });
      const list = addresses as unknown as { address: string; family: number }[];
      const allowed = list.find((a) => refusedDestination(a.address, policy) === undefined);
      if (allowed !== undefined) return resolve({ ip: allowed.address, family: allowed.family });
      resolve({
        refused: list.length === 0 ? `${hostname} has no address` : refusedDestination(list[0]!.address, policy)!,
      });
    });
  });
}

function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
    return `no answer within ${timeoutMs} ms`;
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined || message.includes(code) ? message : `${code}: ${message}`;
}
