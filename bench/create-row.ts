import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_BUNDLE, benchPort, sqliteSandboxEnv, startBenchServer } from './bench-server.js';
import { createTestDatabase } from '../test/support/postgres.js';
import { runLoad } from './load.js';
import { benchTpp, createRequest, pool } from './requests.js';

/**
 * `node dist/bench/create-row.js [postgres]`: the create row of `npm run bench` alone (signed
 * cross-border creates in the sandbox, on SQLite or on a PostgreSQL database of its own, 16
 * connections, BENCH_SECONDS), RUNS times with a warm-up each: to compare two builds side by side when
 * a change touches the create's path (run from each build's folder: the server is the bundle below the
 * working directory), or the process's memory (the server's peak RSS, the bench's "Peak RSS" row).
 */
const ENGINE = process.argv[2] === 'postgres' ? 'PostgreSQL' : 'SQLite';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const { work, caFile, credentials } = await benchTpp();
const rates: number[] = [];
const peaks: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-create-'));
  const database = ENGINE === 'PostgreSQL' ? await createTestDatabase() : undefined;
  const env = { ...sqliteSandboxEnv(dir, caFile), ...(database === undefined ? {} : { DATABASE_URL: database.url }) };
  const server = await startBenchServer(SERVER_BUNDLE, benchPort(2), env);
  try {
    const offset = run * 1_000_000;
    await runLoad(
      server.url,
      pool(2_000, (i) => createRequest(credentials, offset + 500_000 + i)),
      {
        connections: 16,
        seconds: 1,
        expect: 201,
      },
    );
    const result = await runLoad(
      server.url,
      pool(20_000, (i) => createRequest(credentials, offset + i)),
      {
        connections: 16,
        seconds: SECONDS,
        expect: 201,
      },
    );
    rates.push(result.requestsPerSecond);
    peaks.push(server.peakRssMb());
  } finally {
    await server.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
rmSync(work, { recursive: true, force: true });
const sorted = [...rates].sort((a, b) => a - b);
const peaksSorted = [...peaks].sort((a, b) => a - b);
process.stdout.write(
  `creates on ${ENGINE}: median ${Math.round(sorted[Math.floor(sorted.length / 2)]!)} a second (${sorted.map(Math.round).join(', ')}); ` +
    `the server's peak RSS: median ${Math.round(peaksSorted[Math.floor(peaksSorted.length / 2)]!)} MB (${peaksSorted.map(Math.round).join(', ')})\n`,
);
