import { enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { RUN_SHARED_DIR_ENV } from './run-shared.js';

/**
 * Loaded before each test file of a run of scripts/run-tests.ts (its --import): Node's compile cache
 * of modules, kept in the run's shared directory, so that a file's process takes the compiled code of
 * the modules an earlier file loaded (most files load the whole app). Turned on here rather than by
 * NODE_COMPILE_CACHE, which the servers tests start would inherit: they keep a cache of their own
 * unless that variable is set (scripts/server-loader.ts), and a test holds them to it.
 */
const dir = process.env[RUN_SHARED_DIR_ENV];
if (dir !== undefined && dir !== '') enableCompileCache(join(dir, 'compile-cache'));
