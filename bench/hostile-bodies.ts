import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  BODY_LIMIT_BYTES,
  JSON_MAX_ARRAY_ENTRIES,
  RESOURCE_BODY_LIMIT_BYTES,
  JSON_MAX_OBJECT_KEYS,
  JSON_MAX_STRING_LENGTH,
  JSON_MAX_VALUES,
} from '../src/domain/limits.js';
import { bulkEntrySchema, crossBorderBodySchema } from '../src/http/schemas/payment-schemas.js';
import { sandboxAccountCreateSchema } from '../src/http/schemas/sandbox/sandbox-account-schemas.js';
import { sandboxTransactionCreateSchema } from '../src/http/schemas/sandbox/sandbox-account-transaction-schemas.js';
import { sandboxAgreementCreateSchema } from '../src/http/schemas/sandbox/sandbox-agreement-schemas.js';
import { sandboxCardAccountCreateSchema } from '../src/http/schemas/sandbox/sandbox-card-account-schemas.js';
import { sandboxCardTransactionCreateSchema } from '../src/http/schemas/sandbox/sandbox-card-transaction-schemas.js';
import { sandboxCustomerCreateSchema } from '../src/http/schemas/sandbox/sandbox-customer-schemas.js';
import type { CertificateAndKey } from '../src/toolkit/certificate-factory.js';
import { signRequest } from '../src/toolkit/request-signer.js';
import { nextBban, nextFnr } from '../test/support/norwegian-numbers.js';
import {
  type BenchServer,
  SERVER_BUNDLE,
  benchPort,
  cpuMsOf,
  sqliteSandboxEnv,
  startBenchServer,
} from './bench-server.js';
import { BULK_PATH, CREATE_PATH, benchTpp } from './requests.js';
import { sandboxCall } from './sandbox-call.js';
import { bySize } from './smoke.js';

/**
 * Issue 10, point 3: the most expensive body one can send to each route that takes one, at the body
 * size limit, and what it costs. For each route several hostile shapes are built (most errors, longest
 * strings, most values, a limit crossed only at the end, deep nesting); each is sent alone a few times
 * (its answer time, measured from the client on loopback: an upper bound of the server's time), then
 * the route's most expensive shape is sent as a stream, two in flight, while `/health` is asked every
 * 5 ms from a thread of its own: its p99 and maximum say how long the hostile stream held others up.
 *
 * Runs on its own: `node dist/bench/hostile-bodies.js` (after `npm run build`); `npm run bench` adds
 * its rows to the table.
 */

const REPEATS = Number(process.env.BENCH_HOSTILE_REPEATS ?? bySize(5, 1));
const STREAM_SECONDS = Number(process.env.BENCH_HOSTILE_SECONDS ?? bySize(2, 0.25));

export interface HostileFigures {
  route: string;
  /** The most expensive shape of this route, by median answer time. */
  worstShape: string;
  bodyBytes: number;
  /** Answer times of the worst shape sent alone, ms. */
  medianMs: number;
  maxMs: number;
  /** CPU time of the server process per request of the worst shape (user + system, all its threads), ms. */
  cpuMs: number;
  /** The slowest answer of any shape of this route, ms. */
  maxAnyShapeMs: number;
  /** Answers to the stream of the worst shape. */
  streamed: number;
  healthP99Ms: number;
  healthMaxMs: number;
  /** /health answered in this many ms at most when idle, before the stream (for comparison). */
  healthIdleMaxMs: number;
  /**
   * The server's own timing of this route's answers to each shape sent alone (its request histogram
   * on /metrics, from the request's headers to its last byte sent): how many, and how many took over
   * 50 ms. Under the stream, two in flight share one event loop, and each waits for the other's turns.
   */
  serverTimed: number;
  serverOver50Ms: number;
  /**
   * The longest the server's event loop was held during the stream, as the server measures it
   * (prom-client's nodejs_eventloop_lag_max_seconds, a 10 ms timer's delay, reset at each scrape):
   * how long the server itself made any request, /health included, wait.
   */
  serverLoopMaxMs: number;
  /** Answers that were not 4xx (a hostile body must be refused, never accepted nor a 5xx). */
  unexpected: Record<string, number>;
}

