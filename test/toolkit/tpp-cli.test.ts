import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { TppAuthenticator } from '../../src/security/tpp-authenticator.js';
import { TrustStore } from '../../src/security/trust-store.js';
import { parseCertificate, readPemCertificates } from '../../src/security/tpp-certificate.js';
import { freePort } from '../support/browser.js';
import { refusedAuthority } from '../support/refused-certificates.js';
import { CROSS_BORDER_PATH, crossBorderBody, psuByNationalId } from '../support/payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/** The TPP toolkit as people use it: the command line makes a CA, a certificate, and signed requests. */
const run = promisify(execFile);
const CLI = 'dist/tpp/tpp.mjs';
let dir: string;
let authenticator: TppAuthenticator;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'psd2-cli-'));
  await run(process.execPath, [CLI, 'ca', '--out-dir', join(dir, 'ca'), '--name', 'CLI Test CA']);
  await run(process.execPath, [
    CLI,
    'cert',
    '--ca-cert',
    join(dir, 'ca', 'ca.cert.pem'),
    '--ca-key',
    join(dir, 'ca', 'ca.key.pem'),
    '--out-dir',
    join(dir, 'tpp'),
    '--roles',
    'PSP_PI,psp_ic',
    '--org-id',
    'PSDNO-FSA-987654321',
    '--name',
    'CLI TPP',
  ]);
  const ca = parseCertificate(readPemCertificates(readFileSync(join(dir, 'ca', 'ca.cert.pem'), 'utf8'))[0]!);
  authenticator = new TppAuthenticator({ trustStore: new TrustStore([ca]), dateSkewSeconds: 300 });
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function sign(...extra: string[]): Promise<Record<string, string>> {
  const body = '{"instructedAmount":{"amount":"10.00","currency":"NOK"}}';
  const { stdout } = await run(process.execPath, [
    CLI,
    'sign',
    'POST',
    'http://localhost:8080/v1/payments/x?allowLogicalDuplicate=true',
    '-d',
    body,
    '--cert',
    join(dir, 'tpp', 'tpp.cert.pem'),
    '--key',
    join(dir, 'tpp', 'tpp.key.pem'),
    '--format',
    'json',
    '-H',
    'PSU-ID: 0d7a3b1c-5f5e-4d6b-8a39-2f1e0c9b7a66',
    ...extra,
  ]);
  return JSON.parse(stdout) as Record<string, string>;
}

function authenticate(headers: Record<string, string>) {
  const body = Buffer.from('{"instructedAmount":{"amount":"10.00","currency":"NOK"}}');
  return authenticator.authenticate(
    { method: 'POST', target: '/v1/payments/x?allowLogicalDuplicate=true', headers, body },
    { role: 'PSP_PI', digestRequired: true },
  ).tpp;
}

