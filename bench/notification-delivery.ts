import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { type Server, createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { parseCertificate, readPemCertificates } from '../src/security/tpp-certificate.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { signRequest } from '../src/toolkit/request-signer.js';
import { duplicateKeyOf, newPayment, requestFor } from '../test/support/new-payment.js';
import { type BenchServer, SERVER_BUNDLE, benchPort, sqliteSandboxEnv, startBenchServer } from './bench-server.js';
import { type BenchTpp, benchTpp } from './requests.js';

export interface NotificationFigures {
  /** Notifications waiting when the server started, delivered from its first to its last. */
  backlog: number;
  deliveredPerSecond: number;
  /** Status changes made one at a time (cancels), each told as it happened. */
  changes: number;
  /** From an event's write (its created_at, in the transaction of the change) to its receipt. */
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /** Every event written was received, none twice. */
  allDelivered: boolean;
}

/**
 * Destinations (ports of the local receiver) the payments' subscriptions are spread over: one
 * destination is held to NOTIFICATION_DESTINATION_RATE_PER_SECOND (100) tries a second per instance,
 * by design, so the bank's own rate shows only over many TPPs' endpoints.
 */
export const NOTIFICATION_DESTINATIONS = 32;
const PRODUCT = 'norwegian-cross-border-credit-transfers';
/** The pace of the measured cancels: one every 20 ms, a steady trickle, not a queue. */
const CHANGE_EVERY_MS = 20;

/**
 * The relay against the real server process (SQLite), with a quick local receiver (204 at once) on
 * NOTIFICATION_DESTINATIONS ports: `backlog` subscribed payments accepted (ACTC) before the server
 * starts, so that their notifications wait in the outbox, then delivered; the rate counts from the
 * first receipt to the last. Then `changes` subscribed payments cancelled one at a time through the
 * API (DELETE, signed), each notification's delay from its write to its receipt.
 */
export async function measureNotificationDelivery(
  tpp: BenchTpp,
  options: { backlog: number; changes: number; port: number },
): Promise<NotificationFigures> {
  const dir = mkdtempSync(join(tpp.work, 'notify-'));
  const file = join(dir, 'psd2.db');
  const receiver = await startReceiver(NOTIFICATION_DESTINATIONS);
  let server: BenchServer | undefined;
  try {
    const tppId = parseCertificate(readPemCertificates(tpp.credentials.certPem)[0]!).organisationId!;
    const store = SqliteStore.open(file);
    await store.migrate();
    const backlogIds = await seed(store, tppId, options.backlog, receiver.uris, 'backlog');
    const changeIds = await seed(store, tppId, options.changes, receiver.uris, 'change');
    await store.decidePayments(
      backlogIds.map((paymentId) => ({ paymentId, status: 'ACTC', reason: undefined })),
      undefined,
      new Date(),
    );
    await store.close();

    server = await startBenchServer(SERVER_BUNDLE, options.port, sqliteSandboxEnv(dir, tpp.caFile));
    await receiver.until(options.backlog);
    const times = receiver.received.map((r) => r.at);
    const deliveredPerSecond = ((options.backlog - 1) * 1000) / (Math.max(...times) - Math.min(...times));
    const firstChange = receiver.received.length;
    for (const id of changeIds) {
      const paced = new Promise((resolve) => setTimeout(resolve, CHANGE_EVERY_MS));
      await cancel(server.url, tpp, id);
      await paced;
    }
    await receiver.until(options.backlog + options.changes);
    await server.stop();
    server = undefined;
    const written = eventsWritten(file);
    const delays = receiver.received
      .slice(firstChange)
      .map((r) => r.at - Date.parse(written.get(r.eventId) ?? 'NaN'))
      .sort((a, b) => a - b);
    const ids = new Set(receiver.received.map((r) => r.eventId));
    const allDelivered =
      ids.size === receiver.received.length && ids.size === written.size && [...ids].every((id) => written.has(id));
    if (!allDelivered)
      process.stderr.write(
        `notifications: ${receiver.received.length} received, ${ids.size} ids, ${written.size} written\n`,
      );
    return {
      backlog: options.backlog,
      deliveredPerSecond,
      changes: options.changes,
      latencyP50Ms: quantile(delays, 0.5),
      latencyP99Ms: quantile(delays, 0.99),
      latencyMaxMs: delays.at(-1) ?? Number.NaN,
      allDelivered,
    };
  } finally {
    await server?.stop();
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** `count` payments of the bench TPP, RCVD, each subscribed (PROCESS) at one of `uris` by turns, stored 200 at a time. */
async function seed(store: SqliteStore, tppId: string, count: number, uris: string[], label: string) {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 200) {
    const payments = Array.from({ length: Math.min(200, count - i) }, (_, j) => {
      const base = newPayment();
      return newPayment({
        tppId,
        psuKey: `psu:${label}-${i + j}`,
        transfers: [{ ...base.transfers[0]!, duplicateKey: duplicateKeyOf(`${label}-${i + j}`) }],
      });
    });
    await Promise.all(
      payments.map((payment, j) =>
        store.createPayment(
          payment,
          {
            ...requestFor(payment),
            subscription: {
              resource: { kind: 'payment', id: payment.id },
              uri: uris[(i + j) % uris.length]!,
              content: ['PROCESS'],
            },
          },
          { duplicatesSince: null, bank: tppId },
        ),
      ),
    );
    ids.push(...payments.map((p) => p.id));
  }
  return ids;
}

/** A signed DELETE of a RCVD payment: cancelled at once (204), a status change that writes its notification. */
async function cancel(baseUrl: string, tpp: BenchTpp, paymentId: string): Promise<void> {
  const url = `/v1/payments/${PRODUCT}/${paymentId}`;
  const headers = signRequest({ method: 'DELETE', url, credentials: tpp.credentials, digest: false });
  const answer = await fetch(`${baseUrl}${url}`, { method: 'DELETE', headers });
  if (answer.status !== 204) throw new Error(`DELETE ${url}: ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
}

/** Each event's created_at (the wall clock of its write), by event id. */
function eventsWritten(file: string): Map<string, string> {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const rows = db.prepare('select event_id, created_at from notification_events').raw().all() as [string, string][];
    return new Map(rows);
  } finally {
    db.close();
  }
}

interface Receiver {
  uris: string[];
  received: { eventId: string; at: number }[];
  /** Resolves once `count` notifications were received; throws after a bound (a run that lost some). */
  until(count: number): Promise<void>;
  stop(): Promise<void>;
}

/** A quick TPP endpoint on `ports` ports of 127.0.0.1: 204 at once, each receipt's wall-clock time noted. */
async function startReceiver(ports: number): Promise<Receiver> {
  const received: Receiver['received'] = [];
  let waiter: { count: number; resolve: () => void } | undefined;
  const servers: Server[] = [];
  for (let i = 0; i < ports; i++) {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const at = Date.now();
        response.writeHead(204).end();
        received.push({ eventId: (JSON.parse(Buffer.concat(chunks).toString()) as { eventId: string }).eventId, at });
        if (waiter !== undefined && received.length >= waiter.count) waiter.resolve();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(server);
  }
  return {
    uris: servers.map((s) => `http://127.0.0.1:${(s.address() as { port: number }).port}/notifications`),
    received,
    until: (count) =>
      received.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new Error(`notifications: ${received.length} of ${count} received within 120 s`)),
              120_000,
            );
            waiter = {
              count,
              resolve: () => {
                clearTimeout(timer);
                resolve();
              },
            };
          }),
    stop: async () => {
      for (const server of servers) {
        server.closeAllConnections();
        server.close();
      }
    },
  };
}

