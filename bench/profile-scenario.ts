import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { seedBatchDatabase } from './batch-run.js';
import {
  FLOOR_SERVER,
  SERVER_BUNDLE,
  type BenchServer,
  cpuMsOf,
  sqliteSandboxEnv,
  startBenchServer,
} from './bench-server.js';
import { type ProfileWindow, mainThreadProfile, monotonicUs, summarizeCpuProfile } from './cpu-profile.js';
import { runLoad } from './load.js';
import {
  type BenchTpp,
  bulkRequest,
  createRequest,
  createdPaymentId,
  pool,
  poolForLoad,
  readRequest,
} from './requests.js';
import { sandboxCall } from './sandbox-call.js';
import { createTestDatabase } from '../test/support/postgres.js';

/** The rows a profile can be taken of: the hot rows of issue 44 (create on each engine, status read, batch), the bulk and the start. */
export const PROFILED_ROWS = ['create', 'create-postgres', 'read', 'bulk', 'batch', 'start', 'start-empty'] as const;
export type ProfiledRow = (typeof PROFILED_ROWS)[number];

export interface ProfileOptions {
  port: number;
  /** The measured load's length; `warmUpSeconds` of warm-up come before it. */
  seconds: number;
  /**
   * Seconds of warm-up load, at least 2 (the default): the server's code is still being optimised
   * seconds after its start, more of it than the floor's (bench/history.md, "Steady state").
   */
  warmUpSeconds?: number;
  /** Payments the batch row runs. */
  batchPayments: number;
  /** Profiles bench/floor-server.ts instead (create, create-postgres and read only). */
  floor?: boolean;
}

export interface ProfiledRun {
  /** The load's figures while profiled (slower than unprofiled: compare µs per answer, not rates). */
  headline: string;
  summary: string;
  file: string;
}

/**
 * One row run against a server under `node --cpu-prof`, and where its main thread's CPU went
 * (bench/cpu-profile.ts). Loads and the batch run the unbundled build, so that time is attributed to
 * its module; `start` runs the bundle `npm start` runs, started on an existing database and stopped at
 * once, `start-empty` the same on an empty data folder. Only the measured part's samples count: the
 * load after its warm-up, the batch from its request to its answer.
 */
export async function profileRow(tpp: BenchTpp, row: ProfiledRow, options: ProfileOptions): Promise<ProfiledRun> {
  if (options.floor === true && row !== 'create' && row !== 'read' && row !== 'create-postgres')
    throw new Error('the floor profiles a create or a status read only');
  const dir = mkdtempSync(join(tpp.work, `profile-${row}-`));
  const profiling = ['--cpu-prof', '--cpu-prof-dir', dir];
  const env = sqliteSandboxEnv(dir, tpp.caFile);
  if (row === 'start' || row === 'start-empty') {
    if (row === 'start') await (await startBenchServer(SERVER_BUNDLE, options.port, env)).stop();
    const server = await startBenchServer(SERVER_BUNDLE, options.port, env, [], '/health', profiling);
    await server.stop();
    return finish(dir, `${row}: the bundle from spawn to its first /health, then stopped`);
  }
  if (row === 'batch') return profileBatch(tpp, dir, env, profiling, options);
  if (row === 'create-postgres') {
    // A database of its own on PG_TEST_URL's server, as create-row.ts makes one, dropped after.
    const database = await createTestDatabase();
    try {
      return await profileLoad(tpp, row, dir, { ...env, DATABASE_URL: database.url }, profiling, options, database.url);
    } finally {
      await database.drop();
    }
  }
  return profileLoad(tpp, row, dir, env, profiling, options, `sqlite:${join(dir, 'floor.db')}`);
}

async function profileLoad(
  tpp: BenchTpp,
  row: 'create' | 'create-postgres' | 'read' | 'bulk',
  dir: string,
  env: Record<string, string>,
  profiling: string[],
  options: ProfileOptions,
  floorDatabase: string,
): Promise<ProfiledRun> {
  const server =
    options.floor === true
      ? await startBenchServer(FLOOR_SERVER, options.port, {}, [floorDatabase], '/health', profiling)
      : await startBenchServer('dist/src/main.js', options.port, env, [], '/health', profiling);
  let made = 0;
  const create = () => createRequest(tpp.credentials, made++);
  let make = row === 'bulk' ? () => bulkRequest(tpp.credentials, made++, 100) : create;
  const expect = row === 'read' ? 200 : 201;
  if (row === 'read') {
    // Creates first, as the bench does, so that the read finds a store with payments in it; then the payment read.
    await runLoad(server.url, pool(2000, create), { connections: 16, seconds: 1, expect: 201 });
    const paymentId = await createdPaymentId(server.url, tpp.credentials, made++);
    make = () => readRequest(tpp.credentials, paymentId);
  }
  // At least two seconds of warm-up: under the profiler the first runs at a fraction of the load's
  // rate (a fifth, seen), too little to size its pool by; the last second's rate sizes it.
  const warmUpSecond = () =>
    runLoad(server.url, pool(row === 'bulk' ? 300 : 2000, make), { connections: 16, seconds: 1, expect });
  for (let second = 1; second < Math.max(2, options.warmUpSeconds ?? 2); second++) await warmUpSecond();
  const warmUp = await warmUpSecond();
  const load = pool(poolForLoad(warmUp.requestsPerSecond, options.seconds, 1000), make);
  const cpuBefore = cpuMsOf(server.child.pid!);
  const from = monotonicUs();
  const result = await runLoad(server.url, load, { connections: 16, seconds: options.seconds, expect });
  const window = { from, to: monotonicUs(), answers: Math.max(1, result.expected) };
  // A request sent twice is a replay, answered from what was stored: not the row's work.
  if (result.sent > load.length)
    throw new Error(`the load sent ${result.sent} requests from a pool of ${load.length}: a profile of replays`);
  // CPU of the server's process (every thread) per answer: unlike a rate, it changes little when other processes share the machine.
  const cpuPerAnswer = (cpuMsOf(server.child.pid!) - cpuBefore) / window.answers;
  await server.stop();
  return finish(
    dir,
    `${options.floor === true ? 'floor ' : ''}${row}: ${Math.round(result.requestsPerSecond)} req/s profiled, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, unexpected ${result.unexpected}; server CPU ${cpuPerAnswer.toFixed(3)} ms per answer`,
    window,
  );
}

async function profileBatch(
  tpp: BenchTpp,
  dir: string,
  env: Record<string, string>,
  profiling: string[],
  options: ProfileOptions,
): Promise<ProfiledRun> {
  await seedBatchDatabase(tpp, join(dir, 'psd2.db'), options.batchPayments);
  let server: BenchServer | undefined = await startBenchServer(
    'dist/src/main.js',
    options.port,
    env,
    [],
    '/health',
    profiling,
  );
  try {
    const from = monotonicUs();
    const run = await sandboxCall<{ executed: number }>(
      server.url,
      tpp.credentials,
      'POST',
      '/v1/sandbox/batch-runs',
      200,
    );
    const window: ProfileWindow = { from, to: monotonicUs(), answers: Math.max(1, run.executed) };
    await server.stop();
    server = undefined;
    return finish(
      dir,
      `batch: ${options.batchPayments} payments, ${run.executed} executed in ${((window.to - window.from) / 1e6).toFixed(1)} s profiled (µs below are per payment)`,
      window,
    );
  } finally {
    await server?.stop();
  }
}

function finish(dir: string, headline: string, window?: ProfileWindow): ProfiledRun {
  const file = mainThreadProfile(dir);
  return { headline, summary: summarizeCpuProfile(file, window), file };
}
