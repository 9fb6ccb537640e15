import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServerProcess } from '../support/server-process.js';
import { tppFixtures } from '../support/tpp-fixtures.js';
import { PRODUCTION_LOG_IN } from '../support/production-log-in.js';

/** npm as the test runner was started by it (npm test), else the one on the PATH. */
const NPM: readonly string[] =
  process.env.npm_execpath === undefined ? ['npm'] : [process.execPath, process.env.npm_execpath];

function run(command: readonly string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(command[0]!, command.slice(1), {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

function succeed(command: readonly string[], cwd: string, env: Record<string, string> = {}): string {
  const { status, output } = run(command, cwd, env);
  assert.equal(status, 0, `${command.join(' ')} in ${cwd}:\n${output.slice(-4000)}`);
  return output;
}

const dir = mkdtempSync(join(tmpdir(), 'psd2-install-'));
const clone = join(dir, 'clone');
const installed = join(dir, 'installed');
let tarball = '';

/**
 * The bank's install path (README, "Running it in production"): a build machine packs the server
 * (`npm pack` in a clone after `npm ci`), the bank unpacks the tarball and installs its runtime
 * dependencies only (`npm ci --omit=dev`), and `npm start` runs the build it carries, never building.
 *
 * What stands in for what, so that the test needs no network and minutes less:
 * - The clone is the files git would give (tracked, and new ones not ignored), copied from this
 *   checkout; its `npm ci` is this checkout's node_modules, linked, and the build that `npm ci` makes
 *   through `prepare` is this checkout's dist/ (built from the same sources by `npm test`), copied
 *   after the sources. `npm pack` runs `prepare` again, which finds that build current and keeps it.
 * - `npm ci --omit=dev` runs offline, from npm's cache, which the checkout's own install filled.
 *   Install scripts are skipped: better-sqlite3's would compile SQLite for minutes when it cannot
 *   download its binary; its binary is copied from this checkout's install instead. The artifact's
 *   own `prepare` is then run by itself, and must do nothing.
 */
describe('the packed artifact, from a fresh clone to a production start', () => {
  before(() => {
    mkdirSync(clone);
    const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      encoding: 'utf8',
    }).stdout.split('\0');
    for (const file of files) if (file !== '' && existsSync(file)) cpSync(file, join(clone, file), { recursive: true });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a clone installed without the development dependencies cannot build, and says what to do instead', () => {
    const { status, output } = run([process.execPath, 'scripts/prepare.mjs'], clone);
    assert.equal(status, 1, output);
    assert.match(output, /installed without the development dependencies \(npm ci --omit=dev\), so it cannot build/);
    assert.match(output, /Production runs the packed artifact/);
  });

  it(
    'npm pack makes a tarball of the build, the start scripts and the lock file, without the sources',
    { timeout: 900_000 },
    () => {
      symlinkSync(realpathSync('node_modules'), join(clone, 'node_modules'));
      cpSync('dist', join(clone, 'dist'), { recursive: true });
      const packing = succeed([...NPM, 'pack', '--pack-destination', dir], clone);
      // `npm ci` built it: `npm pack` keeps that build rather than making it a second time.
      assert.match(packing, /prepare: the build is current/);
      assert.doesNotMatch(packing, /tsc -p/);
      const packed = readdirSync(dir).filter((f) => f.endsWith('.tgz'));
      assert.equal(packed.length, 1, JSON.stringify(packed));
      tarball = join(dir, packed[0]!);
      assert.equal(existsSync(join(clone, 'npm-shrinkwrap.json')), false, 'postpack removes the copied lock file');
      mkdirSync(installed);
      succeed(['tar', 'xzf', tarball, '-C', installed, '--strip-components=1'], dir);
      const top = readdirSync(installed).sort();
      assert.deepEqual(top, [
        'CHANGELOG.md',
        'README.md',
        'dist',
        'docs',
        'npm-shrinkwrap.json',
        'package.json',
        'scripts',
      ]);
      assert.deepEqual(readdirSync(join(installed, 'scripts')).sort(), [
        'build-state.mjs',
        'node-version.mjs',
        'prepare.mjs',
        'start.env',
        'start.mjs',
        'start.sh',
      ]);
      // The toolkit runs from the artifact alone, outside any checkout (package.json "bin": tpp).
      const bin = (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { bin: Record<string, string> })
        .bin;
      assert.equal(bin.tpp, 'dist/tpp/tpp.mjs');
      const help = succeed([process.execPath, join(installed, bin.tpp), '--help'], dir);
      for (const command of ['cert', 'call', 'approve', 'wait', 'proxy'])
        assert.match(help, new RegExp(`\\n  ${command} `));
      // The bundles and their entries; no compile cache: each installation makes its own on its first start.
      assert.deepEqual(readdirSync(join(installed, 'dist', 'server')).sort(), ['main.cjs', 'main.mjs']);
    },
  );

  it(
    "npm ci --omit=dev installs the runtime dependencies only, and the artifact's prepare builds nothing",
    { timeout: 600_000 },
    () => {
      assert.notEqual(tarball, '', 'packed');
      succeed([...NPM, 'ci', '--omit=dev', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], installed);
      const binary = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
      mkdirSync(join(installed, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
      cpSync(realpathSync(binary), join(installed, binary));
      const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
        dependencies: Record<string, string>;
      };
      for (const name of Object.keys(manifest.dependencies))
        assert.ok(existsSync(join(installed, 'node_modules', name, 'package.json')), `runtime dependency ${name}`);
      // Every package the lock file has for development only (TypeScript, esbuild, Playwright, autocannon…) is left out.
      const lock = JSON.parse(readFileSync(join(installed, 'npm-shrinkwrap.json'), 'utf8')) as {
        packages: Record<string, { dev?: boolean }>;
      };
      const developmentOnly = Object.entries(lock.packages).filter(
        ([path, entry]) => path !== '' && entry.dev === true,
      );
      assert.ok(developmentOnly.length > 50, `${developmentOnly.length} development-only packages in the lock file`);
      for (const [path] of developmentOnly)
        assert.equal(existsSync(join(installed, path)), false, `${path}, for development only, is installed`);
      for (const tool of ['typescript', 'esbuild', 'playwright-core', 'autocannon', 'prettier'])
        assert.equal(existsSync(join(installed, 'node_modules', tool)), false, tool);
      assert.equal(existsSync(join(installed, 'node_modules', '.bin', 'tsc')), false);
      const prepare = succeed([...NPM, 'run', 'prepare'], installed);
      assert.doesNotMatch(prepare, /build|tsc/i);
    },
  );

  it(
    "npm start runs the build it carries and never builds; its first start makes the compile cache in the installation's node_modules, which the next takes the bundle from",
    { timeout: 120_000 },
    async () => {
      const data = join(dir, 'data');
      const env = { DATA_DIR: data, DATABASE_URL: `sqlite:${join(data, 'psd2.db')}` };
      const cache = join(installed, 'node_modules', '.cache', 'psd2-server');
      for (const start of ['first', 'second']) {
        // Node says on stderr what its compile cache did with each module it loaded.
        const server = await startServerProcess(
          start === 'second' ? { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' } : env,
          [...NPM, '--prefix', installed, 'start'],
        );
        try {
          const ready = server.lines.find((l) => l.msg === 'ready')!;
          assert.equal(ready.compileCache, cache, `${start} start`);
          if (start === 'second')
            assert.ok(
              server.stderr.some((l) =>
                l.includes(`code cache for CommonJS ${join(installed, 'dist', 'server', 'main.cjs')} was accepted`),
              ),
              server.stderr.filter((l) => l.includes('main.cjs')).join('\n'),
            );
          const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
          const health = (await (await fetch(`${server.url}/health`)).json()) as { version: { server: string } };
          assert.equal(health.version.server, version);
          assert.deepEqual(
            server.stderr.filter((l) => !l.startsWith('[compile cache]') && /build/i.test(l)),
            [],
          );
        } finally {
          server.child.kill('SIGTERM');
          await server.exited;
        }
      }
    },
  );

  it(
    "where the installation's node_modules/.cache cannot be written, the compile cache is Node's own, in the temporary folder",
    { timeout: 120_000 },
    async () => {
      // As root the test cannot be refused by a folder's permissions: a file where the folder would be refuses it too.
      rmSync(join(installed, 'node_modules', '.cache'), { recursive: true, force: true });
      writeFileSync(join(installed, 'node_modules', '.cache'), '');
      const temporary = join(dir, 'tmp');
      mkdirSync(temporary);
      const data = join(dir, 'data-read-only');
      try {
        const server = await startServerProcess(
          { DATA_DIR: data, DATABASE_URL: `sqlite:${join(data, 'psd2.db')}`, TMPDIR: temporary },
          [...NPM, '--prefix', installed, 'start'],
        );
        try {
          assert.equal((await fetch(`${server.url}/health`)).status, 200);
          assert.equal(
            server.lines.find((l) => l.msg === 'ready')!.compileCache,
            join(temporary, 'node-compile-cache'),
          );
        } finally {
          server.child.kill('SIGTERM');
          await server.exited;
        }
      } finally {
        rmSync(join(installed, 'node_modules', '.cache'), { force: true });
      }
    },
  );

  it(
    'in a checkout, MODE=production starts the build as it is rather than building when a source is newer',
    { timeout: 120_000 },
    async () => {
      const source = join(clone, 'src', 'main.ts');
      utimesSync(source, new Date(), new Date(Date.now() + 60_000));
      const data = join(dir, 'data-production');
      const trusted = join(dir, 'trusted.pem');
      writeFileSync(trusted, (await tppFixtures()).ca.certPem);
      const key = join(dir, 'psu-identity.key');
      writeFileSync(key, randomBytes(32).toString('hex'), { mode: 0o600 });
      const server = await startServerProcess(
        {
          MODE: 'production',
          CORE: 'embedded',
          BANK_BIC: 'SPTRNO22',
          ...PRODUCTION_LOG_IN,
          TRUSTED_CA_CERTS: trusted,
          PSU_IDENTITY_KEY_FILE: key,
          DATA_DIR: data,
          DATABASE_URL: `sqlite:${join(data, 'psd2.db')}`,
        },
        [...NPM, '--prefix', clone, 'start'],
      );
      try {
        assert.ok(
          server.stderr.some((l) =>
            l.includes('src/main.ts is newer than the build, but MODE=production never builds'),
          ),
          server.stderr.join('\n'),
        );
        assert.deepEqual(
          server.stderr.filter((l) => l.includes('building first')),
          [],
        );
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    },
  );
});
