import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/**
 * dist/server/main.mjs, what `npm start` runs, and dist/server/sandbox-ca-worker.mjs, the thread
 * that makes the sandbox CA (scripts/bundle.ts copies this file to both): runs the bundle of the
 * same name (main.cjs, sandbox-ca-worker.cjs) with the V8 code cache the build made of it. Node 20
 * has no module compile cache (Node 22 has), and parsing and compiling the bundle is the largest
 * part of a start (docs/decisions.md, "A V8 code cache of the bundle, made at build"). V8 checks
 * the cache against its own version and flags and compiles from source when it does not fit; it
 * checks the source only by its length, so the cache's name carries the bundle's size and the id
 * each build writes on the bundle's first line (scripts/bundle.ts), and a bundle rebuilt without its
 * cache is compiled from source. Not its modification time: `npm pack` sets every file's to one date,
 * and the packed artifact's start would then find no cache.
 *
 * With SERVER_CODE_CACHE_WRITE=1 (the build's training start only) the cache is written when the
 * process or thread exits: it then holds every function the start compiled, not only the top level.
 * Whether the cache was used is told to the server (its 'ready' line says it) under
 * CODE_CACHE_STATE.
 */
const CODE_CACHE_STATE = Symbol.for('psd2.codeCache');

const bundle = fileURLToPath(import.meta.url).replace(/\.mjs$/, '.cjs');
// The bundle is ASCII (scripts/bundle.ts makes sure): read as Latin-1, it needs no UTF-8 decoding,
// which would be a large part of reading it (bench/README.md, the cold start).
const source = readFileSync(bundle, 'latin1');
const cacheFile = `${bundle}.${statSync(bundle).size}-${buildIdOf(source)}.cache`;
const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
// The wrapper Node gives a CommonJS module, on the bundle's first line: its line numbers stay true.
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
  filename: bundle,
  ...(cachedData === undefined ? {} : { cachedData }),
});
(globalThis as Record<symbol, unknown>)[CODE_CACHE_STATE] =
  cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used';
if (process.env.SERVER_CODE_CACHE_WRITE === '1') {
  process.once('exit', () => writeFileSync(cacheFile, script.createCachedData()));
}
const module = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void).call(
  module.exports,
  module.exports,
  createRequire(bundle),
  module,
  bundle,
  dirname(bundle),
);

/** The id scripts/bundle.ts writes at the start of the bundle's first line, `/*build:<hex>*\/`; 'none' without one. */
function buildIdOf(text: string): string {
  return /^\/\*build:([0-9a-f]+)\*\//.exec(text.slice(0, 64))?.[1] ?? 'none';
}
