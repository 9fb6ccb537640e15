import { constants, createRequire, enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * dist/server/main.mjs, what `npm start` runs (scripts/bundle.ts copies this file there): turns Node's
 * module compile cache on, then runs the bundle of the same name (main.cjs). Compiling the
 * bundle is the largest part of a start; Node keeps V8's code of what it compiled, checked against
 * the bundle's content, and a later start takes it from there (docs/decisions/0024). It must be on before the
 * bundle is loaded: this file, not the bundle, turns it on.
 *
 * Where the cache is kept: NODE_COMPILE_CACHE when the environment sets it (Node then turns it on
 * before this file runs, and this call changes nothing); else node_modules/.cache/psd2-server of the
 * checkout or of the installed artifact, which `npm ci` empties with the rest of node_modules; where
 * that cannot be written (an installation the server's user may only read), Node's own default, the
 * system's temporary folder; where neither can, the bundle is compiled from source, slower and
 * otherwise the same. NODE_DISABLE_COMPILE_CACHE=1 turns it off. The `ready` line says where it is
 * (`compileCache`).
 */
const COMPILE_CACHE_STATE = Symbol.for('psd2.compileCache');

const bundle = fileURLToPath(import.meta.url).replace(/\.mjs$/, '.cjs');
// From dist/server/ to the folder of package.json.
let cache = enableCompileCache(join(bundle, '..', '..', '..', 'node_modules', '.cache', 'psd2-server'));
if (cache.status === constants.compileCacheStatus.FAILED) cache = enableCompileCache();
(globalThis as Record<symbol, unknown>)[COMPILE_CACHE_STATE] =
  cache.status === constants.compileCacheStatus.FAILED || cache.status === constants.compileCacheStatus.DISABLED
    ? `off: ${cache.message ?? 'NODE_DISABLE_COMPILE_CACHE'}`
    : cache.directory;
createRequire(bundle)(bundle);
