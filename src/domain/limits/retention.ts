/** Limits of keeping data: how long, and how much the retention job deletes at once (docs/retention.md). */

/**
 * Years after the end of the financial year that payments and booked transactions are kept in
 * production: bokføringsloven § 13 first paragraph asks the primary documentation (bilag) of
 * bookkeeping to be kept five years after the end of the financial year. Configurable
 * (BOOKKEEPING_RETENTION_YEARS) for a bank whose own rules keep them longer.
 */
export const BOOKKEEPING_RETENTION_YEARS = 5;

/**
 * Rows the retention job deletes in one statement: each chunk is its own short transaction, so that
 * SQLite's one writer and PostgreSQL's row locks are held for milliseconds, never for a whole sweep,
 * and the event loop gets a turn between chunks.
 */
export const RETENTION_CHUNK_ROWS = 500;

/** Chunks one retention run deletes at most, per kind: a backlog is worked off run by run, not in one long sweep. */
export const RETENTION_MAX_CHUNKS_PER_KIND = 200;

/** How often the retention job runs on each instance; one of them does the work (a claimed run, like a batch slot). */
export const RETENTION_INTERVAL_MS = 3_600_000;

/**
 * Days a refused or finished authorisation and its SCA session are kept after they expire: long
 * enough to answer a TPP reading its status afterwards, and to investigate a complaint of the week.
 */
export const AUTHORISATION_KEEP_DAYS = 7;

/** Days wrong one-time codes are kept: the lockout counts the last PSU_CODE_FAILURE_WINDOW_MINUTES, a day is ample. */
export const CODE_ATTEMPTS_KEEP_DAYS = 1;

/** Days the retention job's own claims of its hourly runs are kept: a record of the runs of the week. */
export const RETENTION_CLAIMS_KEEP_DAYS = 7;

/**
 * Days a notification that ended (delivered, gone, expired, stopped) is kept with its tries: the
 * console's delivery log of the last fortnight, and a TPP's question about one it missed.
 */
export const NOTIFICATION_KEEP_DAYS = 14;

/**
 * How often each instance looks for consents whose SCA became 180 days old, to write them down as
 * expired so the TPP's notification goes (docs/notifications.md): a minute late at most, for a
 * look that reads the few valid consents near the edge through their partial index (migration 028).
 */
export const CONSENT_EXPIRY_INTERVAL_MS = 60_000;

/** Consents one look expires at most: a backlog (a server down for days) is worked off look by look. */
export const CONSENT_EXPIRY_BATCH = 500;
