import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_BUNDLE, benchPort, sqliteSandboxEnv, startBenchServer } from './bench-server.js';
import { measureNdctCreates, ndctRow } from './ndct-creates.js';
import { benchTpp } from './requests.js';

/**
 * The NDCT create row of `npm run bench` on its own (`npm run build && node dist/bench/ndct-run.js`):
 * one run on a fresh SQLite sandbox, printed as the table's row.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const { work, caFile, credentials } = await benchTpp();
const server = await startBenchServer(
  SERVER_BUNDLE,
  benchPort(6),
  sqliteSandboxEnv(mkdtempSync(join(work, 'ndct-')), caFile),
);
try {
  const { result, pool } = await measureNdctCreates(server, credentials, {
    seconds: SECONDS,
    connections: 16,
    least: 2000,
  });
  const fmt = (values: number[], digits = 0) => values.map((v) => v.toFixed(digits)).join(', ');
  process.stdout.write(`| ${ndctRow([result], fmt).join(' | ')} |\n`);
  process.stdout.write(
    `unexpected answers: ${result.unexpected} ${JSON.stringify(result.unexpectedStatuses)}; pool ${pool}, sent ${result.sent}\n`,
  );
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