describe('the tpp command line', () => {
  it('issues from the CA that SANDBOX_CA_CERT_FILE and SANDBOX_CA_KEY_FILE name when no --ca-* is given, as the server beside it does', async () => {
    const outDir = join(dir, 'from-shared-ca');
    await run(process.execPath, [CLI, 'cert', '--out-dir', outDir, '--org-id', 'PSDNO-FSA-987654322'], {
      env: {
        ...process.env,
        DATA_DIR: join(dir, 'no-such-data-dir'),
        SANDBOX_CA_CERT_FILE: join(dir, 'ca', 'ca.cert.pem'),
        SANDBOX_CA_KEY_FILE: join(dir, 'ca', 'ca.key.pem'),
      },
    });
    const issued = parseCertificate(readPemCertificates(readFileSync(join(outDir, 'tpp.cert.pem'), 'utf8'))[0]!);
    const ca = parseCertificate(readPemCertificates(readFileSync(join(dir, 'ca', 'ca.cert.pem'), 'utf8'))[0]!);
    assert.deepEqual(issued.issuer, ca.subject);
    assert.equal(issued.organisationId, 'PSDNO-FSA-987654322');
  });

  it('issues a certificate whose roles and organisation the bank reads back', async () => {
    const identity = authenticate(await sign());
    assert.equal(identity.id, 'PSDNO-FSA-987654321');
    assert.deepEqual(identity.roles, ['PSP_PI', 'PSP_IC']);
    assert.equal(identity.name, 'CLI TPP');
  });

  it('signs every header the bank requires, extra headers included', async () => {
    const headers = await sign();
    assert.match(headers.signature!, /headers="date digest x-request-id psu-id"/);
    assert.match(headers.digest!, /^SHA-256=/);
    assert.equal(headers['psu-id'], '0d7a3b1c-5f5e-4d6b-8a39-2f1e0c9b7a66');
    assert.equal(headers['content-type'], 'application/json');
  });

  it('signs with SHA-512, with the certificate as PEM text, and in RFC 2047 form', async () => {
    const headers = await sign('--digest', 'SHA-512', '--cert-encoding', 'pem', '--rfc2047');
    assert.match(headers.digest!, /^SHA-512=/);
    assert.match(headers.signature!, /^=\?utf-8\?B\?/);
    assert.match(Buffer.from(headers['tpp-signature-certificate']!, 'base64').toString(), /BEGIN CERTIFICATE/);
    assert.equal(authenticate(headers).id, 'PSDNO-FSA-987654321');
  });

  it('prints a curl command with every signed header', async () => {
    const { stdout } = await run(process.execPath, [
      CLI,
      'sign',
      'GET',
      'http://localhost:8080/v1/x',
      '--cert',
      join(dir, 'tpp', 'tpp.cert.pem'),
      '--key',
      join(dir, 'tpp', 'tpp.key.pem'),
      '--format',
      'curl',
    ]);
    assert.match(stdout, /^curl -sS -X GET 'http:\/\/localhost:8080\/v1\/x'/);
    for (const header of ['date', 'x-request-id', 'tpp-signature-certificate', 'signature'])
      assert.match(stdout, new RegExp(`-H '${header}: `));
    assert.doesNotMatch(stdout, /digest:/);
  });

  it('writes a header with an empty value as curl sends it empty (x-accept-fix;)', async () => {
    const { stdout } = await run(process.execPath, [
      CLI,
      'sign',
      'GET',
      'http://localhost:8080/v1/x',
      '-H',
      'x-accept-fix: ',
      '--cert',
      join(dir, 'tpp', 'tpp.cert.pem'),
      '--key',
      join(dir, 'tpp', 'tpp.key.pem'),
      '--format',
      'curl',
    ]);
    assert.match(stdout, /-H 'x-accept-fix;'/);
  });

  it('explains a bad role instead of issuing a certificate', async () => {
    await assert.rejects(
      run(process.execPath, [CLI, 'cert', '--roles', 'PSP_XX', '--out-dir', join(dir, 'x')]),
      (error: Error & { stderr: string }) => {
        assert.match(error.stderr, /unknown role PSP_XX; the roles are PSP_AS, PSP_PI, PSP_AI, PSP_IC/);
        return true;
      },
    );
  });

  for (const [label, options, reason] of [
    ['a 1024-bit RSA key', { rsaBits: 1024 }, /has a 1024-bit RSA key; at least 2048 bits are required/],
    [
      'a SHA-1 signature',
      { rsaBits: 2048, hash: 'SHA-1' as const },
      /is signed with sha1WithRSAEncryption: SHA-1 is broken/,
    ],
  ] as const) {
    it(`refuses to issue from a CA with ${label}, which the bank would not trust`, async () => {
      const weak = await refusedAuthority({ ...options, commonName: 'Weak CA' });
      const caDir = join(dir, `weak-${options.hash ?? options.rsaBits}`);
      mkdirSync(caDir);
      writeFileSync(join(caDir, 'ca.cert.pem'), weak.certPem);
      writeFileSync(join(caDir, 'ca.key.pem'), weak.keyPem);
      const outDir = join(caDir, 'tpp');
      await assert.rejects(
        run(process.execPath, [
          CLI,
          'cert',
          '--ca-cert',
          join(caDir, 'ca.cert.pem'),
          '--ca-key',
          join(caDir, 'ca.key.pem'),
          '--out-dir',
          outDir,
        ]),
        (error: Error & { stderr: string }) => {
          assert.match(error.stderr, /the CA certificate 'Weak CA' /);
          assert.match(error.stderr, reason);
          assert.match(error.stderr, /the toolkit does not issue certificates from it/);
          return true;
        },
      );
      assert.equal(existsSync(join(outDir, 'tpp.cert.pem')), false, 'no certificate is written');
    });
  }
});

