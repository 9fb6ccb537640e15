import {
  BOOKKEEPING_RETENTION_YEARS,
  CORE_POLL_SECONDS_DEFAULT,
  CORE_TIMEOUT_MS_DEFAULT,
  DEFAULT_DATE_SKEW_SECONDS,
  DEFAULT_REVOCATION_REFRESH_SECONDS,
  MAX_REVOCATION_REFRESH_SECONDS,
  MIN_REVOCATION_REFRESH_SECONDS,
  HEADERS_TIMEOUT_MS,
  MAX_CLIENT_TIMEOUT_MS,
  MAX_DATE_SKEW_SECONDS,
  MAX_NEW_SANDBOX_BANKS_PER_ADDRESS_PER_DAY,
  MIN_CLIENT_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  SANDBOX_BANK_IDLE_DAYS,
} from '../domain/limits.js';
import { isBic } from '../domain/account-reference.js';
import { SANDBOX_BANK_BIC } from '../domain/bank.js';
import { ReferenceRates } from '../domain/reference-rates.js';
import type { DatabaseLocation } from '../store/open-store.js';
import { Problem, integerIn, isHttpUrl, parseInteger } from './setting-problem.js';
import { type TrustProxy, parseSandboxCaFiles, parseTrustProxy } from './scale-out-settings.js';
import { type CoreSetting, parseCoreSetting } from './core-settings.js';
import { type PsuOidcSettings, parsePsuOidcSettings } from './psu-oidc-settings.js';

export type Mode = 'sandbox' | 'production';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** Where GET /metrics is served: on the API's port, on a port of its own, or nowhere. */
export type MetricsPlacement = 'api-port' | 'off' | { port: number };

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
}

export type { TrustProxy, CoreSetting };

