import { SIGNATURE_EXPLANATION_VALUE_MAX_LENGTH } from '../domain/limits.js';

/**
 * Headers whose values the explanation never shows, only their length: credentials a client might
 * sign (Authorization, Cookie) and the PSU's national identity number. The answer goes to the
 * client that sent them, but answers are logged and proxied where requests' secrets are not.
 */
const HIDDEN_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-psu-identity',
]);

/** A value of the request as the explanation echoes it: cut to SIGNATURE_EXPLANATION_VALUE_MAX_LENGTH. */
export function shownValue(value: string): string {
  return value.length <= SIGNATURE_EXPLANATION_VALUE_MAX_LENGTH
    ? value
    : `${value.slice(0, SIGNATURE_EXPLANATION_VALUE_MAX_LENGTH)}… (${value.length} characters)`;
}

/** A line of the signing string as the explanation shows it. */
export function shownLine(name: string, value: string | undefined): string {
  if (value === undefined) return `${name}: <absent from the request>`;
  if (HIDDEN_HEADERS.has(name)) return `${name}: <not shown: ${value.length} characters>`;
  return `${name}: ${shownValue(value)}`;
}
