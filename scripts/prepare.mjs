// @ts-check
/**
 * `prepare`, which npm runs after `npm install` and `npm ci` and before `npm pack`: builds the server
 * in a checkout (`npm run build`), then writes the Postman and Bruno collections (`npm run collections`). The packed artifact has its build and no sources, so an install of
 * it with runtime dependencies only (`npm ci --omit=dev`) builds nothing and needs no compiler. A
 * checkout installed without the development dependencies cannot build: that stops with what to do
 * instead (README, "Running it in production"). Plain JavaScript: it runs before anything is built.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (!existsSync(join(root, 'src'))) process.exit(0);
try {
  createRequire(join(root, 'package.json')).resolve('typescript');
} catch {
  process.stderr.write(
    'prepare: this checkout was installed without the development dependencies (npm ci --omit=dev), so it cannot build the server.\n' +
      '  Production runs the packed artifact, which is built: `npm ci && npm pack` on a build machine, then `npm ci --omit=dev` in the unpacked tarball (README, "Running it in production").\n',
  );
  process.exit(1);
}
const npm = process.env.npm_execpath;
/** @param {string} script */
const runScript = (script) =>
  npm === undefined
    ? spawnSync('npm', ['run', script], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
    : spawnSync(process.execPath, [npm, 'run', script], { cwd: root, stdio: 'inherit' });
const build = runScript('build');
// The Postman and Bruno collections (dist/collections/) with every install and pack, but not with
// every build: a test run's build would pay for them each time, and their own test writes its own.
process.exit(build.status === 0 ? (runScript('collections').status ?? 1) : (build.status ?? 1));
