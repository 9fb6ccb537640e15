import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { BATCH_PAYMENTS, SECONDS } from './bench-sizes.js';
import { type ProfiledRow, profileRow } from './profile-scenario.js';
import type { BenchTpp } from './requests.js';
import { SMOKE } from './smoke.js';

/** The hot rows of issue 44, profiled after every `npm run bench`: create on each engine, the status read, the batch. */
const HOT_ROWS: readonly ProfiledRow[] = ['create', 'create-postgres', 'read', 'batch'];

/**
 * Profiles each hot row (bench/profile-scenario.ts) and writes where its CPU went to
 * bench/profiles.md, beside bench/results.md of the same run, so that a figure and its profile are
 * of one build on one machine. A smoke run takes them at its sizes and writes nothing: it only shows
 * that they still run.
 */
export async function reportProfiles(tpp: BenchTpp, port: number): Promise<void> {
  const sections: string[] = [];
  for (const row of HOT_ROWS) {
    const run = await profileRow(tpp, row, { port, seconds: SECONDS, batchPayments: BATCH_PAYMENTS });
    sections.push(`## ${row}\n\n${run.headline}\n\n\`\`\`\n${run.summary}\`\`\`\n`);
  }
  if (SMOKE) return;
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  writeFileSync(
    'bench/profiles.md',
    `# Where the hot rows' CPU goes\n\nWritten by \`npm run bench\` (bench/profiles-report.ts) with bench/results.md: do not edit. ` +
      `Date: ${new Date().toISOString()}; CPU: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}; Node ${process.version}; commit ${commit}.\n\n` +
      "Each row runs against the unbundled server under `node --cpu-prof` (slower than the table's rows: compare µs per answer, " +
      'not rates); only the measured part counts (the load after its warm-up, the batch from its request to its answer). ' +
      'One row again: `node dist/bench/profile.js <row>`.\n\n' +
      sections.join('\n'),
  );
}
