/**
 * Limits of authentication: certificates (the cache, and the strength a qualified trust service
 * issues), the Date header's skew, replay bindings (docs/security.md, section 1), and the PSU's
 * one-time codes.
 */

/** Parsed and verified certificates kept in memory; a bank has a few hundred TPPs at most. */
export const CERTIFICATE_CACHE_ENTRIES = 1000;

/**
 * A Signature header's keyId and list of signed headers are kept for the next request that sends
 * the same text (signature-header.ts) only up to this length. Twenty names of real headers, or an
 * issuer's distinguished name, fit; both are read before the signature is checked, and a longer
 * text, which no client needs, would let anyone fill the caches with texts of up to
 * HEADER_VALUE_MAX_LENGTH.
 */
export const SIGNATURE_TEXT_CACHED_MAX_LENGTH = 1024;

/** Allowed distance between the request's Date header and the server clock, unless configured. */
export const DEFAULT_DATE_SKEW_SECONDS = 300;

/** Upper bound of the configurable skew: beyond an hour a Date no longer protects against replay. */
export const MAX_DATE_SKEW_SECONDS = 3600;

/**
 * Expired X-Request-ID bindings are deleted at most this often, by the request that finds the
 * interval passed. A minute bounds one purge to a minute's requests (with a Date header, a binding
 * lives DATE_SKEW_SECONDS), so it never holds the database for long.
 */
export const REQUEST_BINDING_PURGE_INTERVAL_MS = 60_000;

/**
 * RSA modulus of every certificate the bank relies on (TPP certificates and trusted CAs). 1024-bit
 * keys have been within reach of a well-funded attacker for a decade; the CA/Browser Forum requires
 * at least 2048 bits, and qualified trust services issue 2048 to 4096.
 */
export const CERTIFICATE_RSA_MIN_BITS = 2048;

/**
 * RSA public exponent: odd and at least 2^16 + 1, the range the CA/Browser Forum asks for. A tiny
 * exponent (e = 1, e = 3) invites forgeries against lax verifiers; trust services issue 65537.
 */
export const CERTIFICATE_RSA_MIN_PUBLIC_EXPONENT = 65537n;

/** EC field size: P-256 (128-bit security, like RSA-3072) is the smallest curve trust services issue keys on. */
export const CERTIFICATE_EC_MIN_BITS = 256;

/**
 * Output bits of the hash in a certificate's signature. SHA-1 (160) has computed collisions, which let
 * a CA's signature over one certificate be reused for another. SHA-256 is the smallest hash trust
 * services sign certificates with.
 */
export const CERTIFICATE_SIGNATURE_HASH_MIN_BITS = 256;

/**
 * An OID from a certificate quoted in an error message: the longest real OIDs (ETSI's, Microsoft's) are
 * under 40 characters; a certificate can carry an OID of thousands, which the answer must not echo.
 */
export const CERTIFICATE_OID_SHOWN_MAX_LENGTH = 64;

/**
 * Wrong one-time codes a PSU may have within PSU_CODE_FAILURE_WINDOW_MINUTES, counted per PSU
 * (the customer number typed, and the PSU named at initiation) across every SCA link and server
 * instance; the next attempt is refused unchecked, even with the right code. MAX_CODE_ATTEMPTS
 * (domain/sca.ts) bounds one link; without this a guesser opened new links (30 wrong codes on 10
 * links, then an approval on the 11th). 10 is well past a person's typing mistakes, and gives a
 * guesser of a 6-digit code 1 chance in 100 000 per window.
 */
export const PSU_CODE_FAILURES_MAX = 10;
/** The sliding window of PSU_CODE_FAILURES_MAX: a locked-out PSU can try again when their oldest wrong code is this old. */
export const PSU_CODE_FAILURE_WINDOW_MINUTES = 60;
/** The least length of the key national identity numbers are hashed with: HMAC-SHA256 is as strong as its key up to 32 bytes. */
export const NATIONAL_ID_KEY_MIN_BYTES = 32;

/**
 * A value of the request that the sandbox's signature explanation echoes (a header in a line of the
 * signing string, the keyId's CA, a Digest sent) is cut to this many characters, then marked with
 * its length. The values signed are short (a Digest is 95 characters, a DN or a UUID fewer); a
 * TPP-Redirect-URI may be 2048. The explanation echoes input, so its size must not follow it: with at
 * most SIGNED_HEADERS_MAX_COUNT lines it stays under 10 KB.
 */
export const SIGNATURE_EXPLANATION_VALUE_MAX_LENGTH = 256;

/**
 * Orders of the signed headers the explainer tries when a signature made with the certificate's key
 * does not verify. Each is a hash of a signing string (no RSA operation), but a string may be a few
 * kilobytes: 6! = 720 orders (every order of the six Berlin Group headers) cost about 5 ms at worst,
 * which a refused request may take in the sandbox; 7! took 40 ms. With more headers only the orders
 * clients commonly use are tried (the Berlin Group's, alphabetical, reversed).
 */
export const SIGNATURE_EXPLANATION_ORDERS_MAX = 720;

/**
 * How long the server waits for the PSU's identity provider (discovery, the pushed request, the
 * token and its keys) before the SCA page says the provider is unavailable. The PSU is waiting in
 * front of a blank page: a provider that has not answered in 5 s is down for them, and a longer
 * wait would hold the server's connections for nothing.
 */
export const PSU_OIDC_TIMEOUT_SECONDS = 5;

/**
 * How long before the bank's token request the PSU may have authenticated at the identity provider
 * (`max_age`, checked against the ID token's `auth_time`). SCA is an authentication for this
 * payment: a log-in the provider remembers from earlier must not count. With `prompt=login` the PSU
 * authenticates anew; 5 minutes leave room for BankID on the phone and for the clocks' skew.
 */
export const PSU_OIDC_MAX_AUTH_AGE_SECONDS = 300;
