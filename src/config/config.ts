import {
  MAX_DATE_SKEW_SECONDS,
  MAX_REVOCATION_REFRESH_SECONDS,
  MIN_REVOCATION_REFRESH_SECONDS,
} from '../domain/limits.js';
import type { DatabaseLocation } from '../store/open-store.js';
import { checkReferenceRates, parseBankBic, parseBatchTimes, parsePsuIdentityKeyFile } from './bank-settings.js';
import { type CoreSetting, parseCoreSetting } from './core-settings.js';
import { parseDatabaseUrl } from './database-url.js';
import { type Mode, parseMode } from './mode.js';
import { type NotificationSettings, parseAllowedNetworks } from './notification-settings.js';
import { type PsuOidcSettings, parsePsuOidcSettings } from './psu-oidc-settings.js';
import { type TrustProxy, parseSandboxCaFiles, parseTrustProxy } from './scale-out-settings.js';
import {
  type LogLevel,
  type MetricsPlacement,
  parseClientTimeout,
  parseLogLevel,
  parseMetricsPlacement,
  parsePublicUrl,
  parseTrustedCaCertPaths,
} from './server-settings.js';
import { SettingsReader, type VariableName } from './settings-reader.js';

export type { CoreSetting, LogLevel, MetricsPlacement, Mode, TrustProxy };
export { CONFIG_VARIABLES } from './config-variables.js';
export { redactPassword } from './database-url.js';

export interface Config {
  port: number;
  host: string;
  database: DatabaseLocation;
  mode: Mode;
  /** Paths of PEM files whose certificates are trusted to issue TPP certificates. */
  trustedCaCertPaths: string[];
  logLevel: LogLevel;
  dateSkewSeconds: number;
  /** Folder for files the server keeps besides the database (the sandbox CA). */
  dataDir: string;
  /** File with the key national identity numbers are hashed with; undefined (sandbox only): psu-identity.key in dataDir, made on the first start. */
  psuIdentityKeyFile: string | undefined;
  /** Absolute base address of this server as TPPs and browsers reach it; used in links that leave the API. */
  publicUrl: string;
  /** The bank's reference rates (kroner per unit), `EUR=11.70,USD=10.80`; empty for the sandbox table. */
  referenceRates: string;
  /** Times of day (Europe/Oslo) of the batch runs that execute payments. */
  batchTimes: string[];
  /** Payments executed per database transaction in a batch run. */
  batchChunkSize: number;
  /** How long a client has to send its request headers, and its whole request. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  metrics: MetricsPlacement;
  /** CRL files (DER or PEM) of trusted CAs, read at start and on the schedule. */
  crlFiles: string[];
  /** Seconds between two reads of every CRL (files and distribution points). */
  revocationRefreshSeconds: number;
  /** The bank's BIC, which its accounts carry in account information. */
  bankBic: string;
  /**
   * Fastify's trustProxy: which proxies' X-Forwarded-For names the client (its address in the logs
   * and the sandbox certificate endpoint's limit per address): none, the nearest N hops, or these addresses.
   */
  trustProxy: TrustProxy;
  /** The sandbox CA every instance shares (SANDBOX_CA_CERT_FILE and SANDBOX_CA_KEY_FILE); undefined: one of its own, made in dataDir. */
  sandboxCaFiles: { certFile: string; keyFile: string } | undefined;
  /** New sandbox banks one client address makes in 24 hours. */
  sandboxBanksPerAddress: number;
  /** Days a sandbox bank is kept unused before it is removed with all its data. */
  sandboxBankIdleDays: number;
  /** Years after the end of their financial year that payments and booked transactions are kept (bokføringsloven § 13: 5). */
  bookkeepingYears: number;
  /** The bank's core (docs/core.md): the embedded ledger, or the bank's own over HTTP. */
  core: CoreSetting;
  /** The bank's identity provider, where PSUs log in (PSU_OIDC_…); undefined: the sandbox's own log-in. */
  psuOidc: PsuOidcSettings | undefined;
  /** How the bank signs the notifications it sends, and where a sandbox may send them (NOTIFICATION_…). */
  notifications: NotificationSettings;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and checks the environment; every bad value is reported at once, in the order of the variables. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const settings = new SettingsReader(env);
  const server = readServer(settings);
  const limits = readLimits(settings, server.port, server.mode);
  const links = readBankLinks(settings, server.mode);
  if (settings.problems.length > 0) throw new ConfigError(settings.problems);
  return { ...server, ...limits, ...links };
}