interface Route {
  name: string;
  path: string;
  /** The body as a function of the hostile entry maker: where the entries go. */
  wrap: (entries: unknown[]) => unknown;
  /** The entry schema's field names (bad values go there). */
  fields: readonly string[];
  /** The top-level object itself is the one "entry" (no array of entries). */
  single: boolean;
  /** The operation's body size limit, bytes (a list route's, or one resource's). */
  limitBytes: number;
}

const names = (schema: { properties: object }) => Object.keys(schema.properties);

function routes(accountId: string, cardAccountId: string): Route[] {
  return [
    {
      name: 'Cross-border create',
      path: CREATE_PATH,
      wrap: (e) => e[0],
      fields: names(crossBorderBodySchema),
      single: true,
      limitBytes: RESOURCE_BODY_LIMIT_BYTES,
    },
    {
      name: 'Bulk create',
      path: BULK_PATH,
      wrap: (e) => ({ debtorAccount: true, payments: e }),
      fields: names(bulkEntrySchema),
      single: false,
      limitBytes: BODY_LIMIT_BYTES,
    },
    {
      name: 'Signing basket create',
      path: '/v1/signing-baskets',
      wrap: (e) => ({ paymentIds: e }),
      fields: [],
      single: false,
      limitBytes: RESOURCE_BODY_LIMIT_BYTES,
    },
    {
      name: 'Sandbox customer create',
      path: '/v1/sandbox/customers',
      wrap: (e) => e[0],
      fields: names(sandboxCustomerCreateSchema),
      single: true,
      limitBytes: RESOURCE_BODY_LIMIT_BYTES,
    },
    {
      name: 'Sandbox account create',
      path: '/v1/sandbox/accounts',
      wrap: (e) => ({ customerNumber: true, balances: e }),
      fields: names(sandboxAccountCreateSchema),
      single: false,
      limitBytes: RESOURCE_BODY_LIMIT_BYTES,
    },
    {
      name: 'Sandbox card account create',
      path: '/v1/sandbox/card-accounts',
      wrap: (e) => ({ customerNumber: true, balances: e }),
      fields: names(sandboxCardAccountCreateSchema),
      single: false,
      limitBytes: RESOURCE_BODY_LIMIT_BYTES,
    },
    {
      name: 'Sandbox agreement create',
      path: '/v1/sandbox/agreements',
      wrap: (e) => ({ owner: true, engagements: e }),
      fields: names(sandboxAgreementCreateSchema),
      single: false,
      limitBytes: RESOURCE_BODY_LIMIT_BYTES,
    },
    {
      name: 'Sandbox account transactions',
      path: `/v1/sandbox/accounts/${accountId}/transactions`,
      wrap: (e) => e,
      fields: names(sandboxTransactionCreateSchema),
      single: false,
      limitBytes: BODY_LIMIT_BYTES,
    },
    {
      name: 'Sandbox card transactions',
      path: `/v1/sandbox/card-accounts/${cardAccountId}/transactions`,
      wrap: (e) => e,
      fields: names(sandboxCardTransactionCreateSchema),
      single: false,
      limitBytes: BODY_LIMIT_BYTES,
    },
  ];
}

/** The body's JSON, entries added while it stays under the size limit and the array limit. */
function filled(route: Route, entry: (i: number) => unknown): string {
  if (route.single) return JSON.stringify(route.wrap([entry(0)]));
  const entries: unknown[] = [];
  let size = Buffer.byteLength(JSON.stringify(route.wrap([])));
  for (let i = 0; i < JSON_MAX_ARRAY_ENTRIES; i++) {
    const next = entry(i);
    const grown = Buffer.byteLength(JSON.stringify(next)) + 1;
    if (size + grown > route.limitBytes - 1024) break;
    entries.push(next);
    size += grown;
  }
  return JSON.stringify(route.wrap(entries));
}

/** An object of JSON_MAX_OBJECT_KEYS fields: every field of the entry with `value`, the rest unknown fields. */
function wideEntry(fields: readonly string[], value: (field: string) => unknown): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  for (const field of fields.slice(0, JSON_MAX_OBJECT_KEYS)) entry[field] = value(field);
  for (let k = 0; Object.keys(entry).length < JSON_MAX_OBJECT_KEYS; k++) entry[`unknown${k}`] = value(`unknown${k}`);
  return entry;
}

