import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
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

function send(
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
  if (isIP(host) !== 0) {
    const refused = refusedDestination(host, policy);
    if (refused !== undefined) return Promise.resolve(done({ error: refused }));
  }
  return new Promise((resolve) => {
    const options = {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup(policy, resolver),
      timeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
      agent: false as const,
    };
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        response.destroy();
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
        if (size >= NOTIFICATION_ANSWER_READ_BYTES) finish();
      });
      response.on('end', finish);
      response.on('error', finish);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', (error) => resolve(done({ error: reasonOf(error, timeoutMs) })));
    request.end(body);
  });
}

/** Resolves the name once, and hands the connection the first address the policy allows; none allowed is an error. */
function guardedLookup(policy: DestinationPolicy, resolver: typeof dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, '', 0);
      const list = addresses as unknown as { address: string; family: number }[];
      const allowed = list.find((a) => refusedDestination(a.address, policy) === undefined);
      if (allowed === undefined) {
        const why = list.length === 0 ? `${hostname} has no address` : refusedDestination(list[0]!.address, policy)!;
        return callback(Object.assign(new Error(why), { code: 'DESTINATION_REFUSED' }), '', 0);
      }
      // Node asks with all: true on its own (autoSelectFamily); it then expects the list form.
      if ((options as { all?: boolean }).all === true)
        return (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [allowed]);
      callback(null, allowed.address, allowed.family);
    });
  };
}

function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
    return `no answer within ${timeoutMs} ms`;
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined || message.includes(code) ? message : `${code}: ${message}`;
}
