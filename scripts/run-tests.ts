import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { filesCpu } from '../test/support/file-cpu.js';
import { PG_TEMPLATE_SHARED, RUN_SHARED_DIR_ENV } from '../test/support/run-shared.js';
import { groupTestFiles } from './test-groups.js';

/**
 * Runs every compiled test file (dist/test/**\/*.test.js) whose source (test/**\/*.test.ts) exists,
 * with node:test. Node 20's runner neither expands globs nor finds files in a folder, and exits 0 when
 * it ran nothing; this lists the files itself and fails when no test ran. tsc never deletes from
 * dist/, so a test moved or removed under test/ leaves its compiled copy behind: a copy without its
 * source is not run. Arguments narrow the run to files whose path contains one of them.
 */
function findTests(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (entry.endsWith('.test.js')) found.push(path);
  }
  return found.sort();
}

/** The source a compiled test was made from: test/a/b.test.ts for dist/test/a/b.test.js. */
function sourceOf(compiled: string): string {
  return relative('dist', compiled).replace(/\.js$/, '.ts');
}

/** How many of the costliest files the summary names. */
const COSTLIEST_SHOWN = 15;

const filters = process.argv.slice(2);
const files = findTests('dist/test').filter(
  (file) => existsSync(sourceOf(file)) && (filters.length === 0 || filters.some((f) => file.includes(f))),
);
if (files.length === 0) {
  process.stderr.write('run-tests: no test files found under dist/test\n');
  process.exit(1);
}

const reportDir = mkdtempSync(join(tmpdir(), 'psd2-tests-'));
const tapFile = join(reportDir, 'report.tap');
const child = spawn(
  process.execPath,
  [
    '--test',
    '--test-concurrency=2',
    // In each test file's process, before the file: modules compiled once for the whole run.
    `--import=${pathToFileURL(resolve('dist/test/support/compile-cache.js')).href}`,
    // Each file's CPU, for the list of the costliest below.
    `--import=${pathToFileURL(resolve('dist/test/support/file-cpu-hook.js')).href}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
    ...groupTestFiles(files, reportDir, sourceOf),
  ],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_ENV: 'test',
      // Each test file runs in a process of its own: what every file would make alike is made by the
      // first that needs it (test/support/run-shared.ts).
      [RUN_SHARED_DIR_ENV]: reportDir,
    },
  },
);

child.on('exit', async (code, signal) => {
  const tap = readFileSync(tapFile, 'utf8');
  const cpu = filesCpu(reportDir);
  // The migrated PostgreSQL template a file made for the run's databases (test/support/postgres.ts).
  if (existsSync(join(reportDir, PG_TEMPLATE_SHARED))) {
    const { dropRunTemplate } = await import('../test/support/postgres.js');
    await dropRunTemplate(reportDir);
  }
  rmSync(reportDir, { recursive: true, force: true });
  if (cpu.length > 0) {
    const total = cpu.reduce((sum, f) => sum + f.seconds, 0);
    const top = cpu.slice(0, COSTLIEST_SHOWN).map((f) => `  ${f.seconds.toFixed(1).padStart(6)} s  ${f.file}\n`);
    process.stdout.write(
      `\nrun-tests: the test files' processes took ${total.toFixed(0)} s of CPU (servers and browsers they ran included, PostgreSQL not); the costliest:\n${top.join('')}`,
    );
  }
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
  const tests = count('tests');
  process.stdout.write(
    `\nrun-tests: ${files.length} files, ${tests} tests, ${count('pass')} passed, ${count('fail')} failed, ${count('cancelled')} cancelled (a hook failed), ${count('skipped')} skipped, ${count('todo')} todo\n`,
  );
  if (tests === 0) {
    process.stderr.write('run-tests: no test ran; failing\n');
    process.exit(1);
  }
  if (count('cancelled') > 0) {
    process.stderr.write('run-tests: tests were cancelled because a hook before them failed; failing\n');
    process.exit(1);
  }
  if (count('skipped') > 0 || count('todo') > 0) {
    process.stderr.write('run-tests: skipped or todo tests are holes; failing\n');
    process.exit(1);
  }
  process.exit(signal === null ? (code ?? 1) : 1);
});
