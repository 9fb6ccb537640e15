import { MAX_CLIENT_TIMEOUT_MS, MIN_CLIENT_TIMEOUT_MS } from '../domain/limits.js';
import type { Mode } from './mode.js';
import { Problem, integerIn, isHttpUrl, parseInteger } from './setting-problem.js';

/** The settings of the server itself: the CAs it trusts, its log, its address, its clients' timeouts, where its metrics are served. */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** Where GET /metrics is served: on the API's port, on a port of its own, or nowhere. */
export type MetricsPlacement = 'api-port' | 'off' | { port: number };

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** TRUSTED_CA_CERTS: PEM files separated by commas; production needs one, since without a trusted CA no TPP can authenticate. */
export function parseTrustedCaCertPaths(text: string, mode: Mode | undefined): string[] | Problem {
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

export function parseLogLevel(text: string): LogLevel | Problem {
  return (LOG_LEVELS as readonly string[]).includes(text)
    ? (text as LogLevel)
    : new Problem(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got '${text}')`);
}

/** PUBLIC_URL without its trailing slashes; when empty, the address the server listens on. */
export function parsePublicUrl(text: string, host: string, port: number | undefined): string | Problem {
  const publicUrl =
    text === '' ? `http://${host.includes(':') ? `[${host}]` : host}:${port ?? 8080}` : text.replace(/\/+$/, '');
  return isHttpUrl(publicUrl)
    ? publicUrl
    : new Problem(`PUBLIC_URL must be an absolute http or https address (got '${text}')`);
}

export function parseClientTimeout(name: 'HEADERS_TIMEOUT_MS' | 'REQUEST_TIMEOUT_MS', text: string): number | Problem {
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
export function parseMetricsPlacement(
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
