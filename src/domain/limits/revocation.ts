/**
 * Limits of checking whether a TPP certificate is revoked (docs/security.md, section 9): what the
 * server fetches from a CA's CRL distribution point or OCSP responder, how long it waits, and how long
 * an answer is trusted. A distribution point is named by a certificate the TPP sends, so every fetch is
 * bounded in time and size whatever the address answers.
 */

/** One fetch of a CRL or an OCSP answer, connection to last byte: a CA's server answers in well under a second. */
export const REVOCATION_FETCH_TIMEOUT_MS = 5_000;

/**
 * A CRL's bytes: qualified trust services publish CRLs of a few hundred kilobytes to a few megabytes
 * (about 40 bytes a revoked certificate); 16 MiB is room for 400 000 entries and bounds the memory
 * one hostile distribution point can take.
 */
export const CRL_MAX_BYTES = 16 * 1024 * 1024;

/** An OCSP answer: one certificate's status, signed, perhaps with the responder's certificate; a few kilobytes. */
export const OCSP_RESPONSE_MAX_BYTES = 64 * 1024;

/** How often the CRLs (files and distribution points) are read again, unless REVOCATION_REFRESH_SECONDS says. */
export const DEFAULT_REVOCATION_REFRESH_SECONDS = 3_600;
export const MIN_REVOCATION_REFRESH_SECONDS = 60;
export const MAX_REVOCATION_REFRESH_SECONDS = 86_400;

/**
 * How long past its nextUpdate a CRL (or an OCSP answer) is still used while a fresh one cannot be had:
 * a CA's distribution point being down for an hour must not lock out every TPP of that CA, but a
 * revocation must not be hidden for days by an attacker who blocks the fetch. After it the server
 * fails closed: 503, the revocation status cannot be established (docs/decisions.md).
 */
export const REVOCATION_STALE_GRACE_MS = 6 * 60 * 60 * 1000;

/** After a failed fetch the same address is not asked again for this long: a down CA's server costs no round trip per request. */
export const REVOCATION_RETRY_AFTER_FAILURE_MS = 60_000;

/** Distinct CRL distribution points kept; certificates name their CA's one or two, and a bank trusts a few dozen CAs. */
export const CRL_SOURCES_MAX = 200;

/** OCSP answers kept, one per certificate (as CERTIFICATE_CACHE_ENTRIES). */
export const OCSP_CACHE_ENTRIES = 1_000;

/** An OCSP answer without nextUpdate is used for this long, and one with a later nextUpdate no longer than this. */
export const OCSP_ANSWER_MAX_AGE_MS = 60 * 60 * 1000;
