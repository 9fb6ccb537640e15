// @ts-check
/**
 * `prepare`, which npm runs after `npm install` and `npm ci` and before `npm pack`: builds the server
 * in a checkout (`node --run build`) when a source is newer than the build (scripts/build-state.mjs),
 * then writes the Postman and Bruno collections (`node --run collections`) when they are missing or the
 * build was made anew. The packed artifact has its build and no sources, so an install of
 * it with runtime dependencies only (`npm ci --omit=dev`) builds nothing and needs no compiler. A
 * checkout installed without the development dependencies cannot build: that stops with what to do
 * instead (README, "Running it in production"). Plain JavaScript: it runs before anything is built.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { changedSource } from './build-state.mjs';
import { requireEngineNode } from './node-version.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (!existsSync(join(root, 'src'))) process.exit(0);
requireEngineNode(root, 'prepare');
try {
  createRequire(join(root, 'package.json')).resolve('typescript');
} catch {
  process.stderr.write(
    'prepare: this checkout was installed without the development dependencies (npm ci --omit=dev), so it cannot build the server.\n' +
      '  Production runs the packed artifact, which is built: `npm ci && npm pack` on a build machine, then `npm ci --omit=dev` in the unpacked tarball (README, "Running it in production").\n',
  );
  process.exit(1);
}
/** @param {string} script a script of package.json, run by this Node (`node --run`) */
const runScript = (script) => spawnSync(process.execPath, ['--run', script], { cwd: root, stdio: 'inherit' });
// `npm ci && npm pack` runs this twice: the second finds the build current and leaves it.
const changed = changedSource(root, ['package.json', 'package-lock.json']);
if (changed === undefined) {
  process.stderr.write('prepare: the build is current (no source is newer than it)\n');
} else {
  const build = runScript('build');
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// The Postman and Bruno collections (dist/collections/) with every install and pack, but not with
// every build: a test run's build would pay for them each time, and their own test writes its own.
if (changed === undefined && existsSync(join(root, 'dist', 'collections'))) process.exit(0);
process.exit(runScript('collections').status ?? 1);
