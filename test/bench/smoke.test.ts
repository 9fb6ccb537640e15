import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, describe, it } from 'node:test';

/**
 * Issue 42 §7: the bench cannot break unseen again. `npm run bench -- --smoke` (bench/smoke.ts) runs
 * every row of the bench once at its smallest sizes, as `npm run bench` runs it (dist/bench/run.js
 * after the build), and exits non-zero when a row throws or a check of its own fails. Its length is
 * bounded by those sizes; nothing here asserts a time.
 */

/** The bench's servers listen on ten ports from a base (bench/bench-server.ts). */
const BENCH_PORTS = 10;

/** A base of BENCH_PORTS free ports, below the kernel's range for ports given on request (other tests' PORT=0). */
async function freePortBase(): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = 20_000 + 10 * Math.floor(Math.random() * 1_000);
    let all = true;
    for (let i = 0; i < BENCH_PORTS && all; i++) all = await free(base + i);
    if (all) return base;
  }
  throw new Error(`no ${BENCH_PORTS} free ports in a row from 20000`);
}

let bench: ChildProcess | undefined;
// A run that hangs or fails is ended with its servers: they are in its process group.
after(() => {
  if (bench?.pid !== undefined && bench.exitCode === null && bench.signalCode === null) {
    try {
      process.kill(-bench.pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
  }
});

describe('the bench in smoke mode', () => {
  // Not a measure: it ends a run that hangs, far beyond what a smoke run takes on a loaded machine.
  it('runs every row, each with its checks holding, and writes no results', { timeout: 20 * 60_000 }, async () => {
    const results = readFileSync('bench/results.md', 'utf8');
    bench = spawn(process.execPath, ['dist/bench/run.js', '--smoke'], {
      // The smoke run's own sizes, whatever BENCH_* a developer's shell sets for full runs.
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BENCH_'))),
        BENCH_PORT_BASE: String(await freePortBase()),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    bench.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    bench.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(bench, 'close')) as [number | null];
    const output = `stdout:\n${stdout.slice(-6000)}\nstderr:\n${stderr.slice(-4000)}`;
    assert.equal(code, 0, `the smoke run exited with ${code}\n${output}`);

    const statuses = stdout.slice(stdout.indexOf('Smoke run:')).split('\n').slice(1);
    const rows = statuses.filter((line) => /^(ok {2}|FAIL)/.test(line));
    assert.deepEqual(
      rows.filter((line) => !line.startsWith('ok')),
      [],
      output,
    );
    assert.match(stdout, new RegExp(`^smoke: ${rows.length} rows, 0 failed$`, 'm'), output);
    // The rows that broke unseen before, and one of each kind: a load, a paced load, a start, the toolkit, a hostile body.
    for (const row of [
      'Account information: GET /v1/accounts',
      'Batch run of 200 authorised payments',
      '200 standing orders executing on one date',
      'Notifications delivered to a local receiver',
      'Create on PostgreSQL, two servers on one database',
      'Create on SQLite at half the maximum rate',
      'Cold start, empty database',
      'Start ceiling: bare Fastify',
      '`tpp call GET /v1/sandbox/keys`',
      'Hostile body, Bulk create',
    ])
      assert.ok(
        rows.some((line) => line.startsWith(`ok    ${row}`)),
        `no row "${row}" passed\n${output}`,
      );
    assert.equal(readFileSync('bench/results.md', 'utf8'), results, 'a smoke run wrote bench/results.md');
  });
});