function shapes(route: Route): Record<string, string> {
  const longText = 'x'.repeat(JSON_MAX_STRING_LENGTH);
  const longNonAscii = 'ø'.repeat(JSON_MAX_STRING_LENGTH);
  // Values: as many as the limit allows (less the wrapping), as arrays of JSON_MAX_ARRAY_ENTRIES zeros.
  const row = Array.from({ length: JSON_MAX_ARRAY_ENTRIES - 1 }, () => 0);
  // As many rows as the value limit and the route's size limit allow.
  const rowBytes = JSON.stringify(row).length + 1;
  const rows = Math.min(
    Math.floor((JSON_MAX_VALUES - 100) / JSON_MAX_ARRAY_ENTRIES) - 1,
    Math.floor((route.limitBytes - 2048) / rowBytes),
  );
  const manyValues = Array.from({ length: rows }, () => row);
  const bad = route.single ? wideEntry(route.fields, () => true) : undefined;
  const oneLongString = JSON.stringify({ padding: 'y'.repeat(route.limitBytes - 200) });
  const duplicateAtEnd = `{"padding":0,${' '.repeat(route.limitBytes - 200)}"padding":0}`;
  return {
    'most errors (wrong types, unknown fields)': filled(route, () =>
      route.fields.length === 0 ? true : wideEntry(route.fields, () => true),
    ),
    'longest strings': filled(route, () =>
      route.fields.length === 0 ? longText : wideEntry(route.fields, () => longText),
    ),
    // Few long strings per entry, so the most entries (and problems) fit: found by hand, 2 694 problems in a bulk.
    'long strings in the most entries': filled(route, () =>
      route.fields.length === 0
        ? longText
        : Object.fromEntries(route.fields.slice(0, 5).map((field) => [field, longText])),
    ),
    // Two bytes a character: the most decoding work per byte (UTF-8 to a two-byte string).
    'longest strings of non-ASCII': filled(route, () =>
      route.fields.length === 0 ? longNonAscii : wideEntry(route.fields, () => longNonAscii),
    ),
    'most values': route.single
      ? JSON.stringify({ ...bad, [route.fields[0] ?? 'x']: manyValues })
      : JSON.stringify(route.wrap(manyValues)),
    'one string at the size limit': oneLongString,
    'a duplicate field after the size limit of spaces': duplicateAtEnd,
    'nested 5 000 deep': `${'['.repeat(5000)}${']'.repeat(5000)}`,
  };
}

export interface Prepared {
  path: string;
  headers: Record<string, string>;
  body: string;
}

function prepare(credentials: CertificateAndKey, path: string, body: string): Prepared {
  const headers = signRequest({
    method: 'POST',
    url: path,
    credentials,
    body,
    headers: {
      'content-type': 'application/json',
      'PSU-Context': 'PRIVATE',
      'PSU-IP-Address': '192.0.2.10',
      'TPP-Redirect-URI': 'https://tpp.example/cb',
      'TPP-Session-ID': randomUUID(),
      'X-PSU-IDENTITY': '01078900497',
    },
  });
  return { path, headers, body };
}

async function post(url: string, request: Prepared): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const answer = await fetch(`${url}${request.path}`, { method: 'POST', headers: request.headers, body: request.body });
  await answer.text();
  return { status: answer.status, ms: performance.now() - started };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};

/**
 * POST answers the server has timed so far, in all and within 50 ms, from its request histogram
 * (`psd2_http_request_duration_seconds`, src/metrics/server-metrics.ts; bucket le="0.05").
 */
async function serverTimedPosts(url: string): Promise<{ all: number; within50Ms: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let all = 0;
  let within50Ms = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('psd2_http_request_duration_seconds_') || !line.includes('method="POST"')) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith('psd2_http_request_duration_seconds_count')) all += value;
    else if (line.includes('le="0.05"')) within50Ms += value;
  }
  return { all, within50Ms };
}

/** The server's event-loop delay maximum since the last scrape, ms (the scrape resets it). */
async function eventLoopMaxMs(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('nodejs_eventloop_lag_max_seconds'));
  return line === undefined ? Number.NaN : 1000 * Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** A thread that probes /health every 5 ms (bench/health-prober.ts); `during` gives the latencies it saw while a promise was pending. */
