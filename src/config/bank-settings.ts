import { isBic } from '../domain/account-reference.js';
import { SANDBOX_BANK_BIC } from '../domain/bank.js';
import { ReferenceRates } from '../domain/reference-rates.js';
import type { Mode } from './mode.js';
import { Problem } from './setting-problem.js';

/** The settings of the bank the server serves: its reference rates, its batch runs, its key for identity numbers, its BIC. */

/** REFERENCE_RATES is kept as text (server-services.ts parses it for the services); here it is only checked. */
export function checkReferenceRates(text: string): string | Problem {
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

export function parseBatchTimes(text: string): string[] | Problem {
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

/**
 * PSU_IDENTITY_KEY_FILE: production names the file (from the bank's secret store). A key made
 * silently into DATA_DIR would be lost with the container, and with it every PSU's hashed identity,
 * or would differ between instances (issue 31, 7).
 */
export function parsePsuIdentityKeyFile(text: string, mode: Mode | undefined): string | undefined | Problem {
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
export function parseBankBic(text: string, mode: Mode | undefined, given: boolean): string | Problem {
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