/** The rows of `npm run bench`'s table. */
export function notificationRows(
  results: NotificationFigures[],
  fmt: (values: number[], digits?: number) => string,
): [string, string, string][] {
  const ok = results.every((r) => r.allDelivered) ? 'every one, once' : 'NO';
  return [
    [
      `Notifications delivered to a local receiver (${NOTIFICATION_DESTINATIONS} endpoints), per s`,
      fmt(results.map((r) => r.deliveredPerSecond)),
      `a backlog of ${results[0]?.backlog ?? 0} drained by one server (SQLite); delivered: ${ok}; goal ≥ 2 000`,
    ],
    [
      'Notification p99 from status change to delivery, ms',
      fmt(
        results.map((r) => r.latencyP99Ms),
        1,
      ),
      `p50 ${fmt(
        results.map((r) => r.latencyP50Ms),
        1,
      )}, max ${fmt(results.map((r) => r.latencyMaxMs))}; ${results[0]?.changes ?? 0} cancels one every ${CHANGE_EVERY_MS} ms, a quick receiver; goal < 200`,
    ],
  ];
}

// On its own: `npm run build && node dist/bench/notification-delivery.js [backlog] [changes]`.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const backlog = Number(process.argv[2] ?? 20_000);
  const changes = Number(process.argv[3] ?? 500);
  const tpp = await benchTpp();
  try {
    const f = await measureNotificationDelivery(tpp, { backlog, changes, port: benchPort(8) });
    process.stdout.write(
      `notifications: ${Math.round(f.deliveredPerSecond)}/s over a backlog of ${backlog}; from change to delivery p50 ${f.latencyP50Ms} ms, p99 ${f.latencyP99Ms} ms, max ${f.latencyMaxMs} ms over ${changes}; all delivered once: ${f.allDelivered ? 'yes' : 'NO'}\n`,
    );
    if (!f.allDelivered) process.exitCode = 1;
  } finally {
    rmSync(tpp.work, { recursive: true, force: true });
  }
}
