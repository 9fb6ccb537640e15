import { copyFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { SERVER_BUNDLE_OPTIONS, SERVER_LOADER } from '../scripts/server-bundle-options.js';

/**
 * Where the start ceiling's bundle is written: two folders under the project's root, as the
 * server's dist/server/main.mjs is, so that the loader keeps its compile cache in the same place;
 * a folder of this process's own, removed when it exits, since a smoke run may go beside a full run.
 */
const FOLDER = `dist/bench-start-${process.pid}`;
export const START_CEILING = `${FOLDER}/ceiling.mjs`;

let bundled: Promise<string> | undefined;

/**
 * Bundles bench/start-ceiling.ts (tsc's output) with the server's options and puts a copy of the
 * server's loader beside it; once a process. Returns the file to start.
 */
export function bundleStartCeiling(): Promise<string> {
  bundled ??= (async () => {
    process.once('exit', () => rmSync(FOLDER, { recursive: true, force: true }));
    await build({ ...SERVER_BUNDLE_OPTIONS, entryPoints: { ceiling: 'dist/bench/start-ceiling.js' }, outdir: FOLDER });
    copyFileSync(SERVER_LOADER, START_CEILING);
    return START_CEILING;
  })();
  return bundled;
}
