import { chmodSync, copyFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { migrations } from '../src/store/migrations/index.js';
import { postgresSchema } from '../src/store/migrations/postgres-schema.js';
import { sqliteSchema } from '../src/store/migrations/sqlite-schema.js';
import { writePrecompiledSchemas } from './precompile-schemas.js';
import { SERVER_BUNDLE_OPTIONS, SERVER_LOADER } from './server-bundle-options.js';

/**
 * Bundles the compiled server (tsc's output, dist/src/main.js, behind the entry that installs the
 * precompiled schemas: scripts/precompile-schemas.ts) into dist/server/ for `npm start`.
 * Loading some 700 small files of the server and its libraries was about half of a start; one bundled
 * file takes a fraction of that, and Node's module compile cache, which the entry turns on
 * (scripts/server-loader.ts, copied to dist/server/main.mjs), less again (docs/decisions/0023). The bundle is
 * CommonJS, run with `require` by that entry: the
 * libraries are mostly CommonJS and need nothing of an ES module's; parts a start does not need
 * (Swagger UI, the PostgreSQL driver) are in it but run only when first used. Native and
 * optional modules stay outside.
 */
// Every route's validators and serializers, compiled now rather than on a route's first request.
const { entry } = await writePrecompiledSchemas();
// A clean folder: nothing of an earlier build stays beside the new one.
rmSync('dist/server', { recursive: true, force: true });
await build({ ...SERVER_BUNDLE_OPTIONS, entryPoints: { main: entry }, outdir: 'dist/server' });
// The TPP toolkit, a folder of its own (package.json "bin": dist/tpp/tpp.mjs): `tpp call` then loads
// a few modules rather than some 150, and runs outside this repository once installed from the
// packed tarball. What only some commands import when they run (the certificate library, for
// `tpp ca` and `tpp cert` from a CA's files) is a chunk beside it: inside tpp.mjs, its 300 KB were
// parsed by every `tpp call` too. Chunks' names change with their content: the folder is emptied first.
rmSync('dist/tpp', { recursive: true, force: true });
await build({
  entryPoints: { tpp: 'dist/src/cli/tpp.js' },
  outdir: 'dist/tpp',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: true,
  // The libraries written as CommonJS require Node's own modules: an ES module has no require of its own.
  banner: {
    js: "import { createRequire as __tppRequire } from 'node:module'; const require = __tppRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
chmodSync('dist/tpp/tpp.mjs', 0o755);
copyFileSync(SERVER_LOADER, 'dist/server/main.mjs');
warnOfStaleSchemaScripts();

/** A migration newer than the schema scripts runs through the migrator after them on every first start: correct, but slower. */
function warnOfStaleSchemaScripts(): void {
  const count = Object.keys(migrations).length;
  for (const script of [sqliteSchema, postgresSchema]) {
    if (script.migrations.length !== count) {
      process.stderr.write(
        `bundle: the schema scripts cover ${script.migrations.length} of ${count} migrations; run node dist/scripts/schema-scripts.js and build again\n`,
      );
      return;
    }
  }
}
