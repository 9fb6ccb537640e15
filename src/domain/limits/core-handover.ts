/**
 * Limits of the bank's core behind its port (docs/core.md): how long the interface waits for it, and
 * how the hand-over of authorised payments retries.
 */

/** How long one call to a bank's core may take by default (CORE_TIMEOUT_MS): a PSU or TPP waits on account reads. */
export const CORE_TIMEOUT_MS_DEFAULT = 2_000;
/** CORE_TIMEOUT_MS's bounds: under 100 ms no core answers over a network; over 30 s a TPP's own request has given up. */
export const CORE_TIMEOUT_MS_MIN = 100;
export const CORE_TIMEOUT_MS_MAX = 30_000;

/** How often the server asks a core for status reports it may not have pushed (CORE_POLL_SECONDS's default). */
export const CORE_POLL_SECONDS_DEFAULT = 10;
export const CORE_POLL_SECONDS_MIN = 1;
export const CORE_POLL_SECONDS_MAX = 3_600;

/** Payments the relay hands over in one turn: a batch run's chunk, so a backlog drains in a few hundred turns. */
export const HANDOVER_BATCH_SIZE = 200;
/**
 * Hand-overs in flight at once per instance: a core that commits in groups (as the reference core
 * does) takes many of them in one commit, so the rate grows with this up to where the core's own work
 * bounds it (bench/core-handover.ts); few enough that a backlog after an outage does not flood it.
 */
export const HANDOVER_CONCURRENCY = 64;
/**
 * How long an instance's claim of a payment's hand-over lasts: longer than a call may take (the
 * timeout, with margin), so no other instance sends it while this one may still be waiting.
 */
export const HANDOVER_CLAIM_MS = 60_000;
/** The first retry's delay; each next one doubles, with jitter, up to the most. */
export const HANDOVER_RETRY_BASE_MS = 1_000;
/** The longest wait between two tries: a core down for hours is tried every few minutes, not every few days. */
export const HANDOVER_RETRY_MAX_MS = 300_000;
/** How often an instance looks for hand-overs due (besides being nudged when a payment is authorised here). */
export const HANDOVER_SWEEP_MS = 1_000;
/** Status reports read from a core in one poll. */
export const CORE_REPORTS_PAGE = 500;
/** Reports one callback may carry: the body stays small (a few hundred kilobytes) and is checked before it is read whole. */
export const CORE_CALLBACK_REPORTS_MAX = 1_000;
/** The most a callback's body may be: CORE_CALLBACK_REPORTS_MAX reports of a few hundred bytes each, with room. */
export const CORE_CALLBACK_BODY_LIMIT_BYTES = 1_048_576;
