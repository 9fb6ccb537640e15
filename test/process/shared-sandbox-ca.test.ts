import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createCertificateAuthority } from '../../src/security/certificate-issuer.js';
import { SANDBOX_CA_CERT_FILE } from '../../src/security/sandbox-ca.js';
import { CROSS_BORDER_PATH, signedCrossBorderCreate } from '../support/payment-requests.js';
import { type ServerProcess, freshServerData, startServerProcess } from '../support/server-process.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-shared-ca-'));
  dirs.push(dir);
  return dir;
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

/**
 * Sandbox instances behind one address, on one PostgreSQL database: a certificate one of them issues
 * is accepted by another when they share the sandbox CA (SANDBOX_CA_CERT_FILE, SANDBOX_CA_KEY_FILE),
 * and refused (401) by an instance that made a CA of its own, as every instance did before.
 */
describe('instances sharing one sandbox CA', () => {
  it(
    'instance 2 accepts a certificate instance 1 issued; an instance with a CA of its own refuses it',
    { timeout: 120_000 },
    async () => {
      const data = await freshServerData('postgres');
      const shared = tempDir();
      const ca = await createCertificateAuthority({
        commonName: 'Shared Sandbox CA',
        organisation: 'Sandbox Bank ASA',
      });
      const certFile = join(shared, 'ca.cert.pem');
      const keyFile = join(shared, 'ca.key.pem');
      writeFileSync(certFile, ca.certPem);
      writeFileSync(keyFile, ca.keyPem, { mode: 0o600 });
      // Instances on one database hash national identity numbers with one key.
      const keyPath = join(shared, 'psu-identity.key');
      writeFileSync(keyPath, randomBytes(32).toString('hex'), { mode: 0o600 });
      const common = { ...data.env, PSU_IDENTITY_KEY_FILE: keyPath };
      const sharing = { ...common, SANDBOX_CA_CERT_FILE: certFile, SANDBOX_CA_KEY_FILE: keyFile };
      const dataDirs = [tempDir(), tempDir()];
      const servers: ServerProcess[] = [];
      try {
        for (const dir of dataDirs) servers.push(await startServerProcess({ ...sharing, DATA_DIR: dir }));
        const [one, two] = servers as [ServerProcess, ServerProcess];
        for (const server of servers) {
          const ready = server.lines.find((l) => l.msg === 'ready')!;
          assert.ok((ready.trustedCas as string[]).includes('Shared Sandbox CA'), JSON.stringify(ready.trustedCas));
        }
        for (const dir of dataDirs)
          assert.equal(existsSync(join(dir, SANDBOX_CA_CERT_FILE)), false, 'no CA of its own');

        const issued = await fetch(`${one.url}/v1/sandbox/certificates`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            organizationIdentifier: 'PSDNO-FSA-555555555',
            name: 'Shared TPP',
            roles: ['PSP_PI'],
          }),
        });
        assert.equal(issued.status, 201);
        const { certificate, privateKey } = (await issued.json()) as { certificate: string; privateKey: string };
        const credentials = { certPem: certificate, keyPem: privateKey };

        const create = async (server: ServerProcess) => {
          const request = signedCrossBorderCreate(credentials);
          const response = await fetch(`${server.url}${CROSS_BORDER_PATH}`, {
            method: 'POST',
            headers: request.headers,
            body: request.body,
          });
          return { status: response.status, text: await response.text() };
        };
        const atTwo = await create(two);
        assert.equal(atTwo.status, 201, atTwo.text);
        const atOne = await create(one);
        assert.equal(atOne.status, 201, atOne.text);

        const alone = await startServerProcess({ ...common, DATA_DIR: tempDir() });
        servers.push(alone);
        const refused = await create(alone);
        assert.equal(refused.status, 401, refused.text);
      } finally {
        for (const server of servers) await stop(server);
        await data.remove();
      }
    },
  );
});
