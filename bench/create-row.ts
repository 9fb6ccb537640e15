import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverProcessSettings } from '../scripts/start-settings.js';
import {
  CEILING_SERVER,
  FLOOR_SERVER,
  SERVER_BUNDLE,
  benchPort,
  cpuMsOf,
  sqliteSandboxEnv,
  startBenchServer,
  threadCpuMsOf,
} from './bench-server.js';
import { createTestDatabase } from '../test/support/postgres.js';
import { runLoad } from './load.js';
import { benchTpp, createRequest, createdPaymentId, pool, poolForLoad, readRequest } from './requests.js';

/**
 * `node dist/bench/create-row.js [postgres|read]`: the create row of `npm run bench` alone (signed
 * cross-border creates in the sandbox, on SQLite or on a PostgreSQL database of its own, 16
 * connections, BENCH_SECONDS), RUNS times with a warm-up each (BENCH_WARM_UP_SECONDS of creates, 1 by default, as run.ts's): to compare two builds side by side when
 * a change touches the create's path (run from each build's folder: the server is the bundle below the
 * working directory), or the process's memory (the server's peak RSS, the bench's "Peak RSS" row).
 * With `read`, the status read row instead, on SQLite after the creates' warm-up, as run.ts runs it;
 * with BENCH_READ_WARM_UP=1, after as long a warm-up of the reads themselves too: the server's reads
 * reach their steady rate later than its floor's (bench/history.md, "A fast machine: the read and the
 * start met, the creates not").
 * Each run also gives the server's CPU (every thread) per answer, which moves less than a rate when
 * the machine's speed drifts, and the p99 of its answers' latency. With BENCH_FLOOR=1, the row's floor (bench/floor-server.ts) on the same
 * engine instead of the server: run by turns with the server, it gives the row's ratio to its floor.
 * With BENCH_BY_TURNS=1, each run measures the server and then its floor, and the ratio of each pair
 * is printed with their median: the machine's drift, larger than most changes, moves both of a pair.
 * With BENCH_CEILING=1, the bare Fastify route (bench/ceiling-server.ts) instead, in the server's
 * process settings (scripts/start.env): its peak RSS is what the runtime and Fastify hold under the
 * same load with none of the server's code, the runtime's share of the server's (run it with
 * BENCH_SERVER_NODE set to another Node to compare two runtimes; bench/history.md, "The runtime's
 * share of the peak RSS").
 */
const READ = process.argv[2] === 'read';
const ENGINE = process.argv[2] === 'postgres' ? 'PostgreSQL' : 'SQLite';
const FLOOR = process.env.BENCH_FLOOR === '1';
const CEILING = process.env.BENCH_CEILING === '1';
const BY_TURNS = process.env.BENCH_BY_TURNS === '1';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 1);
const READ_WARM_UP = process.env.BENCH_READ_WARM_UP === '1';
type Side = 'server' | 'floor' | 'ceiling';
/** What each run measures, in this order: with BENCH_BY_TURNS=1, the server and then its floor. */
const SIDES: Side[] = BY_TURNS ? ['server', 'floor'] : [FLOOR ? 'floor' : CEILING ? 'ceiling' : 'server'];
interface Figures {
  rates: number[];
  peaks: number[];
  cpus: number[];
  p99s: number[];
  /** Per thread name, its CPU per answer in each run. */
  threadCpus: Map<string, number[]>;
}
const measured = new Map<Side, Figures>(
  SIDES.map((side) => [side, { rates: [], peaks: [], cpus: [], p99s: [], threadCpus: new Map() }]),
);
const { work, caFile, credentials } = await benchTpp();
for (let run = 0; run < RUNS; run++) for (const side of SIDES) await measure(side, run, measured.get(side)!);
rmSync(work, { recursive: true, force: true });
/** The median of the figures, then each as measured. */
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const figures = (values: number[], digits = 0) =>
  `median ${median(values).toFixed(digits)} (${values.map((v) => v.toFixed(digits)).join(', ')})`;
for (const [side, { rates, cpus, peaks, p99s, threadCpus }] of measured)
  process.stdout.write(
    `${side === 'floor' ? 'the floor’s ' : side === 'ceiling' ? 'the bare route’s ' : ''}${READ ? 'status reads' : 'creates'} on ${ENGINE}: ${figures(rates)} a second; the server's CPU per answer: ${figures(cpus, 3)} ms; ` +
      `the server's peak RSS: ${figures(peaks)} MB; the p99 latency: ${figures(p99s, 1)} ms\n` +
      `  its CPU per answer by thread, ms: ${[...threadCpus].map(([name, values]) => `${name} ${figures(values, 3)}`).join('; ')}\n`,
  );