/** Every variable the server reads, with its default; the README's configuration table mirrors this. */
export const CONFIG_VARIABLES = {
  PORT: '8080',
  HOST: '127.0.0.1',
  DATABASE_URL: 'sqlite:./data/psd2.db',
  MODE: 'sandbox',
  TRUSTED_CA_CERTS: '',
  LOG_LEVEL: 'info',
  DATE_SKEW_SECONDS: String(DEFAULT_DATE_SKEW_SECONDS),
  DATA_DIR: './data',
  PSU_IDENTITY_KEY_FILE: '',
  PUBLIC_URL: '',
  REFERENCE_RATES: '',
  BATCH_TIMES: '06:00,09:00,12:00,15:00,18:00',
  BATCH_CHUNK_SIZE: '500',
  HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
  REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  METRICS_PORT: '',
  CRL_FILES: '',
  REVOCATION_REFRESH_SECONDS: String(DEFAULT_REVOCATION_REFRESH_SECONDS),
  BANK_BIC: SANDBOX_BANK_BIC,
  TRUST_PROXY: '',
  SANDBOX_CA_CERT_FILE: '',
  SANDBOX_CA_KEY_FILE: '',
  SANDBOX_BANKS_PER_ADDRESS: String(MAX_NEW_SANDBOX_BANKS_PER_ADDRESS_PER_DAY),
  SANDBOX_BANK_IDLE_DAYS: String(SANDBOX_BANK_IDLE_DAYS),
  BOOKKEEPING_RETENTION_YEARS: String(BOOKKEEPING_RETENTION_YEARS),
  CORE: '',
  CORE_URL: '',
  CORE_KEY_FILE: '',
  CORE_TIMEOUT_MS: String(CORE_TIMEOUT_MS_DEFAULT),
  CORE_POLL_SECONDS: String(CORE_POLL_SECONDS_DEFAULT),
  PSU_OIDC_ISSUER: '',
  PSU_OIDC_CLIENT_ID: '',
  PSU_OIDC_CLIENT_SECRET: '',
  PSU_OIDC_CLIENT_KEY_FILE: '',
  PSU_OIDC_SCOPE: 'openid',
  PSU_OIDC_ACR_VALUES: '',
  PSU_OIDC_IDENTITY_CLAIM: 'nin',
  PSU_OIDC_NAME_CLAIM: '',
} as const;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and checks the environment; every bad value is reported at once, in the order of the variables. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const read = (name: keyof typeof CONFIG_VARIABLES): string => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? CONFIG_VARIABLES[name] : value.trim();
  };
  const problems: string[] = [];
  const take = <T>(parsed: T | Problem): T | undefined => {
    if (!(parsed instanceof Problem)) return parsed;
    problems.push(parsed.text);
    return undefined;
  };

  /** A whole-number setting from min to max; the message names the setting, its unit and its range. */
  const whole = (name: keyof typeof CONFIG_VARIABLES, min: number, max: number, unit = '', why = '') =>
    take(
      integerIn(
        read(name),
        min,
        max,
        `${name} must be a whole number${unit === '' ? '' : ` of ${unit}`} from ${min} to ${max}${why}`,
      ),
    );

  const port = whole('PORT', 0, 65535);
  const host = read('HOST');
  const database = take(parseDatabaseUrl(read('DATABASE_URL')));
  const mode = take(parseMode(read('MODE')));
  const trustedCaCertPaths = take(parseTrustedCaCertPaths(read('TRUSTED_CA_CERTS'), mode));
  const logLevel = take(parseLogLevel(read('LOG_LEVEL')));
  const dateSkewSeconds = whole('DATE_SKEW_SECONDS', 0, MAX_DATE_SKEW_SECONDS, 'seconds');
  const psuIdentityKeyFile = take(parsePsuIdentityKeyFile(read('PSU_IDENTITY_KEY_FILE'), mode));
  const publicUrl = take(parsePublicUrl(read('PUBLIC_URL'), host, port));
  const referenceRates = take(checkReferenceRates(read('REFERENCE_RATES')));
  const batchTimes = take(parseBatchTimes(read('BATCH_TIMES')));
  const batchChunkSize = whole('BATCH_CHUNK_SIZE', 1, 10_000);
  const headersTimeoutMs = take(parseClientTimeout('HEADERS_TIMEOUT_MS', read('HEADERS_TIMEOUT_MS')));
  const requestTimeoutMs = take(parseClientTimeout('REQUEST_TIMEOUT_MS', read('REQUEST_TIMEOUT_MS')));
  if (headersTimeoutMs !== undefined && requestTimeoutMs !== undefined && headersTimeoutMs > requestTimeoutMs) {
    problems.push(
      `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${requestTimeoutMs}): the headers are part of the request`,
    );
  }
  const metrics = take(parseMetricsPlacement(read('METRICS_PORT'), port, mode));
  const crlFiles = read('CRL_FILES')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const revocationRefreshSeconds = whole(
    'REVOCATION_REFRESH_SECONDS',
    MIN_REVOCATION_REFRESH_SECONDS,
    MAX_REVOCATION_REFRESH_SECONDS,
    'seconds',
  );
  const bankBic = take(parseBankBic(read('BANK_BIC'), mode, (env.BANK_BIC ?? '').trim() !== ''));
  const trustProxy = take(parseTrustProxy(read('TRUST_PROXY')));
  const sandboxCaFiles = take(parseSandboxCaFiles(read('SANDBOX_CA_CERT_FILE'), read('SANDBOX_CA_KEY_FILE'), mode));
  const sandboxBanksPerAddress = whole('SANDBOX_BANKS_PER_ADDRESS', 1, 10_000);
  const sandboxBankIdleDays = whole('SANDBOX_BANK_IDLE_DAYS', 1, 3650, 'days');
  const bookkeepingYears = whole('BOOKKEEPING_RETENTION_YEARS', 1, 100, 'years', ' (bokføringsloven § 13 asks 5)');
  const core = take(
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
      if ((env[name] ?? '').trim() !== '')
        problems.push(`${name} is set but PSU_OIDC_ISSUER is not: it has no provider to apply to`);
  if (Array.isArray(psuOidc)) problems.push(...psuOidc.map((p) => p.text));

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port: port!,
    host,
    database: database!,
    mode: mode!,
    trustedCaCertPaths: trustedCaCertPaths!,
    logLevel: logLevel!,
    dateSkewSeconds: dateSkewSeconds!,
    dataDir: read('DATA_DIR'),
    psuIdentityKeyFile,
    publicUrl: publicUrl!,
    referenceRates: referenceRates!,
    batchTimes: batchTimes!,
    batchChunkSize: batchChunkSize!,
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
    core: core!,
    psuOidc: Array.isArray(psuOidc) ? undefined : psuOidc,
  };
}

function parseMode(text: string): Mode | Problem {
  return text === 'sandbox' || text === 'production'
    ? text
    : new Problem(`MODE must be 'sandbox' or 'production' (got '${text}')`);
}

/** TRUSTED_CA_CERTS: PEM files separated by commas; production needs one, since without a trusted CA no TPP can authenticate. */
function parseTrustedCaCertPaths(text: string, mode: Mode | undefined): string[] | Problem {
  const paths = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return mode === 'production' && paths.length === 0
    ? new Problem(
        'TRUSTED_CA_CERTS must name at least one PEM file in production mode: without a trusted CA no TPP can authenticate',
      )
    : paths;
}

function parseLogLevel(text: string): LogLevel | Problem {
  return (LOG_LEVELS as readonly string[]).includes(text)
    ? (text as LogLevel)
    : new Problem(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got '${text}')`);
}

/** PUBLIC_URL without its trailing slashes; when empty, the address the server listens on. */
function parsePublicUrl(text: string, host: string, port: number | undefined): string | Problem {
  const publicUrl =
    text === '' ? `http://${host.includes(':') ? `[${host}]` : host}:${port ?? 8080}` : text.replace(/\/+$/, '');
  return isHttpUrl(publicUrl)
    ? publicUrl
    : new Problem(`PUBLIC_URL must be an absolute http or https address (got '${text}')`);
}

