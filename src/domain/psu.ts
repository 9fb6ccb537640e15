import { type KeyObject, createHmac, createSecretKey } from 'node:crypto';
import { idnr } from '@navikt/fnrvalidator';
import type { Problem } from './api-error.js';
import { NATIONAL_ID_KEY_MIN_BYTES } from './limits.js';

export type PsuContext = 'PRIVATE' | 'CORPORATE';

/** The PSU a request acts for, as its headers identify it. */
export interface PsuIdentification {
  /** PSU-ID: the UUID the bank issued for this PSU and TPP. */
  psuId: string | undefined;
  /** HMAC-SHA256 of X-PSU-IDENTITY under the installation's key: the national identity number itself is never stored. */
  nationalIdHash: string | undefined;
  corporateId: string | undefined;
  context: PsuContext | undefined;
  /** One key per PSU, for logical duplicates and ownership. */
  key: string;
}

export interface PsuHeaders {
  psuId: string | undefined;
  nationalId: string | undefined;
  /** The keyed hash of `nationalId` when the caller has made it already (the request's SCA context): an HMAC made once a request. */
  nationalIdHash?: string | undefined;
  corporateId: string | undefined;
  context: string | undefined;
}

/** Types of @navikt/fnrvalidator that are national identity numbers: birth, D- and synthetic (Tenor) numbers. */
const ACCEPTED_TYPES = new Set(['fnr', 'dnr', 'tnr', 'dnr-and-tnr']);

/**
 * spec, Authentication 8: the PSU is identified with PSU-ID, or with X-PSU-IDENTITY (a Norwegian
 * national identity number or D-number) as an alternative; a corporate PSU also sends
 * PSU-Corporate-ID, and a request for a corporate user without it is a 400.
 */
export function identifyPsu(
  headers: PsuHeaders,
  nationalIdKey: NationalIdKey,
): { psu: PsuIdentification | undefined; problems: Problem[] } {
  const problems = psuHeaderProblems(headers, { identityRequired: true });
  if (problems.length > 0) return { psu: undefined, problems };
  const nationalIdHash =
    headers.nationalId === undefined
      ? undefined
      : (headers.nationalIdHash ?? hashNationalId(nationalIdKey, headers.nationalId));
  return {
    psu: {
      psuId: headers.psuId?.toLowerCase(),
      nationalIdHash,
      corporateId: headers.corporateId,
      context: headers.context as PsuContext | undefined,
      key: headers.psuId !== undefined ? `psu:${headers.psuId.toLowerCase()}` : `nin:${nationalIdHash}`,
    },
    problems,
  };
}

/**
 * The PSU headers' one rule, for every operation that takes them (spec, Authentication 8):
 * X-PSU-IDENTITY is a national identity number; PSU-Context CORPORATE needs PSU-Corporate-ID, and
 * PRIVATE names none. PSU-ID or X-PSU-IDENTITY is required where the bank must know the PSU before
 * the SCA (a payment), not where the SCA finds out who it is (a consent).
 */
export function psuHeaderProblems(headers: PsuHeaders, needs: { identityRequired: boolean }): Problem[] {
  const problems: Problem[] = [];
  if (needs.identityRequired && headers.psuId === undefined && headers.nationalId === undefined)
    problems.push({
      code: 'HTTP_HEADER_REQUIRED',
      path: 'header:PSU-ID',
      text: "header PSU-ID is required (or X-PSU-IDENTITY with the PSU's national identity number, for a PSU who has no PSU-ID yet)",
    });
  const why = headers.nationalId === undefined ? undefined : nationalIdProblem(headers.nationalId);
  if (why !== undefined)
    problems.push({
      code: 'FORMAT_ERROR',
      path: 'header:X-PSU-IDENTITY',
      text: `header X-PSU-IDENTITY is not a Norwegian national identity number or D-number (${why})`,
    });
  if (headers.context === 'CORPORATE' && headers.corporateId === undefined)
    problems.push({
      code: 'HTTP_HEADER_REQUIRED',
      path: 'header:PSU-Corporate-ID',
      text: 'header PSU-Corporate-ID is required for a corporate PSU (PSU-Context CORPORATE): it names the corporate agreement the PSU acts for',
    });
  if (headers.context === 'PRIVATE' && headers.corporateId !== undefined)
    problems.push({
      code: 'FORMAT_ERROR',
      path: 'header:PSU-Corporate-ID',
      text: 'header PSU-Corporate-ID names a corporate agreement, but PSU-Context is PRIVATE: send PSU-Context CORPORATE to act for the agreement, or leave PSU-Corporate-ID out',
    });
  return problems;
}

/** Why a text is not a Norwegian national identity number (birth, D- or synthetic number), or undefined when it is one. */
export function nationalIdProblem(text: string): string | undefined {
  const result = idnr(text);
  if (result.status === 'valid')
    return ACCEPTED_TYPES.has(result.type) ? undefined : `it is a ${result.type}, not a national identity number`;
  return result.reasons.join(', ');
}

/**
 * The installation's secret key for national identity numbers (docs/decisions/0124). Its bytes never leave
 * the process; the server reads it at start and passes it in.
 */
export interface NationalIdKey {
  readonly bytes: Uint8Array;
}

/**
 * The keyed hash of a national identity number (HMAC-SHA256, hex). A plain hash of an 11-digit
 * number with a known prefix is reversed by hashing every valid number (a few million); without the
 * installation's key the stored value says nothing.
 */
export function hashNationalId(key: NationalIdKey, nationalId: string): string {
  return createHmac('sha256', secretKeyOf(key)).update(nationalId).digest('hex');
}

/**
 * Each key's bytes as a KeyObject, made once: an HMAC keyed by raw bytes imports them again on every
 * call, which took about a third of the hash's time on every request that names a PSU.
 */
const secretKeys = new WeakMap<NationalIdKey, KeyObject>();

function secretKeyOf(key: NationalIdKey): KeyObject {
  let secret = secretKeys.get(key);
  if (secret === undefined) {
    if (key.bytes.length < NATIONAL_ID_KEY_MIN_BYTES)
      throw new RangeError(
        `the national identity key has ${key.bytes.length} bytes; at least ${NATIONAL_ID_KEY_MIN_BYTES} are needed`,
      );
    secret = createSecretKey(key.bytes);
    secretKeys.set(key, secret);
  }
  return secret;
}