export async function startProber(
  url: string,
): Promise<{ during: (until: Promise<unknown>) => Promise<number[]>; stop: () => Promise<void> }> {
  const prober = new Worker(new URL('./health-prober.js', import.meta.url), { workerData: { url } });
  let failed: Error | undefined;
  let pending: { resolve: (message: unknown) => void; reject: (error: Error) => void } | undefined;
  prober.on('message', (message) => pending?.resolve(message));
  prober.on('error', (error) => {
    failed = error;
    pending?.reject(error);
  });
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      if (failed !== undefined) reject(failed);
      else pending = { resolve, reject };
    });
  await next(); // 'ready': warmed up
  return {
    during: async (until) => {
      prober.postMessage('begin');
      await until;
      const latencies = next();
      prober.postMessage('end');
      return (await latencies) as number[];
    },
    stop: async () => {
      prober.postMessage('exit');
      await prober.terminate();
    },
  };
}

/**
 * One route's shape as a signed request, for `profile.js hostile <route> <shape>`: the account and card
 * account the transaction routes name are made first.
 */
export async function hostileRequest(
  url: string,
  credentials: CertificateAndKey,
  routeName: string,
  shapeName: string,
): Promise<Prepared> {
  const { accountId, cardAccountId } = await accounts(url, credentials);
  const route = routes(accountId, cardAccountId).find((r) => r.name === routeName);
  const body = route === undefined ? undefined : shapes(route)[shapeName];
  if (route === undefined || body === undefined) throw new Error(`no route "${routeName}" with a shape "${shapeName}"`);
  return prepare(credentials, route.path, body);
}

/** Sets up an account and a card account of the bench TPP (the transaction routes need one that exists). */
async function accounts(
  url: string,
  credentials: CertificateAndKey,
): Promise<{ accountId: string; cardAccountId: string }> {
  const customerNumber = nextFnr();
  await sandboxCall(url, credentials, 'POST', '/v1/sandbox/customers', 201, {
    customerNumber,
    name: 'Bench Kunde',
    type: 'private',
  });
  const account = await sandboxCall<{ id: string }>(url, credentials, 'POST', '/v1/sandbox/accounts', 201, {
    customerNumber,
    accountName: 'Brukskonto',
    bban: nextBban(),
    currency: 'NOK',
    product: 'Brukskonto',
    cashAccountType: 'CACC',
  });
  const card = await sandboxCall<{ id: string }>(url, credentials, 'POST', '/v1/sandbox/card-accounts', 201, {
    customerNumber,
    maskedPan: '525412******3241',
    name: 'Kortkonto',
    product: 'Visa',
    currency: 'NOK',
  });
  return { accountId: account.id, cardAccountId: card.id };
}

/**
 * Measures every route against a running sandbox server that trusts `credentials`. With the server's
 * pid, also its CPU time per request: unlike the answer time, that does not grow when other processes
 * share the CPU.
 */
export async function measureHostileBodies(
  url: string,
  credentials: CertificateAndKey,
  pid?: number,
): Promise<HostileFigures[]> {
  const { accountId, cardAccountId } = await accounts(url, credentials);
  const figures: HostileFigures[] = [];
  const prober = await startProber(url);
  for (const route of routes(accountId, cardAccountId)) {
    const unexpected: Record<string, number> = {};
    const tally = (status: number) => {
      if (status >= 400 && status < 500) return;
      unexpected[status] = (unexpected[status] ?? 0) + 1;
    };
    const timedBefore = await serverTimedPosts(url);
    let worst = { shape: '', median: -1, max: 0, cpu: Number.NaN, request: undefined as Prepared | undefined };
    let maxAny = 0;
    for (const [shape, body] of Object.entries(shapes(route))) {
      const request = prepare(credentials, route.path, body);
      await post(url, request); // warm-up: the route's validator compiles on its first request
      const times: number[] = [];
      const cpuBefore = pid === undefined ? Number.NaN : cpuMsOf(pid);
      for (let r = 0; r < REPEATS; r++) {
        const { status, ms } = await post(url, request);
        tally(status);
        times.push(ms);
      }
      const cpu = pid === undefined ? Number.NaN : (cpuMsOf(pid) - cpuBefore) / REPEATS;
      const median = percentile(times, 0.5);
      maxAny = Math.max(maxAny, ...times);
      if (median > worst.median) worst = { shape, median, max: Math.max(...times), cpu, request };
    }
    const timedAlone = await serverTimedPosts(url);
    const idle = await prober.during(new Promise((resolve) => setTimeout(resolve, 300)));
    let streamed = 0;
    const deadline = performance.now() + STREAM_SECONDS * 1000;
    const sender = async () => {
      while (performance.now() < deadline) {
        const { status } = await post(url, worst.request!);
        tally(status);
        streamed += 1;
      }
    };
    await eventLoopMaxMs(url); // resets the server's event-loop delay histogram
    const stream = Promise.all([sender(), sender()]);
    const latencies = await prober.during(stream);
    const serverLoopMaxMs = await eventLoopMaxMs(url);
    const serverTimed = timedAlone.all - timedBefore.all;
    figures.push({
      route: route.name,
      worstShape: worst.shape,
      bodyBytes: Buffer.byteLength(worst.request!.body),
      medianMs: worst.median,
      maxMs: worst.max,
      cpuMs: worst.cpu,
      maxAnyShapeMs: maxAny,
      streamed,
      healthP99Ms: percentile(latencies, 0.99),
      healthMaxMs: Math.max(...latencies),
      healthIdleMaxMs: Math.max(...idle),
      unexpected,
      serverTimed,
      serverOver50Ms: serverTimed - (timedAlone.within50Ms - timedBefore.within50Ms),
      serverLoopMaxMs,
    });
  }
  await prober.stop();
  return figures;
}

