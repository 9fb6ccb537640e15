import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { parseDependencyTree } from 'dpdm';

/**
 * Runs the test files a change touches (`npm run test:changed [-- --base <ref>] [--list]`; `--list` only names them): a test changed
 * itself, one that imports a changed file however indirectly, and one whose imports read a changed
 * file by its path (a document, the README). The change is what differs from the base, committed
 * or not: by default where this branch left main, or, on main, the uncommitted work. A change to
 * what every test stands on (the package, the compiler's settings, CI) runs them all. CI runs the
 * whole suite whatever this selects; this is a developer's quick check.
 */
const EVERYTHING = ['package.json', 'package-lock.json', 'tsconfig.json', '.ci/', 'scripts/run-tests.ts'];

function git(...args: string[]): string {
  return execFileSync('git', args, { encoding: 'utf8' }).trim();
}

function baseRef(): string {
  const asked = process.argv.indexOf('--base');
  if (asked !== -1 && process.argv[asked + 1] !== undefined) return process.argv[asked + 1]!;
  const head = git('rev-parse', 'HEAD');
  const forked = git('merge-base', 'HEAD', 'main');
  return forked === head ? 'HEAD' : forked;
}

function changedFiles(base: string): string[] {
  const tracked = git('diff', '--name-only', base).split('\n');
  const untracked = git('ls-files', '--others', '--exclude-standard').split('\n');
  return [...new Set([...tracked, ...untracked])].filter((f) => f !== '');
}

/** Every file each test file imports, however indirectly, itself included. */
async function closures(): Promise<Map<string, Set<string>>> {
  const tree = await parseDependencyTree('test/**/*.test.ts', {
    context: process.cwd(),
    tsconfig: 'tsconfig.json',
    transform: false,
    skipDynamicImports: false,
    include: /\.ts$/,
    exclude: /node_modules/,
  });
  const result = new Map<string, Set<string>>();
  for (const test of Object.keys(tree).filter((f) => /^test\/.*\.test\.ts$/.test(f))) {
    const seen = new Set<string>([test]);
    const queue = [test];
    while (queue.length > 0) {
      for (const dependency of tree[queue.pop()!] ?? []) {
        // Only the repository's own files: a library or Node's own module changes with the package (EVERYTHING).
        if (
          dependency.id !== null &&
          !dependency.id.includes('node_modules') &&
          existsSync(dependency.id) &&
          !seen.has(dependency.id)
        ) {
          seen.add(dependency.id);
          queue.push(dependency.id);
        }
      }
    }
    result.set(test, seen);
  }
  return result;
}

/** The test files a change touches; every one when it touches what they all stand on. */
async function affectedTests(changed: readonly string[]): Promise<string[] | 'all'> {
  if (changed.some((f) => EVERYTHING.some((e) => f === e || (e.endsWith('/') && f.startsWith(e))))) return 'all';
  const changedSet = new Set(changed);
  const named = changed.filter((f) => !f.endsWith('.ts'));
  const texts = new Map<string, string>();
  const text = (file: string) => texts.get(file) ?? texts.set(file, readFileSync(file, 'utf8')).get(file)!;
  const affected: string[] = [];
  for (const [test, files] of await closures()) {
    const hit =
      [...files].some((f) => changedSet.has(f)) ||
      // A test reads a document by naming its path in its own code (or its support's); a source file
      // that names one in a comment does not read it.
      (named.length > 0 && [...files].some((f) => f.startsWith('test/') && named.some((n) => text(f).includes(n))));
    if (hit) affected.push(test);
  }
  return affected.sort();
}

const changed = changedFiles(baseRef());
const tests = await affectedTests(changed);
if (tests !== 'all' && tests.length === 0) {
  process.stdout.write(`test:changed: ${changed.length} changed files touch no test\n`);
  process.exit(0);
}
process.stdout.write(
  tests === 'all'
    ? 'test:changed: the change touches what every test stands on: running them all\n'
    : `test:changed: ${changed.length} changed files touch ${tests.length} test files\n${tests.join('\n')}\n`,
);
if (process.argv.includes('--list')) process.exit(0);
// run-tests matches compiled paths: test/a/b.test.ts is dist/test/a/b.test.js.
const filters = tests === 'all' ? [] : tests.map((t) => t.replace(/ts$/, ''));
const run = spawnSync(process.execPath, ['dist/scripts/run-tests.js', ...filters], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
