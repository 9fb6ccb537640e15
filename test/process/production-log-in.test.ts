import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { PRODUCTION_LOG_IN } from '../support/production-log-in.js';
import { failedStart, startServerProcess } from '../support/server-process.js';
import { CROSS_BORDER_PATH, signedCrossBorderCreate } from '../support/payment-requests.js';
import { startTestIdp } from '../support/test-idp.js';
import { tppFixtures } from '../support/tpp-fixtures.js';

/**
 * The built server started in production without the bank's identity provider, or with a client
 * key it cannot use: it stops with exit code 2 and says which setting (issue 39).
 */
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function productionDir(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-login-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'trusted.pem'), (await tppFixtures()).ca.certPem);
  writeFileSync(join(dir, 'secret.key'), `${'ab'.repeat(32)}\n`);
  return {
    dir,
    env: {
      MODE: 'production',
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}`,
      TRUSTED_CA_CERTS: join(dir, 'trusted.pem'),
      BANK_BIC: 'SPTRNO22',
      PSU_IDENTITY_KEY_FILE: join(dir, 'secret.key'),
      CORE: 'embedded',
    },
  };
}

describe('a production start and the PSU log-in settings', () => {
  it('stops without an identity provider, exit code 2, naming the settings', async () => {
    const { env } = await productionDir();
    const { code, stderr } = await failedStart(env);
    assert.equal(code, 2);
    assert.match(stderr, /PSU_OIDC_ISSUER, PSU_OIDC_CLIENT_ID and PSU_OIDC_CLIENT_SECRET or PSU_OIDC_CLIENT_KEY_FILE/);
  });

  it('stops with a client key file that holds no key, exit code 2, naming PSU_OIDC_CLIENT_KEY_FILE', async () => {
    const { dir, env } = await productionDir();
    writeFileSync(join(dir, 'client.pem'), 'not a key\n');
    const { code, stderr } = await failedStart({
      ...env,
      PSU_OIDC_ISSUER: PRODUCTION_LOG_IN.PSU_OIDC_ISSUER,
      PSU_OIDC_CLIENT_ID: PRODUCTION_LOG_IN.PSU_OIDC_CLIENT_ID,
      PSU_OIDC_CLIENT_KEY_FILE: join(dir, 'client.pem'),
    });
    assert.equal(code, 2);
    assert.match(stderr, /PSU_OIDC_CLIENT_KEY_FILE .* holds no private key/);
  });

  // A sandbox, whose banks have the default data set's customers and accounts to pay from; production's log-in is the same code.
  it('a sandbox pointed at a provider sends the PSU from the SCA link there, with a pushed request (the bundle with openid-client)', async () => {
    const { dir } = await productionDir();
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}`,
      TRUSTED_CA_CERTS: join(dir, 'trusted.pem'),
    };
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const idp = await startTestIdp({ redirectUri: `${publicUrl}/sca/oidc/callback` });
    const fixtures = await tppFixtures();
    const server = await startServerProcess({
      ...env,
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      PSU_OIDC_ISSUER: idp.issuer,
      PSU_OIDC_CLIENT_ID: idp.clientId,
      PSU_OIDC_CLIENT_SECRET: idp.clientSecret,
    });
    try {
      assert.deepEqual(server.lines.find((l) => l.msg === 'ready')!.psuLogin, { issuer: idp.issuer, acrValues: [] });
      const create = signedCrossBorderCreate(fixtures.tpp);
      const created = await fetch(`${server.url}${CROSS_BORDER_PATH}`, {
        method: 'POST',
        headers: create.headers,
        body: create.body,
      });
      assert.equal(created.status, 201, await created.clone().text());
      const link = ((await created.json()) as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href;
      const opened = await fetch(link, { redirect: 'manual' });
      assert.equal(opened.status, 303);
      const location = new URL(opened.headers.get('location')!);
      assert.equal(location.origin, idp.issuer);
      assert.ok(location.searchParams.get('request_uri'), String(location));
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await idp.close();
    }
  });
});

/** A port free now, for a server whose PUBLIC_URL (and so the provider's redirect URI) must be known before it starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
