import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createCertificateAuthority } from '../../src/security/certificate-issuer.js';
import {
  SANDBOX_CA_CERT_FILE,
  SANDBOX_CA_KEY_FILE,
  ensureSandboxCa,
  readSharedSandboxCa,
} from '../../src/security/sandbox-ca.js';
import { TrustStoreError } from '../../src/security/trust-store.js';
import { refusedAuthority } from '../support/refused-certificates.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-ca-'));
  dirs.push(dir);
  return dir;
};

/** The key file holds the private key of the certificate file's public key. */
function filesArePair(dir: string): boolean {
  const publicOfKey = createPublicKey(createPrivateKey(readFileSync(join(dir, SANDBOX_CA_KEY_FILE), 'utf8'))).export({
    type: 'spki',
    format: 'der',
  });
  const publicOfCert = createPublicKey(readFileSync(join(dir, SANDBOX_CA_CERT_FILE), 'utf8')).export({
    type: 'spki',
    format: 'der',
  });
  return Buffer.compare(publicOfKey, publicOfCert) === 0;
}

describe('sandbox CA', () => {
  it('made by several starts on one empty folder at once: all trust the one CA published, whose key and certificate are a pair', async () => {
    const dir = newDir();
    const cas = await Promise.all([ensureSandboxCa(dir), ensureSandboxCa(dir), ensureSandboxCa(dir)]);
    assert.equal(new Set(cas.map((ca) => ca.serial)).size, 1);
    assert.ok(filesArePair(dir));
    assert.deepEqual(
      readdirSync(dir).sort(),
      [SANDBOX_CA_CERT_FILE, SANDBOX_CA_KEY_FILE].sort(),
      'no temporary file is left',
    );
    assert.equal((await ensureSandboxCa(dir)).serial, cas[0]!.serial, 'a later start reads it');
  });

  it('makes the CA again when a start was killed between publishing the key and the certificate', async () => {
    const dir = newDir();
    writeFileSync(join(dir, SANDBOX_CA_KEY_FILE), 'left by a killed start');
    const ca = await ensureSandboxCa(dir);
    assert.ok(ca.serial > 0n);
    assert.ok(filesArePair(dir));
  });

  it('refuses to start on a CA file someone replaced with a weak one, naming the file and what is wrong', async () => {
    const dir = newDir();
    const weak = await refusedAuthority({ rsaBits: 1024, commonName: 'Home-made CA' });
    writeFileSync(join(dir, SANDBOX_CA_CERT_FILE), weak.certPem);
    writeFileSync(join(dir, SANDBOX_CA_KEY_FILE), weak.keyPem);
    await assert.rejects(ensureSandboxCa(dir), (error: unknown) => {
      assert.ok(error instanceof TrustStoreError, String(error));
      assert.match(
        error.message,
        new RegExp(
          `the sandbox CA file '.*${SANDBOX_CA_CERT_FILE}' holds 'Home-made CA', which has a 1024-bit RSA key; at least 2048 bits are required`,
        ),
      );
      return true;
    });
  });
});

describe('the sandbox CA every instance shares (SANDBOX_CA_CERT_FILE, SANDBOX_CA_KEY_FILE)', () => {
  async function sharedFiles(keyOf?: { keyPem: string }) {
    const dir = newDir();
    const ca = await createCertificateAuthority({ commonName: 'Shared Sandbox CA' });
    const files = { certFile: join(dir, 'ca.pem'), keyFile: join(dir, 'ca.key') };
    writeFileSync(files.certFile, ca.certPem);
    writeFileSync(files.keyFile, (keyOf ?? ca).keyPem);
    return { dir, files };
  }
  const refusal = (pattern: RegExp) => (error: unknown) => {
    assert.ok(error instanceof TrustStoreError, String(error));
    assert.match(error.message, pattern);
    return true;
  };

  it('reads the pair and makes nothing', async () => {
    const { dir, files } = await sharedFiles();
    assert.equal((await readSharedSandboxCa(files)).name, 'Shared Sandbox CA');
    assert.deepEqual(readdirSync(dir).sort(), ['ca.key', 'ca.pem']);
  });

  it("refuses a key that is not the certificate's, a file that is not there, and one without a certificate", async () => {
    const { files } = await sharedFiles(await createCertificateAuthority());
    await assert.rejects(
      readSharedSandboxCa(files),
      refusal(/the shared sandbox CA key '.*ca\.key' is not the key of '.*ca\.pem'/),
    );
    await assert.rejects(
      readSharedSandboxCa({ ...files, certFile: join(newDir(), 'missing.pem') }),
      refusal(/the shared sandbox CA file '.*missing\.pem' cannot be read .*ENOENT/),
    );
    await assert.rejects(
      readSharedSandboxCa({ ...files, certFile: files.keyFile }),
      refusal(/the shared sandbox CA file '.*ca\.key' holds no certificate/),
    );
  });
});