// Each part below returns its settings as the types of Config say, although a bad value is undefined:
// loadConfig returns none of them when any was bad.

/** PORT to BATCH_CHUNK_SIZE: where the server listens, its database and mode, the CAs it trusts, its log and data, its batch runs. */
function readServer(settings: SettingsReader) {
  const port = settings.whole('PORT', 0, 65535);
  const host = settings.read('HOST');
  const database = settings.take(parseDatabaseUrl(settings.read('DATABASE_URL')));
  const mode = settings.take(parseMode(settings.read('MODE')));
  const trustedCaCertPaths = settings.take(parseTrustedCaCertPaths(settings.read('TRUSTED_CA_CERTS'), mode));
  const logLevel = settings.take(parseLogLevel(settings.read('LOG_LEVEL')));
  const dateSkewSeconds = settings.whole('DATE_SKEW_SECONDS', 0, MAX_DATE_SKEW_SECONDS, 'seconds');
  const dataDir = settings.read('DATA_DIR');
  const psuIdentityKeyFile = settings.take(parsePsuIdentityKeyFile(settings.read('PSU_IDENTITY_KEY_FILE'), mode));
  const publicUrl = settings.take(parsePublicUrl(settings.read('PUBLIC_URL'), host, port));
  const referenceRates = settings.take(checkReferenceRates(settings.read('REFERENCE_RATES')));
  const batchTimes = settings.take(parseBatchTimes(settings.read('BATCH_TIMES')));
  const batchChunkSize = settings.whole('BATCH_CHUNK_SIZE', 1, 10_000);
  return {
    port: port!,
    host,
    database: database!,
    mode: mode!,
    trustedCaCertPaths: trustedCaCertPaths!,
    logLevel: logLevel!,
    dateSkewSeconds: dateSkewSeconds!,
    dataDir,
    psuIdentityKeyFile,
    publicUrl: publicUrl!,
    referenceRates: referenceRates!,
    batchTimes: batchTimes!,
    batchChunkSize: batchChunkSize!,
  } satisfies Partial<Config>;
}

/**
 * HEADERS_TIMEOUT_MS to BOOKKEEPING_RETENTION_YEARS: its clients' timeouts, its metrics, the CRLs'
 * refresh, the bank's BIC, the proxies it trusts, the sandbox's CA and limits, how long data is kept.
 */
