import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeColdStart, timeNpmStart } from './bench-server.js';

/**
 * Cold start alone: milliseconds from spawning the server process (as `npm start` runs it) to its
 * first `GET /health` 200, on an empty data folder (migrations, sandbox CA) and on an existing one.
 * `npm run bench` measures the same among its other figures. Then `npm start` as a developer runs it
 * on an existing folder: npm itself, the check that the build is current, and the server.
 */
const RUNS = Number(process.argv[2] ?? 5);

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${Math.round(sorted[Math.floor(sorted.length / 2)]!)} ms (min ${Math.round(sorted[0]!)}, max ${Math.round(sorted.at(-1)!)})`;
}

const empty: number[] = [];
const existing: number[] = [];
const npmStart: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-start-'));
  empty.push(await timeColdStart(dir, 8190));
  existing.push(await timeColdStart(dir, 8190));
  npmStart.push(await timeNpmStart(dir, 8190));
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`cold start, empty data folder:    ${summary(empty)}\ncold start, existing data folder: ${summary(existing)}\n`);
process.stdout.write(`npm start, existing data folder:  ${summary(npmStart)} (target < 1000)\n`);
