/**
 * Limits on the parts of a request other than its JSON body (headers, query, path, the SCA pages'
 * forms), and on what an error answer lists. Checked first on every request
 * (src/http/hooks/request-limits.ts) or by the route schemas.
 */

/** spec: tppMessages text and psuMessage are at most 512 characters. */
export const TPP_MESSAGE_TEXT_MAX_LENGTH = 512;

/**
 * All request headers together. The certificate header is the largest: base64 of a PEM RSA-4096
 * certificate with QCStatements is about 3 KiB; 32 KiB is ten times what a real request needs and
 * stays well under what a proxy in front of the bank would pass.
 */
export const HEADERS_MAX_BYTES = 32 * 1024;

/** One header value that we parse (Signature, certificate): bounded before any decoding work. */
export const HEADER_VALUE_MAX_LENGTH = 16 * 1024;

/**
 * X-Request-ID has no format in the specification. Real clients send UUIDs (36 characters) and other
 * strings; 200 characters covers every form seen while bounding what is stored per request.
 */
export const X_REQUEST_ID_MAX_LENGTH = 200;

/** A Signature header names the headers it signs; the Berlin Group set is six, 20 bounds the work. */
export const SIGNED_HEADERS_MAX_COUNT = 20;

/** Free-text headers without a format in the specification, bounded for storage and logs. */
export const SESSION_ID_MAX_LENGTH = 200;
export const FORWARDED_HEADER_MAX_LENGTH = 512;
export const SHORT_HEADER_MAX_LENGTH = 140;

/**
 * Problems listed in one error answer's tppMessages. The message still gives the total; 20 is more
 * than a TPP fixes in one go, and bounds the answer (at most 20 × 512 characters of text).
 */
export const ERROR_LIST_MAX_ENTRIES = 20;

/** Request headers, counted by name as sent. A signed create sends about 20; 100 leaves room for proxies. */
export const HEADERS_MAX_COUNT = 100;
/** Query string after the '?', in bytes as sent: the longest real query (four parameters) is under 100. */
export const QUERY_MAX_LENGTH = 1024;
/** Query parameters of one request: no operation takes more than four. */
export const QUERY_MAX_PARAMETERS = 16;
/** One path parameter (an id), in characters: ids are UUIDs or names of at most 100 characters. */
export const PATH_PARAMETER_MAX_LENGTH = 200;
/** The SCA pages' form posts (a one-time code, a choice): a few fields of a few characters. */
export const SCA_FORM_BODY_MAX_BYTES = 4096;
/**
 * Strings whose format or pattern already bounds them (dates, instants, codes, masked card numbers,
 * amounts as decimal strings): a generous cap in the schema, so that no format or pattern check ever
 * reads a long string. A value this long is wrong in any case; the format's own message still names
 * the rule for every shorter one.
 */
export const FORMATTED_TEXT_MAX_LENGTH = 40;
/** The Date header (an HTTP date is 29 characters) and Digest (SHA-512 in base64 with its name, twice, is under 200). */
export const DATE_HEADER_MAX_LENGTH = 64;
export const DIGEST_HEADER_MAX_LENGTH = 512;

/**
 * TPP-Redirect-URI: 2048 characters is what every browser and proxy on the PSU's way back handles
 * (the historic 2083 of Internet Explorer, rounded down), with room for the TPP's own state query and
 * the psu-id, tpp-session-id and message the server adds.
 */
export const REDIRECT_URI_MAX_LENGTH = 2048;
