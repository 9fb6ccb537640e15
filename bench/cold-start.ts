import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ColdStart,
  benchPort,
  readyStartCeiling,
  timeColdStart,
  timeNpmStart,
  timeStartCeiling,
} from './bench-server.js';

/**
 * Cold start alone: milliseconds from spawning the server process (as `npm start` runs it) to its
 * first `GET /health` 200, on an empty data folder (migrations, sandbox CA) and on an existing one,
 * with the median of each phase the server reports in its 'ready' line (src/main.ts; the phases run
 * in parallel overlap, and the rest of the total is the probe's wait: the first answer and up to 5 ms
 * of polling). `npm run bench` measures the same totals among its other figures. Then `npm start` as
 * a developer runs it on an existing folder: npm itself, the check that the build is current, and the server.
 * By turns with them, the start ceiling (bench/start-ceiling.ts): bare Fastify, bundled and started
 * as the server is, the machine's floor under a start.
 */
const RUNS = Number(process.argv[2] ?? 5);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function summary(starts: ColdStart[]): string {
  const totals = starts.map((s) => s.ms).sort((a, b) => a - b);
  const names = [...new Set(starts.flatMap((s) => Object.keys(s.phases)))];
  const phases = names.map((name) => `${name} ${median(starts.map((s) => s.phases[name] ?? 0))}`).join(', ');
  return `median ${Math.round(median(totals))} ms (min ${Math.round(totals[0]!)}, max ${Math.round(totals.at(-1)!)})\n  phases (median ms): ${phases}`;
}

const empty: ColdStart[] = [];
const existing: ColdStart[] = [];
const npmStart: number[] = [];
const ceiling: number[] = [];
const ceilingScript = await readyStartCeiling(benchPort(0));
for (let i = 0; i < RUNS; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-start-'));
  empty.push(await timeColdStart(dir, benchPort(0)));
  existing.push(await timeColdStart(dir, benchPort(0)));
  npmStart.push(await timeNpmStart(dir, benchPort(0)));
  ceiling.push(await timeStartCeiling(ceilingScript, benchPort(0)));
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(
  `cold start, empty data folder:    ${summary(empty)}\ncold start, existing data folder: ${summary(existing)}\n`,
);
process.stdout.write(
  `start ceiling (bare Fastify):     median ${Math.round(median(ceiling))} ms (min ${Math.round(Math.min(...ceiling))}, max ${Math.round(Math.max(...ceiling))}); the empty start is ${(median(empty.map((s) => s.ms)) / median(ceiling)).toFixed(1)} times it\n`,
);
process.stdout.write(
  `npm start, existing data folder:  median ${Math.round(median(npmStart))} ms (min ${Math.round(Math.min(...npmStart))}, max ${Math.round(Math.max(...npmStart))}; target < 1000)\n`,
);
