import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { CONFIG_VARIABLES } from '../src/config/config.js';
import { migrations } from '../src/store/migrations/index.js';
import { postgresSchema } from '../src/store/migrations/postgres-schema.js';
import { sqliteSchema } from '../src/store/migrations/sqlite-schema.js';
import { writePrecompiledSchemas } from './precompile-schemas.js';
import { serverProcessSettings } from './process-settings.js';

/**
 * Bundles the compiled server (tsc's output, dist/src/main.js) into dist/server/ for `npm start`.
 * Node 20 has no module compile cache: loading some 700 small files of the server and its libraries
 * is about half of a start; one bundled file takes a fraction of that, and one with a V8 code cache
 * of it (scripts/server-loader.ts, copied to dist/server/main.mjs) less again (docs/decisions.md,
 * "Why is the server bundled after `tsc`?"). The bundle is
 * CommonJS, since only a script (not an ES module) takes a code cache in Node 20; parts a start does
 * not need (Swagger UI, the PostgreSQL driver) are in it but run only when first used. The worker
 * that makes the sandbox CA on a first start, with the certificate library, is a bundle of its own.
 * Native and optional modules stay outside.
 */
// Every route's validators and serializers, compiled now rather than on a route's first request.
await writePrecompiledSchemas();
// The cache's name carries the bundle's size and build id: without a clean folder every build would leave the last one's behind.
rmSync('dist/server', { recursive: true, force: true });
await build({
  entryPoints: { main: 'dist/src/main.js', 'sandbox-ca-worker': 'dist/src/security/sandbox-ca-worker.js' },
  outdir: 'dist/server',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.cjs' },
  external: ['better-sqlite3', 'pg-native'],
  // Our ES modules find files beside them (and libraries) from import.meta.url: the bundle's own address.
  define: { 'import.meta.url': '__bundleUrl' },
  // The build's id first: the loader names the code cache by it (scripts/server-loader.ts).
  banner: {
    js: `/*build:${randomBytes(8).toString('hex')}*/var __bundleUrl = require('node:url').pathToFileURL(__filename).href;`,
  },
  logLevel: 'warning',
});
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
  target: 'node20',
  minify: true,
  // The libraries written as CommonJS require Node's own modules: an ES module has no require of its own.
  banner: {
    js: "import { createRequire as __tppRequire } from 'node:module'; const require = __tppRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
chmodSync('dist/tpp/tpp.mjs', 0o755);
for (const name of ['main', 'sandbox-ca-worker']) {
  asciiOnly(`dist/server/${name}.cjs`);
  copyFileSync('dist/scripts/server-loader.js', `dist/server/${name}.mjs`);
}
await trainCodeCache();
warnOfStaleSchemaScripts();

/**
 * esbuild writes code in ASCII (non-ASCII characters as escapes) but keeps comments as they are.
 * Their non-ASCII characters are written as escapes too, which in code would mean the same
 * character: the loader can then read the bundle as Latin-1, without UTF-8 decoding.
 */
function asciiOnly(file: string): void {
  const text = readFileSync(file, 'utf8');
  writeFileSync(
    file,
    text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

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

/**
 * Starts the bundle once on an empty data folder (migrations, sandbox CA, the first /health), as the
 * first start of an installation does, and stops it: the loader then writes the code cache of every
 * function that start compiled, of the server and of the worker that made the CA. Settings the
 * builder's own environment may hold are cleared.
 */
async function trainCodeCache(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-build-'));
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(CONFIG_VARIABLES)) delete env[name];
  const settings = serverProcessSettings();
  Object.assign(env, {
    ...settings.env,
    PORT: '0',
    LOG_LEVEL: 'info',
    MODE: 'sandbox',
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}`,
    SERVER_CODE_CACHE_WRITE: '1',
  });
  const child = spawn(process.execPath, [...settings.nodeFlags, 'dist/server/main.mjs'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  try {
    let address: string | undefined;
    for await (const line of createInterface({ input: child.stdout! })) {
      const entry = JSON.parse(line) as { msg?: string };
      if (entry.msg?.startsWith('Server listening at ') === true)
        address = entry.msg.slice('Server listening at '.length);
      if (entry.msg === 'ready') break;
    }
    if (address === undefined) throw new Error('the training start did not say where it listens');
    const health = await fetch(`${address}/health`);
    if (health.status !== 200) throw new Error(`the training start answered /health with ${health.status}`);
    child.kill('SIGTERM');
    const [code] = await exited;
    if (code !== 0) throw new Error(`the training start exited with ${code}`);
    const caches = readdirSync('dist/server').filter((f) => f.endsWith('.cache'));
    for (const name of ['main', 'sandbox-ca-worker']) {
      if (!caches.some((f) => f.startsWith(`${name}.cjs.`)))
        throw new Error(`the training start wrote no code cache of ${name}.cjs`);
    }
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
