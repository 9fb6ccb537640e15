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
 * fails closed: 503, the revocation status cannot be established (docs/decisions/0267).
 */
export const REVOCATION_STALE_GRACE_MS = 6 * 60 * 60 * 1000;

/** After a failed fetch the same address is not asked again for this long: a down CA's server costs no round trip per request. */
export const REVOCATION_RETRY_AFTER_FAILURE_MS = 60_000;

/** Distinct CRL distribution points kept; certificates name their CA's one or two, and a bank trusts a few dozen CAs. */
export const CRL_SOURCES_MAX = 200;

/**
 * Certificates whose OCSP answer is kept, one answer each (as CERTIFICATE_CACHE_ENTRIES: a bank has a
 * few hundred TPPs, each with a certificate or two). Past it the oldest is dropped, and costs one
 * round trip when its certificate comes again.
 */
export const OCSP_CACHE_ENTRIES = 1_000;

/**
 * How long an OCSP answer is used before it is asked again, at most: an answer without nextUpdate
 * (the responder has fresh status at any time, RFC 6960 4.2.2.1) is asked again after this, and one
 * whose nextUpdate is days ahead too, so a revocation is learnt within the hour rather than when the
 * responder's pre-signed answer runs out. An answer without nextUpdate whose thisUpdate is older than
 * this is not taken (it is not "sufficiently recent", RFC 6960 3.2).
 */
export const OCSP_ANSWER_MAX_AGE_MS = 60 * 60 * 1000;

/**
 * How far in the future an OCSP answer's thisUpdate may lie and still be taken: the responder's clock
 * and the bank's differ by seconds, as a TPP's Date header may (DEFAULT_DATE_SKEW_SECONDS); an answer
 * dated further ahead was made by a wrong clock or for a replay later.
 */
export const OCSP_CLOCK_SKEW_MS = 5 * 60 * 1000;
