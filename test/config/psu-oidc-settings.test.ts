import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';

/** The least a production start needs besides the identity provider. */
const PRODUCTION = {
  MODE: 'production',
  TRUSTED_CA_CERTS: '/etc/ca/a.pem',
  BANK_BIC: 'SPTRNO22',
  PSU_IDENTITY_KEY_FILE: '/run/secrets/psu-identity.key',
  CORE: 'embedded',
} as const;

const PROVIDER = {
  PSU_OIDC_ISSUER: 'https://bank.criipto.id',
  PSU_OIDC_CLIENT_ID: 'urn:bank:psd2',
  PSU_OIDC_CLIENT_SECRET: 'a-secret',
} as const;

function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  throw new assert.AssertionError({ message: 'expected a ConfigError' });
}

describe('the PSU log-in settings (PSU_OIDC_…)', () => {
  it('none in a sandbox: the sandbox keeps its own log-in', () => {
    assert.equal(loadConfig({}).psuOidc, undefined);
  });

  it('none in production: the start stops, naming them', () => {
    const problems = problemsOf({ ...PRODUCTION });
    assert.match(
      problems,
      /PSU_OIDC_ISSUER, PSU_OIDC_CLIENT_ID and PSU_OIDC_CLIENT_SECRET or PSU_OIDC_CLIENT_KEY_FILE must be set in production mode/,
    );
  });

  it('reads them, with the defaults scope openid and claim nin', () => {
    assert.deepEqual(loadConfig({ ...PRODUCTION, ...PROVIDER }).psuOidc, {
      issuer: 'https://bank.criipto.id',
      clientId: 'urn:bank:psd2',
      clientAuth: { kind: 'client-secret', secret: 'a-secret' },
      scope: 'openid',
      acrValues: [],
      identityClaim: 'nin',
      nameClaim: undefined,
    });
  });

  it("reads BankID's, Signicat's and Idura's settings as docs/sca.md gives them", () => {
    const bankId = loadConfig({
      ...PROVIDER,
      PSU_OIDC_ISSUER: 'https://auth.bankid.no/auth/realms/prod/',
      PSU_OIDC_ACR_VALUES: 'urn:bankid:bid;LOA=4',
      PSU_OIDC_IDENTITY_CLAIM: 'nnin_altsub',
      PSU_OIDC_SCOPE: 'openid nnin_altsub',
    }).psuOidc!;
    assert.equal(bankId.issuer, 'https://auth.bankid.no/auth/realms/prod/', 'kept as given, trailing slash included');
    assert.deepEqual(bankId.acrValues, ['urn:bankid:bid;LOA=4']);
    assert.equal(bankId.identityClaim, 'nnin_altsub');
    const signicat = loadConfig({
      ...PROVIDER,
      PSU_OIDC_SCOPE: 'openid nin profile',
      PSU_OIDC_NAME_CLAIM: 'name',
    }).psuOidc!;
    assert.equal(signicat.scope, 'openid nin profile');
    assert.equal(signicat.nameClaim, 'name');
    const idura = loadConfig({
      ...PROVIDER,
      PSU_OIDC_ACR_VALUES: 'urn:grn:authn:no:bankid:high',
      PSU_OIDC_IDENTITY_CLAIM: 'socialno',
    }).psuOidc!;
    assert.equal(idura.identityClaim, 'socialno');
  });

  it('private_key_jwt with a key file instead of a secret', () => {
    const { PSU_OIDC_CLIENT_SECRET: _secret, ...withoutSecret } = PROVIDER;
    const config = loadConfig({ ...withoutSecret, PSU_OIDC_CLIENT_KEY_FILE: '/run/secrets/oidc.pem' });
    assert.deepEqual(config.psuOidc!.clientAuth, { kind: 'private-key-jwt', keyFile: '/run/secrets/oidc.pem' });
  });

  it('refuses each bad value, naming the variable', () => {
    assert.match(
      problemsOf({ ...PROVIDER, PSU_OIDC_ISSUER: 'http://idp.bank.example' }),
      /PSU_OIDC_ISSUER must be .* an https address/,
    );
    assert.match(problemsOf({ ...PROVIDER, PSU_OIDC_ISSUER: 'https://idp.example/?a=1' }), /PSU_OIDC_ISSUER must be/);
    assert.equal(
      loadConfig({ ...PROVIDER, PSU_OIDC_ISSUER: 'http://127.0.0.1:4000' }).psuOidc!.issuer,
      'http://127.0.0.1:4000',
    );
    assert.match(
      problemsOf({ ...PROVIDER, PSU_OIDC_CLIENT_ID: '' }),
      /PSU_OIDC_CLIENT_ID must be set with PSU_OIDC_ISSUER/,
    );
    assert.match(
      problemsOf({ ...PROVIDER, PSU_OIDC_CLIENT_KEY_FILE: '/k.pem' }),
      /PSU_OIDC_CLIENT_SECRET and PSU_OIDC_CLIENT_KEY_FILE are both set/,
    );
    assert.match(
      problemsOf({ PSU_OIDC_ISSUER: PROVIDER.PSU_OIDC_ISSUER, PSU_OIDC_CLIENT_ID: 'x' }),
      /PSU_OIDC_CLIENT_SECRET or PSU_OIDC_CLIENT_KEY_FILE must be set/,
    );
    assert.match(
      problemsOf({ ...PROVIDER, PSU_OIDC_SCOPE: 'profile nin' }),
      /PSU_OIDC_SCOPE must be .* openid among them/,
    );
    assert.match(problemsOf({ ...PROVIDER, PSU_OIDC_ACR_VALUES: 'urn:"x"' }), /PSU_OIDC_ACR_VALUES must be acr values/);
    assert.match(
      problemsOf({ ...PROVIDER, PSU_OIDC_IDENTITY_CLAIM: 'n i n' }),
      /PSU_OIDC_IDENTITY_CLAIM must be a claim name/,
    );
    assert.match(
      problemsOf({ ...PROVIDER, PSU_OIDC_NAME_CLAIM: '{name}' }),
      /PSU_OIDC_NAME_CLAIM must be a claim name/,
    );
    assert.match(problemsOf({ PSU_OIDC_ACR_VALUES: 'urn:x' }), /PSU_OIDC_ACR_VALUES is set but PSU_OIDC_ISSUER is not/);
  });
});
