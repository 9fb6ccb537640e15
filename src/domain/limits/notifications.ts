/**
 * Limits of the resource notifications a TPP subscribes to (docs/notifications.md).
 */

/**
 * TPP-Notification-URI, in characters: the same bound as TPP-Redirect-URI's (REDIRECT_URI_MAX_LENGTH),
 * since a TPP builds both the same way (a host of its own and a path naming its transaction); it is
 * stored with every subscribed resource, so it stays bounded.
 */
export const NOTIFICATION_URI_MAX_LENGTH = 2048;

/**
 * TPP-Notification-Content-Preferred, in characters: `status=SCA, PROCESS, LAST` is 25; 100 leaves
 * room for the spaces Berlin Group's own example puts after the commas, and bounds the format check.
 */
export const NOTIFICATION_CONTENT_MAX_LENGTH = 100;

/**
 * How long the bank retries a notification the TPP's endpoint did not take (no 2xx, no 410): 24
 * hours, as issue 43 asks and as a TPP's on-call rotation needs to mend an endpoint; then it ends as
 * expired, and the TPP reads the status as it would without notifications.
 */
export const NOTIFICATION_RETRY_WINDOW_MS = 24 * 3_600_000;
/** The first retry's delay; each next one doubles, with jitter (domain/backoff.ts). */
export const NOTIFICATION_RETRY_BASE_MS = 1_000;
/** The longest wait between two tries: an endpoint down for hours is tried every half hour, so about 60 tries in the window. */
export const NOTIFICATION_RETRY_MAX_MS = 1_800_000;
/**
 * How long one try may take, connection to the answer's last byte: a TPP's endpoint should answer at
 * once and do its work later (Stripe allows 10 s, likewise); a hanging one holds a slot no longer.
 */
export const NOTIFICATION_TIMEOUT_MS = 10_000;
/** How long an instance's claim of an event lasts: longer than a try may take, so no other instance sends it meanwhile. */
export const NOTIFICATION_CLAIM_MS = 30_000;
/** Events claimed in one turn of the sender. */
export const NOTIFICATION_BATCH_SIZE = 200;
/**
 * Tries in flight at once to one destination (scheme, host and port), per instance: a slow TPP fills
 * its own slots, not the bank's or other TPPs'.
 */
export const NOTIFICATION_DESTINATION_CONCURRENCY = 32;
/** Tries started per second to one destination, per instance: a TPP's endpoint is not flooded after an outage. */
export const NOTIFICATION_DESTINATION_RATE_PER_SECOND = 5_000;
/** Tries in flight at once, all destinations, per instance. */
export const NOTIFICATION_CONCURRENCY = 256;
/** How often an instance looks for events due (besides being nudged when a status changed here). */
export const NOTIFICATION_SWEEP_MS = 1_000;
/** The answer's body kept in the delivery log, in characters: enough to read an error page's first lines. */
export const NOTIFICATION_ANSWER_KEPT_CHARS = 1_000;
/** A failed try's reason kept, in characters. */
export const NOTIFICATION_ERROR_KEPT_CHARS = 500;
/** The answer's body read at most, in bytes; the rest is not waited for. */
export const NOTIFICATION_ANSWER_READ_BYTES = 4_096;
/** Events the console's delivery log shows. */
export const NOTIFICATION_LOG_ENTRIES = 100;
