import { AIS_TRANSACTIONS_PAGE_MAX } from './account-information.js';

/**
 * Limits of the bank's core behind its port (docs/core.md): the signature of the calls between the
 * server and the core, and how long and how much the server waits for a core's answer.
 */

/**
 * How far a Core-Signature's `t` may be from the receiver's clock, either way. Five minutes is the
 * skew the TPP's signed Date is allowed by default (DEFAULT_DATE_SKEW_SECONDS): wide enough for two
 * machines whose clocks are kept by NTP, narrow enough that a captured request is soon worthless.
 */
export const CORE_SIGNATURE_MAX_SKEW_SECONDS = 300;

/**
 * The shared key of the Core-Signature, in bytes (the file holds twice as many hex digits): 32 bytes
 * is the output of the HMAC's own hash (SHA-256); a shorter key weakens it, a longer one adds nothing.
 */
export const CORE_KEY_MIN_BYTES = 32;

/**
 * The most items the server asks the core for in one page: the largest page of transactions a TPP
 * may ask for (AIS_TRANSACTIONS_PAGE_MAX, 1 000), plus the one more the server reads to know whether
 * another page follows. Pending payments (1 000 for a balance) and status reports stay within it.
 */
export const MAX_CORE_PAGE_LIMIT = AIS_TRANSACTIONS_PAGE_MAX + 1;

/**
 * The most bytes of one answer of the core the server reads. The largest answer of the contract is a
 * page of MAX_CORE_PAGE_LIMIT transactions, each at most about 2 KiB of JSON (a 500-character
 * remittance, names of 140, both accounts): about 2 MiB. Twice that leaves room; a core that sends
 * more is broken, and its answer is not held in memory to find that out.
 */
export const MAX_CORE_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * The circuit breaker around the calls: after this many failures in a row the server stops calling
 * the core for CORE_BREAKER_OPEN_MS and answers 503 at once, so a core that is down is not sent every
 * PSU's request (each waiting out its timeout) while it recovers.
 */
export const CORE_BREAKER_FAILURES = 5;

/**
 * How long the breaker stays open before one call is let through to try the core again. Ten seconds
 * is the Retry-After a TPP is given; a shorter time spends calls on a core that is restarting.
 */
export const CORE_BREAKER_OPEN_MS = 10_000;

/** The Retry-After of a call that failed while the breaker was closed: about the time a core takes to restart. */
export const CORE_RETRY_AFTER_SECONDS = 5;

/**
 * The most status reports the reference core pushes in one callback, and the largest page of the
 * contract's status-report feed (docs/core-api.yaml, maxItems 500): a push of 100 is a body of about
 * 30 KiB, which the server takes in one transaction.
 */
export const CORE_CALLBACK_MAX_REPORTS = 100;

/** The first wait before a failed push of status reports is tried again; it doubles each time after. */
export const CORE_CALLBACK_RETRY_MIN_MS = 250;

/** The longest wait between two tries of a push: a server restarting is back within it. */
export const CORE_CALLBACK_RETRY_MAX_MS = 30_000;

/**
 * How often the reference core looks for status changes to push besides the ones it makes itself
 * (a batch run's): a second keeps the delay from execution to the server's status read short.
 */
export const CORE_CALLBACK_POLL_MS = 1000;
