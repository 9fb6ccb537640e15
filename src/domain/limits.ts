/**
 * Every limit of the server, named, with the reason for its value.
 * Limits that the specification sets are marked "spec"; the others are our choice (docs/decisions.md).
 */

/** spec: tppMessages text and psuMessage are at most 512 characters. */
export const TPP_MESSAGE_TEXT_MAX_LENGTH = 512;

/**
 * A bulk payment of MAX_BULK_ENTRIES entries with every field at its maximum length is about 1.1 MB
 * of JSON; 2 MiB leaves room for whitespace while keeping one request's memory small.
 */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

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

/** Parsed and verified certificates kept in memory; a bank has a few hundred TPPs at most. */
export const CERTIFICATE_CACHE_ENTRIES = 1000;

/** Allowed distance between the request's Date header and the server clock, unless configured. */
export const DEFAULT_DATE_SKEW_SECONDS = 300;

/** Upper bound of the configurable skew: beyond an hour a Date no longer protects against replay. */
export const MAX_DATE_SKEW_SECONDS = 3600;

/** Requests still being answered when shutdown starts get this long to finish. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** A query that checks the database for /health gives up after this long. */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

/** Connections to PostgreSQL per server instance: two cores serve no more concurrent queries. */
export const POSTGRES_POOL_SIZE = 10;
