import { rmSync } from 'node:fs';
import { build } from 'esbuild';

/**
 * Bundles the compiled server (tsc's output, dist/src/main.js) into dist/server/ for `npm start`.
 * Node 20 has no module compile cache: loading some 700 small files of the server and its libraries
 * took 450 ms of a 950 ms start; one bundled file takes about a quarter of that. The toolkit that
 * makes the sandbox CA on a first start is split into a chunk loaded only then. Native and optional
 * modules stay outside.
 */
// Chunk names carry a hash: without a clean folder every build would leave the last one's behind.
rmSync('dist/server', { recursive: true, force: true });
await build({
  entryPoints: { main: 'dist/src/main.js' },
  outdir: 'dist/server',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  external: ['better-sqlite3', 'pg-native'],
  // Libraries written as CommonJS call require(); give the ES module bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
