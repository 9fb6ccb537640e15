import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, redactPassword } from '../../src/config/config.js';

/** The least a production start needs. */
const PRODUCTION = {
  MODE: 'production',
  TRUSTED_CA_CERTS: '/etc/ca/a.pem',
  BANK_BIC: 'SPTRNO22',
  PSU_IDENTITY_KEY_FILE: '/run/secrets/psu-identity.key',
  CORE: 'embedded',
  PSU_OIDC_ISSUER: 'https://idp.bank.example',
  PSU_OIDC_CLIENT_ID: 'psd2-bank',
  PSU_OIDC_CLIENT_SECRET: 'a-secret',
} as const;

describe('configuration from the environment', () => {
  it('has defaults that start a sandbox on SQLite at 127.0.0.1:8080', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.deepEqual(config.database, { kind: 'sqlite', path: './data/psd2.db' });
    assert.equal(config.mode, 'sandbox');
    assert.deepEqual(config.trustedCaCertPaths, []);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.dateSkewSeconds, 300);
    assert.equal(config.dataDir, './data');
    assert.equal(config.publicUrl, 'http://127.0.0.1:8080');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://bank:pw@db:5432/psd2',
      MODE: 'production',
      TRUSTED_CA_CERTS: ' /etc/ca/a.pem, /etc/ca/b.pem ,',
      LOG_LEVEL: 'warn',
      DATE_SKEW_SECONDS: '60',
      DATA_DIR: '/var/lib/psd2',
      PUBLIC_URL: 'https://api.bank.no/',
      PSU_IDENTITY_KEY_FILE: '/run/secrets/psu-identity.key',
      BANK_BIC: 'sptrno22',
      CORE_URL: 'https://core.bank.internal/v1/',
      CORE_KEY_FILE: '/run/secrets/core.key',
      CORE_TIMEOUT_MS: '1500',
      CORE_POLL_SECONDS: '30',
      PSU_OIDC_ISSUER: 'https://idp.bank.example',
      PSU_OIDC_CLIENT_ID: 'psd2-bank',
      PSU_OIDC_CLIENT_SECRET: 'a-secret',
    });
    assert.equal(config.port, 9000);
    assert.deepEqual(config.database, { kind: 'postgres', url: 'postgres://bank:pw@db:5432/psd2' });
    assert.equal(config.mode, 'production');
    assert.deepEqual(config.trustedCaCertPaths, ['/etc/ca/a.pem', '/etc/ca/b.pem']);
    assert.equal(config.logLevel, 'warn');
    assert.equal(config.dateSkewSeconds, 60);
    assert.equal(config.dataDir, '/var/lib/psd2');
    assert.equal(config.publicUrl, 'https://api.bank.no');
    assert.equal(config.psuIdentityKeyFile, '/run/secrets/psu-identity.key');
    assert.equal(config.bankBic, 'SPTRNO22');
  });

  it("takes the bank's BIC from BANK_BIC: the sandbox's test BIC by default, a BIC only, and one of its own in production", () => {
    assert.equal(loadConfig({}).bankBic, 'SANDNOK0');
    assert.equal(loadConfig({ BANK_BIC: ' DNBANOKKXXX ' }).bankBic, 'DNBANOKKXXX');
    for (const bad of ['SPTRNO2', 'SPTR-NO22', 'SPTRXX22', '1PTRNO22'])
      assert.match(
        configError({ BANK_BIC: bad }).problems[0]!,
        new RegExp(`BANK_BIC must be a BIC: 8 or 11 letters and digits, such as SPTRNO22 \\(got '${bad}'\\)`),
      );
    assert.match(configError({ ...PRODUCTION, BANK_BIC: '' }).problems[0]!, /BANK_BIC must be set in production mode/);
    assert.equal(loadConfig(PRODUCTION).bankBic, 'SPTRNO22');
  });

  it('reads the client timeouts, 10 s for the headers and 30 s for the request by default, and refuses headers longer than the request', () => {
    assert.deepEqual([loadConfig({}).headersTimeoutMs, loadConfig({}).requestTimeoutMs], [10_000, 30_000]);
    const config = loadConfig({ HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '3000' });
    assert.deepEqual([config.headersTimeoutMs, config.requestTimeoutMs], [2000, 3000]);
    const problems = configError({ HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '10m' }).problems;
    assert.equal(problems.length, 2);
    assert.match(
      problems[0]!,
      /HEADERS_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 300000 \(got '500'\)/,
    );
    assert.match(
      configError({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '5000' }).problems[0]!,
      /must not be longer than REQUEST_TIMEOUT_MS/,
    );
  });

  it("serves the metrics on the API port by default in the sandbox, on a port of its own with METRICS_PORT, on the API's port with api, or not at all with off", () => {
    assert.equal(loadConfig({}).metrics, 'api-port');
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464' }).metrics, { port: 9464 });
    assert.equal(loadConfig({ METRICS_PORT: 'OFF' }).metrics, 'off');
    assert.equal(loadConfig({ METRICS_PORT: 'api' }).metrics, 'api-port');
    assert.match(
      configError({ METRICS_PORT: 'internal' }).problems[0]!,
      /METRICS_PORT must be empty, 'api' \(metrics on the API's port\), 'off', or a whole number from 0 to 65535 \(got 'internal'\)/,
    );
    assert.match(
      configError({ PORT: '9000', METRICS_PORT: '9000' }).problems[0]!,
      /METRICS_PORT \(9000\) must differ from PORT/,
    );
  });

  it('trusts no proxy by default; TRUST_PROXY takes a hop count or addresses and ranges, and refuses anything else', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,loopback, fd00::/8' }).trustProxy, [
      '10.0.0.0/8',
      '192.168.1.7',
      'loopback',
      'fd00::/8',
    ]);
    for (const bad of ['0', '11', 'true', '10.0.0.0/33', 'lb.bank.no', '10.0.0.1/8/2', '::1/129']) {
      const problem = configError({ TRUST_PROXY: bad }).problems[0]!;
      assert.ok(
        problem.startsWith('TRUST_PROXY must be empty, a number of proxy hops from 1 to 10, or the proxies'),
        problem,
      );
      assert.ok(problem.endsWith(`(got '${bad}')`), problem);
    }
  });

  it('takes a shared sandbox CA from SANDBOX_CA_CERT_FILE and SANDBOX_CA_KEY_FILE together, in sandbox mode only', () => {
    assert.equal(loadConfig({}).sandboxCaFiles, undefined);
    assert.deepEqual(
      loadConfig({ SANDBOX_CA_CERT_FILE: '/run/ca.pem', SANDBOX_CA_KEY_FILE: '/run/ca.key' }).sandboxCaFiles,
      {
        certFile: '/run/ca.pem',
        keyFile: '/run/ca.key',
      },
    );
    assert.match(configError({ SANDBOX_CA_CERT_FILE: '/run/ca.pem' }).problems[0]!, /set both, or neither/);
    assert.match(configError({ SANDBOX_CA_KEY_FILE: '/run/ca.key' }).problems[0]!, /set both, or neither/);
    assert.match(
      configError({
        MODE: 'production',
        TRUSTED_CA_CERTS: '/etc/ca.pem',
        BANK_BIC: 'SPTRNO22',
        PSU_IDENTITY_KEY_FILE: '/run/secrets/psu-identity.key',
        CORE: 'embedded',
        PSU_OIDC_ISSUER: 'https://idp.bank.example',
        PSU_OIDC_CLIENT_ID: 'psd2-bank',
        PSU_OIDC_CLIENT_SECRET: 'a-secret',
        SANDBOX_CA_CERT_FILE: '/run/ca.pem',
        SANDBOX_CA_KEY_FILE: '/run/ca.key',
      }).problems[0]!,
      /are for sandbox mode: production has no sandbox CA/,
    );
  });

  // Issue 31, 7: in production, with METRICS_PORT left empty, GET /metrics answered unsigned on the API's port.
  it("serves no metrics on the API's port in production unless METRICS_PORT=api asks for it", () => {
    assert.equal(loadConfig(PRODUCTION).metrics, 'off');
    assert.equal(loadConfig({ ...PRODUCTION, METRICS_PORT: 'api' }).metrics, 'api-port');
    assert.deepEqual(loadConfig({ ...PRODUCTION, METRICS_PORT: '9464' }).metrics, { port: 9464 });
  });

  // Issue 31, 7: in production, a key was made silently into DATA_DIR when PSU_IDENTITY_KEY_FILE was missing.
  it('refuses production without PSU_IDENTITY_KEY_FILE, saying what the file must hold; the sandbox makes its own', () => {
    const { PSU_IDENTITY_KEY_FILE: _, ...withoutKey } = PRODUCTION;
    assert.deepEqual(configError(withoutKey).problems, [
      "PSU_IDENTITY_KEY_FILE must name the key file in production mode: the key national identity numbers are hashed with, the same file for every instance, from the bank's secret store (64 hex digits or more; `openssl rand -hex 32`)",
    ]);
    assert.equal(loadConfig(PRODUCTION).psuIdentityKeyFile, '/run/secrets/psu-identity.key');
    assert.equal(loadConfig({}).psuIdentityKeyFile, undefined);
  });

  it('reads the CRL files and how often the CRLs are read again, an hour by default, from a minute to a day', () => {
    assert.deepEqual(loadConfig({}).crlFiles, []);
    assert.equal(loadConfig({}).revocationRefreshSeconds, 3600);
    const config = loadConfig({ CRL_FILES: ' /etc/crl/a.crl, /etc/crl/b.pem ,', REVOCATION_REFRESH_SECONDS: '600' });
    assert.deepEqual(config.crlFiles, ['/etc/crl/a.crl', '/etc/crl/b.pem']);
    assert.equal(config.revocationRefreshSeconds, 600);
    assert.match(
      configError({ REVOCATION_REFRESH_SECONDS: '30' }).problems[0]!,
      /REVOCATION_REFRESH_SECONDS must be a whole number of seconds from 60 to 86400 \(got '30'\)/,
    );
  });

  it('accepts postgresql:// as well as postgres://', () => {
    assert.equal(loadConfig({ DATABASE_URL: 'postgresql://localhost/x' }).database.kind, 'postgres');
  });

  it('reports every bad value at once, each with what is allowed and what was given', () => {
    const problems = configError({
      PORT: '80a',
      MODE: 'prod',
      DATABASE_URL: 'mysql://x',
      LOG_LEVEL: 'loud',
      DATE_SKEW_SECONDS: '99999',
      PUBLIC_URL: 'ftp://x',
    }).problems;
    assert.equal(problems.length, 6);
    assert.match(problems.join('\n'), /PORT must be a whole number from 0 to 65535 \(got '80a'\)/);
    assert.match(problems.join('\n'), /MODE must be 'sandbox' or 'production' \(got 'prod'\)/);
    assert.match(
      problems.join('\n'),
      /DATABASE_URL must start with 'sqlite:' or 'postgres:\/\/' \(got 'mysql:\/\/x'\)/,
    );
    assert.match(problems.join('\n'), /LOG_LEVEL must be one of/);
    assert.match(
      problems.join('\n'),
      /DATE_SKEW_SECONDS must be a whole number of seconds from 0 to 3600 \(got '99999'\)/,
    );
    assert.match(problems.join('\n'), /PUBLIC_URL must be an absolute http or https address/);
  });

  it('refuses production without a trusted CA, since no TPP could authenticate', () => {
    assert.throws(
      () => loadConfig({ MODE: 'production' }),
      /TRUSTED_CA_CERTS must name at least one PEM file in production mode/,
    );
  });

  // Issue 38: production kept the accounts in this server and took payments from an account nobody holds.
  it("refuses production that names no core, naming CORE_URL and CORE; takes the bank's core or CORE=embedded", () => {
    const { CORE: _, ...withoutCore } = PRODUCTION;
    const problems = configError(withoutCore).problems.join('\n');
    assert.match(problems, /CORE_URL/);
    assert.match(problems, /CORE=embedded/);
    assert.deepEqual(loadConfig(PRODUCTION).core, { kind: 'embedded' });
    assert.deepEqual(
      loadConfig({ ...withoutCore, CORE_URL: 'https://core.bank.internal/', CORE_KEY_FILE: '/run/secrets/core.key' })
        .core,
      {
        kind: 'http',
        url: 'https://core.bank.internal',
        keyFile: '/run/secrets/core.key',
        timeoutMs: 2000,
        pollSeconds: 10,
      },
    );
    assert.match(
      configError({ ...withoutCore, CORE_URL: 'https://core.bank.internal/' }).problems[0]!,
      /CORE_KEY_FILE must name the key shared with the bank's core/,
    );
    assert.match(configError({ ...PRODUCTION, CORE_URL: 'https://core/' }).problems[0]!, /contradict each other/);
    assert.match(configError({ ...withoutCore, CORE_URL: 'ftp://core' }).problems[0]!, /CORE_URL must be an absolute/);
    assert.match(configError({ ...PRODUCTION, CORE: 'mainframe' }).problems[0]!, /CORE must be 'embedded' or 'http'/);
    assert.match(
      configError({ ...withoutCore, CORE_URL: 'https://core/', CORE_KEY_FILE: 'k', CORE_TIMEOUT_MS: '5' }).problems[0]!,
      /CORE_TIMEOUT_MS must be a whole number of milliseconds from 100 to 30000/,
    );
    assert.deepEqual(loadConfig({}).core, { kind: 'embedded' });
    assert.match(
      configError({ CORE_URL: 'https://core/' }).problems[0]!,
      /in the sandbox each TPP's bank is an embedded core/,
    );
  });

  // Issue 40, 6: production started with BANK_BIC=SANDNOK0, the sandbox's test BIC.
  it("refuses the sandbox's test BIC, and anything that is not a BIC, in production", () => {
    for (const bic of ['SANDNOK0', 'sandnok0', 'SANDNOK0XXX'])
      assert.match(
        configError({ ...PRODUCTION, BANK_BIC: bic }).problems[0]!,
        /the sandbox's test BIC, of no real bank/,
      );
    for (const bic of ['SPTRNO2', 'SPTR NO22', 'SPTRNO22X', '12345678'])
      assert.match(configError({ ...PRODUCTION, BANK_BIC: bic }).problems[0]!, /BANK_BIC must be a BIC/);
    assert.equal(loadConfig({ ...PRODUCTION, BANK_BIC: 'sptrno22' }).bankBic, 'SPTRNO22');
    assert.equal(loadConfig({ BANK_BIC: 'SANDNOK0' }).bankBic, 'SANDNOK0');
  });

  it('refuses sqlite: without a path', () => {
    assert.throws(() => loadConfig({ DATABASE_URL: 'sqlite:' }), /needs a file path/);
  });

  it('reads NOTIFICATION_ALLOWED_NETWORKS as CIDR blocks or addresses, for the sandbox only, naming the variable when it is wrong', () => {
    assert.deepEqual(loadConfig({}).notifications.allowedNetworks, []);
    assert.deepEqual(
      loadConfig({ NOTIFICATION_ALLOWED_NETWORKS: ' 10.1.0.0/16, fd00::/8 ,192.168.5.5,' }).notifications
        .allowedNetworks,
      ['10.1.0.0/16', 'fd00::/8', '192.168.5.5'],
    );
    for (const bad of [
      '10.1.0.0/33',
      'fd00::/129',
      '10.1.0/16',
      'example.com',
      '10.0.0.0/8/1',
      '10.0.0.0/x',
      '10.0.0.0/',
    ])
      assert.match(
        configError({ NOTIFICATION_ALLOWED_NETWORKS: `127.0.0.1,${bad}` }).problems.join('\n'),
        new RegExp(
          `NOTIFICATION_ALLOWED_NETWORKS must be comma-separated IP addresses or CIDR blocks .*\\(got '${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}'\\)`,
        ),
        bad,
      );
    assert.match(
      configError({ ...PRODUCTION, NOTIFICATION_ALLOWED_NETWORKS: '10.1.0.0/16' }).problems.join('\n'),
      /NOTIFICATION_ALLOWED_NETWORKS is for the sandbox only/,
    );
    assert.deepEqual(
      loadConfig({ ...PRODUCTION, NOTIFICATION_ALLOWED_NETWORKS: ' ' }).notifications.allowedNetworks,
      [],
    );
  });

  it('never repeats a database password in a message', () => {
    assert.doesNotMatch(configError({ DATABASE_URL: 'postgres://bank:s3cret@[bad' }).message, /s3cret/);
    assert.equal(redactPassword('postgres://bank:s3cret@db/x'), 'postgres://bank:***@db/x');
  });
});

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new assert.AssertionError({ message: 'expected a ConfigError' });
}