function readLimits(settings: SettingsReader, port: number | undefined, mode: Mode | undefined) {
  const headersTimeoutMs = settings.take(parseClientTimeout('HEADERS_TIMEOUT_MS', settings.read('HEADERS_TIMEOUT_MS')));
  const requestTimeoutMs = settings.take(parseClientTimeout('REQUEST_TIMEOUT_MS', settings.read('REQUEST_TIMEOUT_MS')));
  if (headersTimeoutMs !== undefined && requestTimeoutMs !== undefined && headersTimeoutMs > requestTimeoutMs) {
    settings.problems.push(
      `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${requestTimeoutMs}): the headers are part of the request`,
    );
  }
  const metrics = settings.take(parseMetricsPlacement(settings.read('METRICS_PORT'), port, mode));
  const crlFiles = settings
    .read('CRL_FILES')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const revocationRefreshSeconds = settings.whole(
    'REVOCATION_REFRESH_SECONDS',
    MIN_REVOCATION_REFRESH_SECONDS,
    MAX_REVOCATION_REFRESH_SECONDS,
    'seconds',
  );
  const bankBic = settings.take(parseBankBic(settings.read('BANK_BIC'), mode, settings.given('BANK_BIC')));
  const trustProxy = settings.take(parseTrustProxy(settings.read('TRUST_PROXY')));
  const sandboxCaFiles = settings.take(
    parseSandboxCaFiles(settings.read('SANDBOX_CA_CERT_FILE'), settings.read('SANDBOX_CA_KEY_FILE'), mode),
  );
  const sandboxBanksPerAddress = settings.whole('SANDBOX_BANKS_PER_ADDRESS', 1, 10_000);
  const sandboxBankIdleDays = settings.whole('SANDBOX_BANK_IDLE_DAYS', 1, 3650, 'days');
  const bookkeepingYears = settings.whole(
    'BOOKKEEPING_RETENTION_YEARS',
    1,
    100,
    'years',
    ' (bokføringsloven § 13 asks 5)',
  );
  return {
    headersTimeoutMs: headersTimeoutMs!,
    requestTimeoutMs: requestTimeoutMs!,
    metrics: metrics!,
    crlFiles,
    revocationRefreshSeconds: revocationRefreshSeconds!,
    bankBic: bankBic!,
    trustProxy: trustProxy!,
    sandboxCaFiles,
    sandboxBanksPerAddress: sandboxBanksPerAddress!,
    sandboxBankIdleDays: sandboxBankIdleDays!,
    bookkeepingYears: bookkeepingYears!,
  } satisfies Partial<Config>;
}

/** CORE…, PSU_OIDC_… and NOTIFICATION_…: the bank's core, its identity provider where PSUs log in, and its notifications. */
function readBankLinks(settings: SettingsReader, mode: Mode | undefined) {
  const read = (name: VariableName) => settings.read(name);
  const core = settings.take(
    parseCoreSetting(
      {
        core: read('CORE'),
        url: read('CORE_URL'),
        keyFile: read('CORE_KEY_FILE'),
        timeoutMs: read('CORE_TIMEOUT_MS'),
        pollSeconds: read('CORE_POLL_SECONDS'),
      },
      mode,
    ),
  );
  const psuOidc = parsePsuOidcSettings(
    {
      PSU_OIDC_ISSUER: read('PSU_OIDC_ISSUER'),
      PSU_OIDC_CLIENT_ID: read('PSU_OIDC_CLIENT_ID'),
      PSU_OIDC_CLIENT_SECRET: read('PSU_OIDC_CLIENT_SECRET'),
      PSU_OIDC_CLIENT_KEY_FILE: read('PSU_OIDC_CLIENT_KEY_FILE'),
      PSU_OIDC_SCOPE: read('PSU_OIDC_SCOPE'),
      PSU_OIDC_ACR_VALUES: read('PSU_OIDC_ACR_VALUES'),
      PSU_OIDC_IDENTITY_CLAIM: read('PSU_OIDC_IDENTITY_CLAIM'),
      PSU_OIDC_NAME_CLAIM: read('PSU_OIDC_NAME_CLAIM'),
    },
    mode === 'production',
  );
  if (psuOidc === undefined)
    for (const name of [
      'PSU_OIDC_SCOPE',
      'PSU_OIDC_ACR_VALUES',
      'PSU_OIDC_IDENTITY_CLAIM',
      'PSU_OIDC_NAME_CLAIM',
    ] as const)
      if (settings.given(name))
        settings.problems.push(`${name} is set but PSU_OIDC_ISSUER is not: it has no provider to apply to`);
  if (Array.isArray(psuOidc)) settings.problems.push(...psuOidc.map((p) => p.text));
  const signingKeyFile = read('NOTIFICATION_SIGNING_KEY_FILE');
  const allowedNetworks = settings.take(
    parseAllowedNetworks(read('NOTIFICATION_ALLOWED_NETWORKS'), mode === 'production'),
  );
  return {
    core: core!,
    psuOidc: Array.isArray(psuOidc) ? undefined : psuOidc,
    notifications: {
      signingKeyFile: signingKeyFile === '' ? undefined : signingKeyFile,
      allowedNetworks: allowedNetworks!,
    },
  } satisfies Partial<Config>;
}
