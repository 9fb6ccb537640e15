// @ts-check
/**
 * `npm start`: runs the built server (dist/server/main.mjs, made by `npm install` through the
 * `prepare` script) in this process. In a checkout it builds first only when the bundle is missing or
 * a source file is newer than it, so every start after the first costs the server's own start, not a
 * 17 s compile. It never builds in production: not in the packed artifact (`npm pack`), which has the
 * build and no sources, nor with MODE=production, where a build would need the development tools and
 * make each instance's start depend on them (README, "Running it in production"). Plain JavaScript,
 * not compiled: it has to run before there is anything built.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { changedSource } from './build-state.mjs';
import { requireEngineNode } from './node-version.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
requireEngineNode(root, 'npm start');
const bundle = join(root, 'dist', 'server', 'main.mjs');
/** A checkout has the sources; the packed artifact has only the build (package.json "files"). */
const checkout = existsSync(join(root, 'src')) && existsSync(join(root, 'tsconfig.json'));
const production = (process.env.MODE ?? '').trim() === 'production';
const changed = checkout ? changedSource(root) : existsSync(bundle) ? undefined : relative(root, bundle);
if (changed !== undefined && (production || !checkout)) {
  const why = checkout ? 'MODE=production never builds' : 'this installation has no sources to build from';
  if (!existsSync(bundle)) {
    process.stderr.write(
      `npm start: there is no build (${relative(root, bundle)}) and ${why}: install the packed artifact (npm pack), or run npm run build\n`,
    );
    process.exit(2);
  }
  process.stderr.write(`npm start: ${changed} is newer than the build, but ${why}: starting the build as it is\n`);
} else if (changed !== undefined) {
  // The build's output goes to stderr: stdout carries the server's JSON log lines only.
  process.stderr.write(`npm start: ${changed} is newer than the build: building first (node --run build)\n`);
  const build = spawnSync(process.execPath, ['--run', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) {
    process.stderr.write('npm start: the build failed (above); the server was not started\n');
    process.exit(build.status ?? 1);
  }
}
await import(pathToFileURL(bundle).href);