describe('tpp cert --server: a certificate from a running sandbox over HTTP', () => {
  let sandbox: TestApp;
  let url: string;
  before(async () => {
    sandbox = await startTestApp();
    url = await sandbox.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => sandbox.close());

  it('writes a certificate and key, from the sandbox CA, that the sandbox takes a signed payment with (201)', async () => {
    const outDir = join(dir, 'from-server');
    const { stdout } = await run(process.execPath, [
      CLI,
      'cert',
      '--server',
      url,
      '--org-id',
      'PSDNO-FSA-555555555',
      '--name',
      'Remote TPP',
      '--roles',
      'PSP_PI',
      '--out-dir',
      outDir,
    ]);
    assert.match(stdout, /wrote .*tpp\.cert\.pem/);
    const certPem = readFileSync(join(outDir, 'tpp.cert.pem'), 'utf8');
    const certificate = parseCertificate(readPemCertificates(certPem)[0]!);
    assert.equal(certificate.organisationId, 'PSDNO-FSA-555555555');
    assert.deepEqual(certificate.psd2?.roles, ['PSP_PI']);
    const created = await sandbox.signed({
      method: 'POST',
      url: CROSS_BORDER_PATH,
      body: crossBorderBody(),
      headers: psuByNationalId(),
      as: { certPem, keyPem: readFileSync(join(outDir, 'tpp.key.pem'), 'utf8') },
    });
    assert.equal(created.statusCode, 201, created.body);
  });

  it('renews over the key it holds when run again: the new certificate reaches the same bank (a bank belongs to its key)', async () => {
    const outDir = join(dir, 'renewed');
    const args = ['cert', '--server', url, '--org-id', 'PSDNO-FSA-555555556', '--roles', 'PSP_PI', '--out-dir', outDir];
    await run(process.execPath, [CLI, ...args]);
    const keyPem = readFileSync(join(outDir, 'tpp.key.pem'), 'utf8');
    const first = readFileSync(join(outDir, 'tpp.cert.pem'), 'utf8');
    const list = (certPem: string) =>
      sandbox.signed({ method: 'GET', url: '/v1/sandbox/customers', as: { certPem, keyPem } });
    assert.equal((await list(first)).statusCode, 200, 'the first certificate made the bank');
    const { stdout } = await run(process.execPath, [CLI, ...args]);
    assert.match(stdout, /over the key in/);
    const second = readFileSync(join(outDir, 'tpp.cert.pem'), 'utf8');
    assert.notEqual(second, first);
    assert.equal(readFileSync(join(outDir, 'tpp.key.pem'), 'utf8'), keyPem, 'the key is kept');
    assert.equal((await list(second)).statusCode, 200, 'the renewed certificate reaches the same bank');
  });

  it('prints a /docs link (tpp docs) that binds a key made elsewhere to the bank of the certificate that asked', async () => {
    const outDir = join(dir, 'docs');
    await run(process.execPath, [CLI, 'cert', '--server', url, '--org-id', 'PSDNO-FSA-555555557', '--out-dir', outDir]);
    const files = ['--cert', join(outDir, 'tpp.cert.pem'), '--key', join(outDir, 'tpp.key.pem')];
    const { stdout } = await run(process.execPath, [CLI, 'docs', '--server', url, ...files]);
    const [href, expires] = stdout.trim().split('\n');
    assert.match(href!, /^http:\/\/127\.0\.0\.1:8080\/docs\/#bind=\S+$/, stdout);
    assert.match(expires!, /^expires: \S+Z \(it opens once\)$/);
    const browserKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const bound = await sandbox.app.inject({
      method: 'POST',
      url: '/v1/sandbox/docs-links/bind',
      payload: { token: decodeURIComponent(new URL(href!).hash.slice('#bind='.length)), publicKey: browserKey },
    });
    assert.equal(bound.statusCode, 201, bound.body);
    assert.equal((bound.json() as { organizationIdentifier: string }).organizationIdentifier, 'PSDNO-FSA-555555557');
  });

  it('says what the sandbox refused, and writes nothing', async () => {
    const outDir = join(dir, 'refused');
    await assert.rejects(
      run(process.execPath, [CLI, 'cert', '--server', url, '--org-id', 'NO-933012867', '--out-dir', outDir]),
      (error: Error & { stderr: string }) => {
        assert.match(error.stderr, /answered 400: \$\.organizationIdentifier must be PSD/);
        return true;
      },
    );
    assert.equal(existsSync(join(outDir, 'tpp.cert.pem')), false);
  });

  it('takes either a server or CA files, not both', async () => {
    await assert.rejects(
      run(process.execPath, [CLI, 'cert', '--server', url, '--ca-cert', 'ca.pem']),
      (error: Error & { stderr: string }) => {
        assert.match(error.stderr, /--server.*cannot be used with option '--ca-cert/);
        return true;
      },
    );
  });
});

describe('tpp wait: a script goes on once the server it started is ready', () => {
  it('prints ready once GET /health/ready answers 200', async () => {
    const sandbox = await startTestApp();
    try {
      const url = await sandbox.app.listen({ port: 0, host: '127.0.0.1' });
      const { stdout } = await run(process.execPath, [CLI, 'wait', '--server', url]);
      assert.equal(stdout, `ready: ${url}\n`);
    } finally {
      await sandbox.close();
    }
  });

  it('gives up after --timeout, saying why the last try failed', async () => {
    const closed = await freePort();
    await assert.rejects(
      run(process.execPath, [CLI, 'wait', '--server', `http://127.0.0.1:${closed}`, '--timeout', '1']),
      (error: Error & { stderr: string; code: number }) => {
        assert.equal(error.code, 1);
        assert.match(error.stderr, /is not ready after 1 s \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)/);
        return true;
      },
    );
  });

  it('says why a call could not be sent, naming the address', async () => {
    const closed = await freePort();
    await assert.rejects(
      run(process.execPath, [
        CLI,
        'call',
        'GET',
        `http://127.0.0.1:${closed}/v1/sandbox/clock`,
        '--cert',
        join(dir, 'tpp', 'tpp.cert.pem'),
        '--key',
        join(dir, 'tpp', 'tpp.key.pem'),
      ]),
      (error: Error & { stderr: string }) => {
        assert.match(error.stderr, new RegExp(`^tpp: connect ECONNREFUSED 127\\.0\\.0\\.1:${closed}\n`));
        return true;
      },
    );
  });
});