/** The server's own times of the first large hostile bodies after a start (measureFirstBodies). */
export interface FirstBodies {
  /** Server-timed answers, ms, in the order sent: every shape of the three list routes once. */
  serverMs: number[];
}

/** How many of the first bodies the row shows one by one: those after which the later ones settle. */
const FIRST_SHOWN = 5;

/**
 * The gap issue 10 left (bench/history.md, "Pages touched afresh"): a fresh server, once its warm-up is
 * done, gets every hostile shape of the three list routes once, in order, each the first body of
 * its kind. Its own time for each answer (the `durationMs` of its request log line, from the
 * request's headers to the answer's last byte) is kept.
 */
export async function measureFirstBodies(
  work: string,
  caFile: string,
  credentials: CertificateAndKey,
  port: number,
): Promise<FirstBodies> {
  const dir = mkdtempSync(join(work, 'first-'));
  const timed: number[] = [];
  let warmed: (outcome: string) => void = () => undefined;
  const warmedUp = new Promise<string>((resolve) => {
    warmed = resolve;
  });
  const server = await startBenchServer(
    SERVER_BUNDLE,
    port,
    { ...sqliteSandboxEnv(dir, caFile), LOG_LEVEL: 'info' },
    [],
    '/health',
    [],
    (line) => {
      const entry = JSON.parse(line) as { msg?: string; method?: string; status?: number; durationMs?: number };
      if (entry.msg === 'warmed up' || entry.msg === 'warm-up failed') warmed(entry.msg);
      if (entry.msg === 'request' && entry.method === 'POST' && (entry.status ?? 0) >= 400)
        timed.push(entry.durationMs!);
    },
  );
  try {
    if ((await warmedUp) !== 'warmed up') throw new Error("the server's warm-up failed");
    const { accountId, cardAccountId } = await accounts(server.url, credentials);
    let sent = 0;
    for (const route of routes(accountId, cardAccountId).filter((r) => r.limitBytes === BODY_LIMIT_BYTES)) {
      for (const body of Object.values(shapes(route))) {
        const { status } = await post(server.url, prepare(credentials, route.path, body));
        if (status < 400 || status >= 500) throw new Error(`a hostile body on ${route.name} was answered ${status}`);
        sent += 1;
      }
    }
    // The log lines come through a pipe: wait for the last.
    for (let i = 0; timed.length < sent && i < 200; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    if (timed.length !== sent) throw new Error(`the server logged ${timed.length} of ${sent} hostile answers`);
    return { serverMs: timed };
  } finally {
    await server.stop();
  }
}

/** The bench table's row for measureFirstBodies' runs. */
export function firstBodiesRow(
  runs: FirstBodies[],
  fmt: (values: number[], digits?: number) => string,
): [string, string, string] {
  const over = runs.map((run) => `${run.serverMs.filter((ms) => ms > 50).length} of ${run.serverMs.length}`).join(', ');
  return [
    "Hostile bodies first after a start (each shape of the three list routes once, on a fresh server after its warm-up): the server's ms",
    `first ${FIRST_SHOWN}: ${runs
      .map((run) =>
        run.serverMs
          .slice(0, FIRST_SHOWN)
          .map((ms) => ms.toFixed(0))
          .join(' '),
      )
      .join('; ')}; the slowest ${fmt(
      runs.map((run) => Math.max(...run.serverMs)),
      1,
    )}`,
    `target < 50 (issue 10, point 3); answers over 50 ms: ${over}; later bodies of the same shapes, rows above`,
  ];
}

/** Rows for the bench table: [measure, value, note]. */
export function hostileRows(
  runs: HostileFigures[][],
  fmt: (values: number[], digits?: number) => string,
): [string, string, string][] {
  const first = runs[0] ?? [];
  return first.map((f, index) => {
    const of = (pick: (h: HostileFigures) => number) =>
      fmt(
        runs.map((run) => pick(run[index]!)),
        1,
      );
    const unexpected = runs
      .flatMap((run) => Object.entries(run[index]!.unexpected))
      .map(([s, n]) => `${n}× ${s}`)
      .join(', ');
    return [
      `Hostile body, ${f.route}: answer ms (worst shape alone, median / max, and the server's CPU ms per request); /health p99 / max ms under a stream of it`,
      `${of((h) => h.medianMs)} / ${of((h) => h.maxMs)} (server CPU ${of((h) => h.cpuMs)}); /health ${of((h) => h.healthP99Ms)} / ${of((h) => h.healthMaxMs)}`,
      `target < 50 and /health delayed < 50; worst shape: ${f.worstShape} (${(f.bodyBytes / 1024).toFixed(0)} KiB); slowest of any shape ${of((h) => h.maxAnyShapeMs)}; idle /health max ${of((h) => h.healthIdleMaxMs)}; the server's event loop held at most ${of((h) => h.serverLoopMaxMs)} ms during the stream; answers sent alone that the server timed over 50 ms: ${runs.map((run) => `${run[index]!.serverOver50Ms} of ${run[index]!.serverTimed}`).join(', ')}${unexpected === '' ? '' : `; NOT REFUSED: ${unexpected}`}`,
    ];
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = Number(process.env.BENCH_RUNS ?? 2);
  const { work, caFile, credentials } = await benchTpp();
  const all: HostileFigures[][] = [];
  for (let run = 0; run < runs; run++) {
    const dir = mkdtempSync(join(work, 'hostile-'));
    const server: BenchServer = await startBenchServer(SERVER_BUNDLE, benchPort(6), sqliteSandboxEnv(dir, caFile));
    try {
      all.push(await measureHostileBodies(server.url, credentials, server.child.pid));
    } finally {
      await server.stop();
    }
  }
  const fmt = (values: number[], digits = 0) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${sorted[Math.floor(sorted.length / 2)]!.toFixed(digits)} (${sorted[0]!.toFixed(digits)} – ${sorted.at(-1)!.toFixed(digits)})`;
  };
  for (const run of all) {
    for (const f of run) {
      process.stdout.write(
        `${f.route.padEnd(30)} ${f.worstShape.padEnd(45)} ${(f.bodyBytes / 1024).toFixed(0).padStart(5)} KiB  alone ${f.medianMs.toFixed(1)} / ${f.maxMs.toFixed(1)} ms, CPU ${f.cpuMs.toFixed(1)} ms (any shape max ${f.maxAnyShapeMs.toFixed(1)})  stream ${f.streamed}: /health p99 ${f.healthP99Ms.toFixed(1)} max ${f.healthMaxMs.toFixed(1)} (idle max ${f.healthIdleMaxMs.toFixed(1)}), server loop max ${f.serverLoopMaxMs.toFixed(1)}; server-timed alone over 50 ms: ${f.serverOver50Ms} of ${f.serverTimed}${Object.keys(f.unexpected).length > 0 ? ` UNEXPECTED ${JSON.stringify(f.unexpected)}` : ''}\n`,
      );
    }
    process.stdout.write('\n');
  }
  const first: FirstBodies[] = [];
  for (let run = 0; run < runs; run++) first.push(await measureFirstBodies(work, caFile, credentials, benchPort(6)));
  for (const run of first)
    process.stdout.write(
      `first hostile bodies after a start, server ms: ${run.serverMs.map((ms) => ms.toFixed(1)).join(' ')}\n`,
    );
  process.stdout.write(
    `${[...hostileRows(all, fmt), firstBodiesRow(first, fmt)].map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`,
  );
  rmSync(work, { recursive: true, force: true });
}