/** REFERENCE_RATES is kept as text (main.ts parses it for the services); here it is only checked. */
function checkReferenceRates(text: string): string | Problem {
  if (text === '') return text;
  try {
    ReferenceRates.parse(text);
    return text;
  } catch (error) {
    return new Problem(
      `REFERENCE_RATES must be CODE=rate pairs such as EUR=11.70,USD=10.80: ${(error as Error).message}`,
    );
  }
}

function parseBatchTimes(text: string): string[] | Problem {
  const times = text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const valid =
    times.length > 0 && times.every((t) => /^([01]\d|2[0-3]):[0-5]\d$/.test(t)) && new Set(times).size === times.length;
  return valid
    ? times
    : new Problem(
        `BATCH_TIMES must be distinct times of day HH:MM separated by commas, such as 06:00,09:00,12:00,15:00,18:00 (got '${text}')`,
      );
}

function parseClientTimeout(name: 'HEADERS_TIMEOUT_MS' | 'REQUEST_TIMEOUT_MS', text: string): number | Problem {
  return integerIn(
    text,
    MIN_CLIENT_TIMEOUT_MS,
    MAX_CLIENT_TIMEOUT_MS,
    `${name} must be a whole number of milliseconds from ${MIN_CLIENT_TIMEOUT_MS} to ${MAX_CLIENT_TIMEOUT_MS}`,
  );
}

/**
 * METRICS_PORT: `api` for the API's port, `off`, or a port of its own (0 picks a free one). Empty:
 * the API's port in the sandbox, where a developer expects it; nowhere in production, where TPPs
 * reach the API's port and would read the route counts and SCA outcomes (issue 31, 7).
 */
function parseMetricsPlacement(
  text: string,
  apiPort: number | undefined,
  mode: Mode | undefined,
): MetricsPlacement | Problem {
  if (text === '') return mode === 'production' ? 'off' : 'api-port';
  if (text.toLowerCase() === 'api') return 'api-port';
  if (text.toLowerCase() === 'off') return 'off';
  const port = parseInteger(text, 0, 65535);
  if (port === undefined)
    return new Problem(
      `METRICS_PORT must be empty, 'api' (metrics on the API's port), 'off', or a whole number from 0 to 65535 (got '${text}')`,
    );
  if (port !== 0 && port === apiPort)
    return new Problem(
      `METRICS_PORT (${port}) must differ from PORT: set it to 'api' to serve /metrics on the API's port`,
    );
  return { port };
}

/**
 * PSU_IDENTITY_KEY_FILE: production names the file (from the bank's secret store). A key made
 * silently into DATA_DIR would be lost with the container, and with it every PSU's hashed identity,
 * or would differ between instances (issue 31, 7).
 */
function parsePsuIdentityKeyFile(text: string, mode: Mode | undefined): string | undefined | Problem {
  if (text !== '') return text;
  return mode === 'production'
    ? new Problem(
        "PSU_IDENTITY_KEY_FILE must name the key file in production mode: the key national identity numbers are hashed with, the same file for every instance, from the bank's secret store (64 hex digits or more; `openssl rand -hex 32`)",
      )
    : undefined;
}

/**
 * BANK_BIC: the bank's BIC (ISO 9362), as its accounts carry it. Production names its own: the
 * sandbox's would tell every TPP that the accounts are at a bank that does not exist.
 */
function parseBankBic(text: string, mode: Mode | undefined, given: boolean): string | Problem {
  if (mode === 'production' && !given)
    return new Problem(
      "BANK_BIC must be set in production mode: it is the bank's BIC, which every account in account information carries",
    );
  if (!isBic(text))
    return new Problem(`BANK_BIC must be a BIC: 8 or 11 letters and digits, such as SPTRNO22 (got '${text}')`);
  // Issue 40: production took the sandbox's own test BIC, given explicitly, and told TPPs its accounts were at no bank.
  if (mode === 'production' && text.toUpperCase().startsWith(SANDBOX_BANK_BIC))
    return new Problem(
      `BANK_BIC ${text} is the sandbox's test BIC, of no real bank: production sets the bank's own (such as SPTRNO22)`,
    );
  return text.toUpperCase();
}

function parseDatabaseUrl(url: string): DatabaseLocation | Problem {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    return path === ''
      ? new Problem(`DATABASE_URL 'sqlite:' needs a file path after the colon, for example sqlite:./data/psd2.db`)
      : { kind: 'sqlite', path };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    try {
      new URL(url);
      return { kind: 'postgres', url };
    } catch {
      return new Problem(`DATABASE_URL is not a valid PostgreSQL address (got '${redactPassword(url)}')`);
    }
  }
  return new Problem(`DATABASE_URL must start with 'sqlite:' or 'postgres://' (got '${redactPassword(url)}')`);
}

/** A database password must never reach a log or an error message. */
export function redactPassword(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
