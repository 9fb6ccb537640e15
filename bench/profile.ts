import { rmSync } from 'node:fs';
import { SERVER_BUNDLE, benchPort, cpuMsOf, sqliteSandboxEnv, startBenchServer } from './bench-server.js';
import { BATCH_PAYMENTS } from './bench-sizes.js';
import { hostileRequest } from './hostile-requests.js';
import { PROFILED_ROWS, type ProfiledRow, profileRow } from './profile-scenario.js';
import { benchTpp } from './requests.js';

/**
 * `node dist/bench/profile.js create|create-postgres|read|bulk|batch|start|start-empty [seconds]`:
 * one row under `node --cpu-prof`, and where the server's CPU time went (bench/profile-scenario.ts;
 * for `batch` the second argument is the payments, 100 000 by default). `PROFILE_FLOOR=1` profiles
 * bench/floor-server.ts instead, for a create or a read, to put the floor's lines beside the server's.
 * `KEEP_PROFILE=1` keeps the `.cpuprofile` for Chrome DevTools. `PROFILE_WARM_UP_SECONDS` (2 by default) sets
 * the warm-up before the measured load. `npm run bench` writes the hot rows'
 * profiles to bench/profiles.md (bench/profiles-report.ts).
 *
 * `node dist/bench/profile.js hostile "<route>" "<shape>" [count]` sends one hostile body of
 * bench/hostile-requests.ts `count` times, one at a time, to the bundle, and prints the answers'
 * median and maximum and the server's CPU per answer.
 */
const scenario = process.argv[2] ?? 'create';
const tpp = await benchTpp();
try {
  if (scenario === 'hostile') await profileHostile();
  else {
    if (!(PROFILED_ROWS as readonly string[]).includes(scenario))
      throw new Error(`profile.js: ${scenario} is none of ${PROFILED_ROWS.join(', ')}, hostile`);
    const run = await profileRow(tpp, scenario as ProfiledRow, {
      port: benchPort(6),
      seconds: Number(process.argv[3] ?? 5),
      batchPayments: Number(process.argv[3] ?? BATCH_PAYMENTS),
      floor: process.env.PROFILE_FLOOR === '1',
      warmUpSeconds: Number(process.env.PROFILE_WARM_UP_SECONDS ?? 2),
    });
    process.stdout.write(`${run.headline}\n\n${run.summary}\nprofile: ${run.file}\n`);
  }
} finally {
  if (process.env.KEEP_PROFILE === undefined) rmSync(tpp.work, { recursive: true, force: true });
}

async function profileHostile(): Promise<void> {
  const server = await startBenchServer(SERVER_BUNDLE, benchPort(6), sqliteSandboxEnv(tpp.work, tpp.caFile));
  try {
    const request = await hostileRequest(
      server.url,
      tpp.credentials,
      process.argv[3] ?? 'Bulk create',
      process.argv[4] ?? 'longest strings',
    );
    const count = Number(process.argv[5] ?? 100);
    const cpuBefore = cpuMsOf(server.child.pid!);
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const answer = await fetch(`${server.url}${request.path}`, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
      });
      await answer.text();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    process.stdout.write(
      `hostile ${process.argv[3]} / ${process.argv[4]}: ${count} answers, median ${times[count >> 1]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms; server CPU ${((cpuMsOf(server.child.pid!) - cpuBefore) / count).toFixed(1)} ms per answer\n`,
    );
  } finally {
    await server.stop();
  }
}
