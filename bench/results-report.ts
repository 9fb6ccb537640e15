import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { Figures, Pools } from './bench-figures.js';
import { CONNECTIONS, RUNS, SECONDS } from './bench-sizes.js';
import type { LoadResult } from './load.js';
import { type CountedLoad, type Row, countedLoads, resultRows } from './result-rows.js';
import { SMOKE, SMOKE_POOL } from './smoke.js';

/**
 * The bench's report (bench/run.ts): the table printed, with what the runs were and every answer
 * other than the expected status; written to bench/results.md, or in a smoke run followed by each
 * row's verdict, and a non-zero exit code when one failed.
 */
export function reportResults(figures: Figures, pools: Pools): void {
  const rows = resultRows(figures);
  const counted = countedLoads(figures);
  const poolRanOut = ranOut(figures, pools);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const header = [
    `Date: ${new Date().toISOString()}; CPU: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}; Node ${process.version}; commit ${commit}.`,
    SMOKE
      ? `A smoke run: ${RUNS} run; each load sends its ${SMOKE_POOL} prepared requests once, a paced load lasts ${SECONDS} s; ${CONNECTIONS} connections from a second process on loopback.`
      : `${RUNS} runs; each load ${SECONDS} s after a 1 s warm-up, ${CONNECTIONS} connections from a second process on loopback; median (min – max).`,
    `Answers other than the expected status in all runs: ${unexpected(counted)}${
      poolRanOut ? '; WARNING: a request pool ran out and requests were repeated' : ''
    }.`,
  ];
  const table = [
    '| Measure | Median (min – max) | Note |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
  const text = `# Benchmark results\n\n${header.join('\n')}\n\n${table}\n`;
  process.stdout.write(`${text}\n`);
  if (SMOKE) process.exitCode = smokeVerdict(rows, counted, figures, poolRanOut);
  else writeFileSync('bench/results.md', text);
}

/** The answers other than the expected status, in all, and by the load that had them: a figure that counts errors is no figure. */
const unexpected = (loads: CountedLoad[]) => {
  const all = loads.flatMap(([, , results]) => results);
  const byLoad = loads
    .filter(([, , results]) => results.some((r) => r.unexpected > 0))
    .map(([name, , results]) => `${name}: ${JSON.stringify(results.map((r) => r.unexpectedStatuses))}`);
  return `${all.reduce((sum, r) => sum + r.unexpected, 0)}${byLoad.length === 0 ? '' : ` (${byLoad.join('; ')})`}`;
};
const overflow = (results: LoadResult[], sizes: number[]) => results.some((r, run) => r.sent > sizes[run]!);

/** Whether a load sent more requests than its pool held: it repeated some, which a retry answers from what was stored. */
function ranOut(figures: Figures, pools: Pools): boolean {
  const { createPools, ndctPools, floorPools, floorReadPools, floorPgPools, createPoolSize } = pools;
  const { readPools, bulkPools, floorBulkPools } = pools;
  return (
    overflow(figures.createSqlite, createPools) ||
    overflow(figures.ndctSqlite, ndctPools) ||
    overflow(figures.floorCreate, floorPools) ||
    overflow(figures.floorRead, floorReadPools) ||
    overflow(figures.floorCreatePg, floorPgPools) ||
    overflow(
      figures.createPg,
      figures.createPg.map(() => createPoolSize),
    ) ||
    overflow(figures.read, readPools) ||
    overflow(figures.bulk100, bulkPools[100]) ||
    overflow(figures.bulk1000, bulkPools[1000]) ||
    overflow(figures.floorBulk100, floorBulkPools[100]) ||
    overflow(figures.floorBulk1000, floorBulkPools[1000]) ||
    [figures.byTurnsRead, figures.byTurnsCreate, figures.byTurnsCreatePg].some((rounds) => rounds.some((r) => r.ranOut))
  );
}

/**
 * A smoke run's verdict: each row's status, printed, and 1 when a row failed. A row fails when its
 * figure is not a number, or when a check of its own does: an answer other than the expected status
 * in its loads, a batch or standing orders not booked exactly once, payments stored by two servers
 * that the 201s do not account for, a hostile body not refused. A row that throws ends the run before
 * this, with its error and a non-zero exit.
 */
function smokeVerdict(rows: Row[], counted: CountedLoad[], figures: Figures, poolRanOut: boolean): number {
  const wrong: [row: string, problem: string][] = [
    ...counted
      .filter(([, , results]) => results.some((r) => r.unexpected > 0))
      .map(([name, row, results]): [string, string] => [
        row,
        `answers other than the expected status (${name}): ${JSON.stringify(results.map((r) => r.unexpectedStatuses))}`,
      ]),
    ...figures.createPgTwo
      .filter((f) => f.unexpected > 0 || f.storedLess201 < 0 || f.storedLess201 > CONNECTIONS)
      .map((f): [string, string] => [
        'Create on PostgreSQL, two servers',
        `payments stored less 201s ${f.storedLess201}, unexpected answers ${f.unexpected}`,
      ]),
    ...(figures.batch.every((b) => b.exactlyOnce)
      ? []
      : [['Batch run of', 'exactly once: NO (what is wrong is on stderr)'] as [string, string]]),
    ...(figures.periodic.every((p) => p.exactlyOnce)
      ? []
      : [['standing orders executing', 'exactly once: NO (what is wrong is on stderr)'] as [string, string]]),
    ...(figures.notifications.every((n) => n.allDelivered)
      ? []
      : [['Notifications delivered', 'not every notification delivered once (stderr says)'] as [string, string]]),
    ...figures.hostile
      .flat()
      .filter((h) => Object.keys(h.unexpected).length > 0)
      .map((h): [string, string] => [`Hostile body, ${h.route}:`, `not refused: ${JSON.stringify(h.unexpected)}`]),
    ...(poolRanOut ? [['', 'a request pool ran out and requests were repeated'] as [string, string]] : []),
  ];
  const lines: string[] = [];
  let failed = 0;
  for (const [measure, figure] of rows) {
    const problems = wrong.filter(([row]) => row !== '' && measure.startsWith(row)).map(([, problem]) => problem);
    if (/NaN|Infinity/.test(figure)) problems.unshift(`its figure is not a number: ${figure}`);
    if (problems.length > 0) failed += 1;
    lines.push(
      `${problems.length === 0 ? 'ok  ' : 'FAIL'}  ${measure}${problems.length === 0 ? '' : `: ${problems.join('; ')}`}`,
    );
  }
  // A problem no row claims (the row renamed, or none of its own) still fails the run.
  const unclaimed = wrong.filter(([row]) => row === '' || !rows.some(([measure]) => measure.startsWith(row)));
  for (const [, problem] of unclaimed) lines.push(`FAIL  (the run): ${problem}`);
  failed += unclaimed.length;
  process.stdout.write(
    `Smoke run: every row once at its smallest sizes; the figures mean nothing.\n${lines.join('\n')}\nsmoke: ${rows.length} rows, ${failed} failed\n`,
  );
  return failed === 0 ? 0 : 1;
}
