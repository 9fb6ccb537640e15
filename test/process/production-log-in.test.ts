import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PRODUCTION_LOG_IN } from '../support/production-log-in.js';
import { failedStart } from '../support/server-process.js';
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
});
