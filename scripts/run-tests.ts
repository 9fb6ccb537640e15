import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RUN_SHARED_DIR_ENV } from '../test/support/run-shared.js';

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
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
    ...files,
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

child.on('exit', (code, signal) => {
  const tap = readFileSync(tapFile, 'utf8');
  rmSync(reportDir, { recursive: true, force: true });
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
