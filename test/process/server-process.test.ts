import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { SANDBOX_CA_CERT_FILE, SANDBOX_CA_KEY_FILE } from '../../src/security/sandbox-ca.js';
import { NATIONAL_ID_KEY_FILE } from '../../src/security/national-id-key.js';
import { createTestDatabase } from '../support/postgres.js';
import { connect } from 'node:net';
import { once } from 'node:events';
import { signRequest } from '../../src/toolkit/request-signer.js';
import {
  CROSS_BORDER_PATH,
  crossBorderBody,
  psuByNationalId,
  signedCrossBorderCreate,
} from '../support/payment-requests.js';
import { ENGINES, NPM_START, failedStart, freshServerData, startServerProcess } from '../support/server-process.js';
import { tppFixtures } from '../support/tpp-fixtures.js';
import { PRODUCTION_LOG_IN } from '../support/production-log-in.js';
import { refusedAuthority } from '../support/refused-certificates.js';

/** The server as a process: start, configuration, modes, databases and shutdown. */
const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-proc-'));
  dirs.push(dir);
  return dir;
}

describe('the server process', () => {
  it('starts in sandbox mode on an empty folder: migrates, makes its sandbox CA, answers /health with the database up', async () => {
    const dir = tempDir();
    const server = await startServerProcess({ DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'db', 'psd2.db')}` });
    try {
      const response = await fetch(`${server.url}/health`);
      assert.equal(response.status, 200);
      const health = (await response.json()) as {
        status: string;
        mode: string;
        database: { kind: string; status: string; latencyMs: number };
      };
      assert.equal(health.status, 'ok');
      assert.equal(health.mode, 'sandbox');
      assert.equal(health.database.kind, 'sqlite');
      assert.equal(health.database.status, 'up');
      assert.equal(typeof health.database.latencyMs, 'number');
      assert.ok(existsSync(join(dir, SANDBOX_CA_CERT_FILE)));
      assert.ok(existsSync(join(dir, SANDBOX_CA_KEY_FILE)));
      const ready = server.lines.find((l) => l.msg === 'ready')!;
      assert.equal(typeof ready.startupMs, 'number');
      assert.deepEqual(ready.trustedCas, ['Sandbox PSD2 Test CA']);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it("compresses an answer whose media type the compression plugin looks up (the bundle's table, built at the first look-up): JavaScript yes, PNG no", async () => {
    const dir = tempDir();
    const server = await startServerProcess({ DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}` });
    try {
      // Neither type matches the plugin's own pattern of compressible types: each is looked up in mime-db.
      const script = await fetch(`${server.url}/docs/static/swagger-ui-bundle.js`, {
        headers: { 'Accept-Encoding': 'gzip' },
      });
      assert.equal(script.status, 200);
      assert.match(script.headers.get('content-type') ?? '', /^application\/javascript/);
      assert.equal(script.headers.get('content-encoding'), 'gzip');
      assert.match(await script.text(), /SwaggerUI/);
      const image = await fetch(`${server.url}/docs/static/favicon-32x32.png`, {
        headers: { 'Accept-Encoding': 'gzip' },
      });
      assert.equal(image.status, 200);
      assert.equal(image.headers.get('content-type'), 'image/png');
      assert.equal(image.headers.get('content-encoding'), null);
      await image.arrayBuffer();
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('keeps its sandbox CA across restarts', async () => {
    const dir = tempDir();
    const env = { DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}` };
    const first = await startServerProcess(env);
    first.child.kill('SIGTERM');
    await first.exited;
    const certificate = readFileSync(join(dir, SANDBOX_CA_CERT_FILE), 'utf8');
    const second = await startServerProcess(env);
    second.child.kill('SIGTERM');
    await second.exited;
    assert.equal(readFileSync(join(dir, SANDBOX_CA_CERT_FILE), 'utf8'), certificate);
  });

  it('starts with npm start from the build, without building again: a second start on the same data folder is ready, answers, and takes the bundle from the compile cache', async () => {
    const dir = tempDir();
    const env = { DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}` };
    for (const start of ['first', 'second']) {
      // Node says on stderr what its compile cache did with each module it loaded (COMPILE_CACHE), and
      // what V8 made of the cache of each of Node's own modules (CODE_CACHE).
      const server = await startServerProcess({ ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE,CODE_CACHE' }, NPM_START);
      try {
        assert.equal((await fetch(`${server.url}/health`)).status, 200, `${start} start`);
        const ready = server.lines.find((l) => l.msg === 'ready');
        assert.ok(ready !== undefined, `${start} start logs ready`);
        // scripts/start.env's settings: a young generation of one fixed size (8 MiB a semi-space), malloc
        // memory kept in two arenas.
        assert.deepEqual(ready.nodeFlags, ['--min-semi-space-size=8', '--max-semi-space-size=8'], `${start} start`);
        // None of them costs the start Node's embedded cache of its own modules: a flag V8 counts into the
        // hash it checks code caches against (--heap-growing-percent, say) makes it reject every one.
        // The modules the start loads on the main thread; what loads later (a worker, fetch) comes
        // after the server has set its heap growth, and compiles afresh (src/heap-growth.ts).
        // npm's own Node says the same of the modules it loads; every line must say accepted.
        for (const module of ['crypto', 'internal/crypto/x509', 'net', 'fs/promises', 'http', '_http_server']) {
          const said = server.stderr.filter((l) => l.startsWith(`Code cache of ${module} (`));
          assert.ok(said.length > 0, `${start} start: Node says nothing of the cache of ${module}`);
          assert.deepEqual(
            said.filter((l) => !l.endsWith(' is accepted')),
            [],
            `${start} start`,
          );
        }
        // The old generation's growth, which V8 took (its flags' hash changed) once the server was ready.
        assert.equal(ready.heapGrowingPercent, 100, `${start} start`);
        assert.match(
          String(ready.glibcTunables),
          /glibc\.malloc\.mmap_threshold=33554432:glibc\.malloc\.trim_threshold=1073741824:glibc\.malloc\.arena_max=2$/,
        );
        // Node's module compile cache, in the checkout's node_modules/.cache (scripts/server-loader.ts).
        assert.equal(ready.compileCache, resolve('node_modules', '.cache', 'psd2-server'), `${start} start`);
        if (start === 'second') {
          // The first start wrote the cache of what it compiled; the second compiles the bundle no more.
          assert.ok(
            server.stderr.some((l) =>
              l.includes(`code cache for CommonJS ${resolve('dist', 'server', 'main.cjs')} was accepted`),
            ),
            server.stderr.filter((l) => l.includes('main.cjs')).join('\n'),
          );
          // The first start may build when a source changed since the last build; the second never does.
          assert.deepEqual(
            server.stderr.filter((l) => l.includes('building first')),
            [],
          );
        }
      } finally {
        server.child.kill('SIGTERM');
      }
      // npm hands the signal to the server itself (exec): it shuts down as when run directly.
      assert.equal((await server.exited).code, 0, `${start} start exits 0 on SIGTERM`);
      assert.ok(
        server.lines.some((l) => l.msg === 'stopped'),
        `${start} start logs stopped`,
      );
    }
  });

  it('stops on SIGTERM: logs the shutdown, closes the database and exits 0', async () => {
    const dir = tempDir();
    const server = await startServerProcess({ DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}` });
    assert.equal((await fetch(`${server.url}/health`)).status, 200);
    // The warm-up after listening (src/http/schema-compiler/warm-up.ts) ends without error while the server answers.
    for (let i = 0; i < 250 && !server.lines.some((l) => l.msg === 'warmed up' || l.msg === 'warm-up failed'); i++)
      await new Promise((r) => setTimeout(r, 20));
    assert.equal(server.lines.find((l) => l.msg === 'warmed up' || l.msg === 'warm-up failed')?.msg, 'warmed up');
    server.child.kill('SIGTERM');
    const { code } = await server.exited;
    assert.equal(code, 0);
    assert.ok(server.lines.some((l) => l.msg === 'stopped'));
    // SQLite removes the write-ahead log when the last connection closes cleanly.
    assert.equal(existsSync(join(dir, 'psd2.db-wal')), false);
    await assert.rejects(fetch(`${server.url}/health`));
  });

  it('stops on SIGINT the same way', async () => {
    const dir = tempDir();
    const server = await startServerProcess({ DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}` });
    server.child.kill('SIGINT');
    assert.equal((await server.exited).code, 0);
  });

  it('runs on PostgreSQL, migrating at start', async () => {
    const database = await createTestDatabase();
    const server = await startServerProcess({ DATA_DIR: tempDir(), DATABASE_URL: database.url });
    try {
      const health = (await (await fetch(`${server.url}/health`)).json()) as {
        database: { kind: string; status: string };
      };
      assert.equal(health.database.kind, 'postgres');
      assert.equal(health.database.status, 'up');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await database.drop();
    }
  });

  it("in production serves no sandbox route, makes no sandbox CA, and serves no /metrics on the API's port unless asked", async () => {
    const dir = tempDir();
    const fixtures = await tppFixtures();
    writeFileSync(join(dir, 'trusted.pem'), fixtures.ca.certPem);
    writeFileSync(join(dir, 'secret.key'), `${'ab'.repeat(32)}\n`);
    const server = await startServerProcess({
      MODE: 'production',
      CORE: 'embedded',
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}`,
      TRUSTED_CA_CERTS: join(dir, 'trusted.pem'),
      BANK_BIC: 'SPTRNO22',
      ...PRODUCTION_LOG_IN,
      PSU_IDENTITY_KEY_FILE: join(dir, 'secret.key'),
      METRICS_PORT: '',
    });
    try {
      // Issue 31, 7: with METRICS_PORT left empty, GET /metrics, unsigned, answered 200 here.
      assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
      assert.equal(server.lines.find((l) => l.msg === 'ready')!.metrics, 'off');
      assert.equal(existsSync(join(dir, NATIONAL_ID_KEY_FILE)), false, 'no key is made in DATA_DIR');
      const response = await fetch(`${server.url}/v1/sandbox/customers`);
      assert.equal(response.status, 404);
      const body = (await response.json()) as { code: string; message: string };
      assert.equal(body.code, 'NOT_FOUND');
      assert.match(body.message, /belongs to the sandbox, which production does not serve/);
      assert.equal(existsSync(join(dir, SANDBOX_CA_CERT_FILE)), false);
      const ready = server.lines.find((l) => l.msg === 'ready')!;
      assert.deepEqual(ready.trustedCas, ['Test PSD2 CA']);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  // Issue 38: production kept the accounts in this server, and took a payment from an account nobody holds.
  it("refuses to start in production without the bank's core, naming CORE_URL and CORE (exit 2)", async () => {
    const dir = tempDir();
    const fixtures = await tppFixtures();
    writeFileSync(join(dir, 'trusted.pem'), fixtures.ca.certPem);
    writeFileSync(join(dir, 'secret.key'), `${'ab'.repeat(32)}\n`);
    const { code, stderr } = await failedStart({
      MODE: 'production',
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}`,
      TRUSTED_CA_CERTS: join(dir, 'trusted.pem'),
      BANK_BIC: 'SPTRNO22',
      PSU_IDENTITY_KEY_FILE: join(dir, 'secret.key'),
    });
    assert.equal(code, 2);
    assert.match(stderr, /CORE_URL/);
    assert.match(stderr, /CORE=embedded/);
    assert.equal(existsSync(join(dir, 'psd2.db')), false, 'no database is made');
  });

  // Issue 31, 7: the key was made silently into DATA_DIR, to be lost with the container or to differ between instances.
  it('refuses to start in production without PSU_IDENTITY_KEY_FILE, saying so, and makes no key', async () => {
    const dir = tempDir();
    const fixtures = await tppFixtures();
    writeFileSync(join(dir, 'trusted.pem'), fixtures.ca.certPem);
    const { code, stderr } = await failedStart({
      MODE: 'production',
      CORE: 'embedded',
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}`,
      TRUSTED_CA_CERTS: join(dir, 'trusted.pem'),
      BANK_BIC: 'SPTRNO22',
      ...PRODUCTION_LOG_IN,
      PSU_IDENTITY_KEY_FILE: '',
    });
    assert.equal(code, 2);
    assert.match(stderr, /PSU_IDENTITY_KEY_FILE must name the key file in production mode/);
    assert.equal(existsSync(join(dir, NATIONAL_ID_KEY_FILE)), false);
  });

  it('refuses to start with a bad configuration, naming every bad variable, exit code 2', async () => {
    const { code, stderr } = await failedStart({
      MODE: 'staging',
      PORT: 'eighty',
      DATABASE_URL: `sqlite:${join(tempDir(), 'x.db')}`,
    });
    assert.equal(code, 2);
    assert.match(stderr, /MODE must be 'sandbox' or 'production' \(got 'staging'\)/);
    assert.match(stderr, /PORT must be a whole number/);
  });

  it('refuses to start when a trusted CA file is not a CA certificate', async () => {
    const dir = tempDir();
    const fixtures = await tppFixtures();
    writeFileSync(join(dir, 'not-a-ca.pem'), fixtures.tpp.certPem);
    const { code, stderr } = await failedStart({
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'x.db')}`,
      TRUSTED_CA_CERTS: join(dir, 'not-a-ca.pem'),
    });
    assert.equal(code, 2);
    assert.match(stderr, /not-a-ca\.pem' holds 'Test TPP AS', which is not a CA certificate/);
  });

  it('keeps the key for national identity numbers in the data folder, and refuses to start on a database whose data was stored with another key', async () => {
    const dir = tempDir();
    const database = `sqlite:${join(dir, 'shared.db')}`;
    const first = await startServerProcess({ DATA_DIR: join(dir, 'one'), DATABASE_URL: database });
    first.child.kill('SIGTERM');
    await first.exited;
    assert.match(readFileSync(join(dir, 'one', NATIONAL_ID_KEY_FILE), 'utf8'), /^[0-9a-f]{64}\n$/);
    const { code, stderr } = await failedStart({ DATA_DIR: join(dir, 'two'), DATABASE_URL: database });
    assert.equal(code, 2);
    assert.match(
      stderr,
      /the key for national identity numbers \(.*two\/psu-identity\.key\) is not the one this database's data was stored with/,
    );
    const shared = await startServerProcess({
      DATA_DIR: join(dir, 'two'),
      DATABASE_URL: database,
      PSU_IDENTITY_KEY_FILE: join(dir, 'one', NATIONAL_ID_KEY_FILE),
    });
    shared.child.kill('SIGTERM');
    assert.equal((await shared.exited).code, 0, 'an instance given the same key file starts');
  });

  it('refuses to start when a trusted CA file is missing', async () => {
    const dir = tempDir();
    const { code, stderr } = await failedStart({
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'x.db')}`,
      TRUSTED_CA_CERTS: join(dir, 'nowhere.pem'),
    });
    assert.equal(code, 2);
    assert.match(stderr, /cannot read '.*nowhere\.pem'/);
  });

  // A bound, not a measure: before this refusal the server started and ran, and the test would wait for ever.
  it(
    'refuses to start when a trusted CA has a key a qualified trust service would not use, exit code 2',
    { timeout: 30_000 },
    async () => {
      const dir = tempDir();
      writeFileSync(
        join(dir, 'weak.pem'),
        (await refusedAuthority({ rsaBits: 1024, commonName: 'Old Bank CA' })).certPem,
      );
      const { code, stderr } = await failedStart({
        MODE: 'production',
        CORE: 'embedded',
        DATA_DIR: dir,
        DATABASE_URL: `sqlite:${join(dir, 'x.db')}`,
        TRUSTED_CA_CERTS: join(dir, 'weak.pem'),
        BANK_BIC: 'SPTRNO22',
        ...PRODUCTION_LOG_IN,
        PSU_IDENTITY_KEY_FILE: join(dir, 'secret.key'),
      });
      assert.equal(code, 2);
      assert.match(
        stderr,
        /TRUSTED_CA_CERTS: '.*weak\.pem' holds 'Old Bank CA', which has a 1024-bit RSA key; at least 2048 bits are required/,
      );
    },
  );

  it(
    'refuses to start in sandbox mode when the sandbox CA file was replaced by a weak one, exit code 2',
    { timeout: 30_000 },
    async () => {
      const dir = tempDir();
      const weak = await refusedAuthority({ hash: 'SHA-1', commonName: 'Home-made CA' });
      writeFileSync(join(dir, SANDBOX_CA_CERT_FILE), weak.certPem);
      writeFileSync(join(dir, SANDBOX_CA_KEY_FILE), weak.keyPem);
      const { code, stderr } = await failedStart({ DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'x.db')}` });
      assert.equal(code, 2);
      assert.match(
        stderr,
        /the sandbox CA file '.*' holds 'Home-made CA', which is signed with ecdsa-with-SHA1: SHA-1 is broken.*the next start makes a new sandbox CA/,
      );
    },
  );

  it('finishes a request in flight when SIGTERM arrives, then exits 0', async () => {
    const dir = tempDir();
    const fixtures = await tppFixtures();
    writeFileSync(join(dir, 'trusted.pem'), fixtures.ca.certPem);
    const server = await startServerProcess({
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}`,
      TRUSTED_CA_CERTS: join(dir, 'trusted.pem'),
      LOG_LEVEL: 'debug',
    });
    const body = JSON.stringify(crossBorderBody());
    const headers = signRequest({
      method: 'POST',
      url: CROSS_BORDER_PATH,
      body,
      headers: psuByNationalId(),
      credentials: fixtures.tpp,
    });
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    const head = [
      `POST ${CROSS_BORDER_PATH} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ].join('\r\n');
    socket.write(`${head}\r\n\r\n${body.slice(0, 40)}`);
    let answer = '';
    socket.on('data', (chunk) => {
      answer += String(chunk);
    });
    // The request is in flight (the server has its headers and part of its body) when the signal arrives.
    await server.waitForLine((l) => l.msg === 'request received' && l.path === CROSS_BORDER_PATH, 'the request');
    server.child.kill('SIGTERM');
    await server.waitForLine((l) => typeof l.msg === 'string' && l.msg.startsWith('shutting down'), 'the shutdown');
    socket.write(body.slice(40));
    await once(socket, 'close');
    assert.match(answer, /^HTTP\/1\.1 201 /);
    assert.match(answer, /"transactionStatus":"RCVD"/);
    assert.equal((await server.exited).code, 0);
  });

  it('starts two processes on one SQLite file at once: both migrate without conflict and serve', async () => {
    const dir = tempDir();
    const env = { DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'shared.db')}` };
    const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)]);
    const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      assert.equal(
        servers.length,
        2,
        `both start: ${started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'ok')).join('; ')}`,
      );
      for (const server of servers) assert.equal((await fetch(`${server.url}/health`)).status, 200);
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.exited));
    }
  });

  for (const engine of ENGINES) {
    it(`keeps a payment answered 201 when the process is killed right after (SIGKILL), on ${engine}`, async () => {
      const fixtures = await tppFixtures();
      const data = await freshServerData(engine);
      try {
        const first = await startServerProcess(data.env);
        const { body, headers } = signedCrossBorderCreate(fixtures.tpp);
        const created = await fetch(`${first.url}${CROSS_BORDER_PATH}`, { method: 'POST', headers, body });
        assert.equal(created.status, 201);
        const { paymentId } = (await created.json()) as { paymentId: string };
        first.child.kill('SIGKILL');
        assert.equal((await first.exited).signal, 'SIGKILL');

        const second = await startServerProcess(data.env);
        try {
          const url = `${CROSS_BORDER_PATH}/${paymentId}/status`;
          const read = await fetch(`${second.url}${url}`, {
            headers: signRequest({ method: 'GET', url, credentials: fixtures.tpp }),
          });
          assert.equal(read.status, 200);
          const status = (await read.json()) as { paymentId: string; transactionStatus: string };
          assert.deepEqual([status.paymentId, status.transactionStatus], [paymentId, 'RCVD']);
        } finally {
          second.child.kill('SIGTERM');
          await second.exited;
        }
      } finally {
        await data.remove();
      }
    });
  }
});
