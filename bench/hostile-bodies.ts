import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CertificateAndKey } from '../src/toolkit/certificate-factory.js';
import {
  type BenchServer,
  SERVER_BUNDLE,
  benchPort,
  cpuMsOf,
  sqliteSandboxEnv,
  startBenchServer,
} from './bench-server.js';
import { type FirstBodies, firstBodiesRow, measureFirstBodies } from './first-bodies.js';
import { type Prepared, accounts, post, prepare, routes, shapes } from './hostile-requests.js';
import { startProber } from './prober-thread.js';
import { benchTpp } from './requests.js';
import { bySize } from './smoke.js';

/**
 * Issue 10, point 3: the most expensive body one can send to each route that takes one, at the body
 * size limit, and what it costs. For each route several hostile shapes are built (most errors, longest
 * strings, most values, a limit crossed only at the end, deep nesting); each is sent alone a few times
 * (its answer time, measured from the client on loopback: an upper bound of the server's time), then
 * the route's most expensive shape is sent as a stream, two in flight, while `/health` is asked every
 * 5 ms from a thread of its own: its p99 and maximum say how long the hostile stream held others up.
 *
 * The routes and shapes are in hostile-requests.ts; the first bodies after a start, first-bodies.ts.
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