if (BY_TURNS) {
  // Each run's server against the floor run right after it: the machine's drift moves both alike.
  const server = measured.get('server')!.rates;
  const floor = measured.get('floor')!.rates;
  process.stdout.write(
    `the server's rate over its floor's, run by run: ${figures(
      server.map((rate, i) => rate / floor[i]!),
      2,
    )}\n`,
  );
}

/** One run of the row against one side: its own server, database and data folder. */
async function measure(side: Side, run: number, { rates, peaks, cpus, p99s, threadCpus }: Figures): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-create-'));
  const database = ENGINE === 'PostgreSQL' ? await createTestDatabase() : undefined;
  const env = { ...sqliteSandboxEnv(dir, caFile), ...(database === undefined ? {} : { DATABASE_URL: database.url }) };
  const server =
    side === 'floor'
      ? await startBenchServer(FLOOR_SERVER, benchPort(2), {}, [database?.url ?? `sqlite:${join(dir, 'floor.db')}`])
      : side === 'ceiling'
        ? await startBareRoute()
        : await startBenchServer(SERVER_BUNDLE, benchPort(2), env);
  try {
    const offset = run * 10_000_000;
    // Requests enough for a second at 8 000 a second: none sent twice (a retry, answered from what
    // was stored, or 500 by the floor) on the fastest machine seen.
    const warmUp = await runLoad(
      server.url,
      pool(8_000 * WARM_UP_SECONDS, (i) => createRequest(credentials, offset + 5_000_000 + i)),
      {
        connections: 16,
        seconds: WARM_UP_SECONDS,
        expect: 201,
      },
    );
    const size = poolForLoad(warmUp.requestsPerSecond, SECONDS, 20_000);
    // A status read is about three creates' rate, as run.ts's pools have it.
    const paymentId = READ ? await createdPaymentId(server.url, credentials, offset + 9_000_000) : '';
    // As many reads as the load would send in the warm-up's seconds at three creates' rate.
    if (READ && READ_WARM_UP)
      await runLoad(server.url, pool(3 * 8_000 * WARM_UP_SECONDS, readsOf(paymentId)), {
        connections: 16,
        seconds: WARM_UP_SECONDS,
        expect: 200,
      });
    const load = READ ? pool(3 * size, readsOf(paymentId)) : pool(size, (i) => createRequest(credentials, offset + i));
    const cpuBefore = cpuMsOf(server.child.pid!);
    const threadsBefore = threadCpuMsOf(server.child.pid!);
    const result = await runLoad(server.url, load, { connections: 16, seconds: SECONDS, expect: READ ? 200 : 201 });
    if (result.sent > load.length)
      throw new Error(`the load sent ${result.sent} requests from a pool of ${load.length}: replays would count`);
    if (result.unexpected > 0)
      throw new Error(
        `${result.unexpected} answers other than ${READ ? 200 : 201}: ${JSON.stringify(result.unexpectedStatuses)}`,
      );
    const answers = Math.max(1, result.expected);
    cpus.push((cpuMsOf(server.child.pid!) - cpuBefore) / answers);
    for (const [name, ms] of threadCpuMsOf(server.child.pid!)) {
      const perAnswer = threadCpus.get(name) ?? [];
      perAnswer.push((ms - (threadsBefore.get(name) ?? 0)) / answers);
      threadCpus.set(name, perAnswer);
    }
    rates.push(result.requestsPerSecond);
    p99s.push(result.p99Ms);
    peaks.push(server.peakRssMb());
  } finally {
    await server.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Signed status reads of one payment, each with its own X-Request-ID. */
function readsOf(paymentId: string): () => ReturnType<typeof readRequest> {
  return () => readRequest(credentials, paymentId);
}

/** The bare route, with the server's Node flags and environment (startBenchServer gives them only to the server and the floor). */
function startBareRoute(): ReturnType<typeof startBenchServer> {
  const settings = serverProcessSettings(process.env.BENCH_START_ENV);
  return startBenchServer(CEILING_SERVER, benchPort(2), settings.env, ['600'], '/', settings.nodeFlags);
}
