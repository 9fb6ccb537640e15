/** Limits of the sandbox: its test data (the mock-data API), its clock, its certificates over HTTP, its banks. */

/**
 * The latest instant the sandbox clock may show: every date the interface writes keeps a four-digit
 * year (the specification's YYYY-MM-DD), the next batch run's included.
 */
export const SANDBOX_CLOCK_LATEST = new Date('2999-12-31T00:00:00.000Z');

/** At most ten years forward in one move: far enough for any test, and a bound on the batch catch-up. */
export const SANDBOX_CLOCK_MAX_ADVANCE_SECONDS = 10 * 366 * 86_400;

/** spec, Limits and Versioning 4: an account's and a card account's name, 35 characters; 70 with accept-fix longer-name. */
export const ACCOUNT_NAME_MAX_LENGTH = 35;
export const ACCOUNT_NAME_LONGER_MAX_LENGTH = 70;
/** spec: bankTransactionCode of a sandbox transaction, 4 to 14 characters. */
export const BANK_TRANSACTION_CODE_MIN_LENGTH = 4;
export const BANK_TRANSACTION_CODE_MAX_LENGTH = 14;
/** spec: the sandbox transaction amount is an int32 of minor units (NOK 21 474 836.47 at most). */
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

/**
 * Sandbox transactions listed per page when the TPP gives no limit: 100 is a screenful of history and
 * a small answer. A TPP may ask for up to SANDBOX_TRANSACTIONS_PAGE_MAX, one request's worth of posting.
 */
export const SANDBOX_TRANSACTIONS_PAGE_DEFAULT = 100;
/** The most transactions (account or card) one listing returns: about 1 MB of JSON, as one posting request. */
export const SANDBOX_TRANSACTIONS_PAGE_MAX = 1000;
/**
 * Transactions posted in one request (account or card): a year of history of a busy account, about
 * 1 MB of JSON, within BODY_LIMIT_BYTES, inserted in one database transaction.
 */
export const MAX_SANDBOX_TRANSACTIONS_PER_REQUEST = 1000;
/** Customers one listing returns: a TPP's test set; more are read page by page with offset. */
export const SANDBOX_CUSTOMERS_PAGE_MAX = 1000;
/** Balances of one account or card account: Berlin Group has eight balance types; 10 leaves room. */
export const MAX_SANDBOX_BALANCES = 10;
/** Engagements of one agreement created at once: a company's people on its accounts. */
export const MAX_AGREEMENT_ENGAGEMENTS = 200;
/** Free-text fields of the mock data the specification does not bound (product, card ids, terminal ids): a name's 70. */
export const SANDBOX_TEXT_MAX_LENGTH = 70;

/**
 * Requests one client address may send per minute to POST /v1/sandbox/certificates, which needs no
 * certificate, refused ones included. Each certificate costs an RSA-2048 key, a fraction of a
 * second of a core (docs/decisions/0176); a TPP's CI asks
 * for one per pipeline run, and ten a minute leave room for parallel jobs while bounding one
 * address to a few seconds of key generation a minute.
 */
export const SANDBOX_CERTIFICATE_REQUESTS_PER_ADDRESS_PER_MINUTE = 10;

/** Validity of a sandbox TPP certificate at most, in days: a year, as test certificates of the platforms are. */
export const SANDBOX_CERTIFICATE_MAX_VALID_DAYS = 365;

/**
 * X.520 bounds (RFC 5280, ub-organization-name and ub-common-name): the organizationIdentifier and
 * the TPP's name (subject CN and O) are at most 64 characters.
 */
export const ORGANISATION_IDENTIFIER_MAX_LENGTH = 64;
export const TPP_NAME_MAX_LENGTH = 64;

/**
 * Sandbox banks one server keeps (one per TPP, each a copy of the default data set, about 60 rows).
 * A bank's sandbox serves tens to hundreds of TPPs; certificates over HTTP let one address make ten
 * TPPs a minute, so without a bound the database would grow by a bank for every certificate asked
 * for. 10 000 banks are some 600 000 rows.
 */
export const MAX_SANDBOX_BANKS = 10_000;

/**
 * Standing orders one sandbox listing of an account returns (GET …/standing-orders): more than an
 * account has in practice (a household's rent, loans and savings), one small answer, no paging.
 */
export const MAX_SANDBOX_STANDING_ORDERS_LISTED = 100;

/**
 * New sandbox banks one client address makes in 24 hours (an IPv6 address counts by its /64, which
 * one customer is given whole). A TPP needs one bank, a CI that makes a fresh organisation
 * identifier per pipeline a few a day; 20 leave room for both while one address needs 500 days to
 * fill MAX_SANDBOX_BANKS, and idle banks are removed long before (SANDBOX_BANK_IDLE_DAYS).
 * Configurable: SANDBOX_BANKS_PER_ADDRESS.
 */
export const MAX_NEW_SANDBOX_BANKS_PER_ADDRESS_PER_DAY = 20;

/**
 * Days a sandbox bank is kept after its last signed request before the retention job removes it with
 * all its data (docs/sandbox.md, docs/retention.md). A month keeps a TPP's bank across holidays and
 * a release cycle; a bank left behind costs its 60 rows and its payments no longer than that.
 * Configurable: SANDBOX_BANK_IDLE_DAYS.
 */
export const SANDBOX_BANK_IDLE_DAYS = 30;

/**
 * How often a used bank's last use is written: once an hour per bank and instance at most, not on
 * every request. Far below a day, so a bank in use is never mistaken for an idle one.
 */
export const SANDBOX_BANK_TOUCH_EVERY_MS = 3_600_000;

/** Bank and key pairs one process remembers as admitted: every bank with a few keys; beyond, the memory starts afresh. */
export const BANK_ENTRIES_CACHED = 50_000;

/**
 * How long one process admits a bank's key without asking the database again: a key unbound on
 * another instance (DELETE /v1/sandbox/keys/…) stops opening the bank within this. One indexed read
 * per bank, key and instance a minute costs nothing beside the requests it spares.
 */
export const BANK_KEY_RECHECK_MS = 60_000;

/**
 * A public key sent to be certified (SPKI PEM): an RSA-4096 key is some 800 characters, line breaks
 * included; the bound is any JSON string's (JSON_MAX_STRING_LENGTH), 1 024.
 */
export const SANDBOX_PUBLIC_KEY_MAX_LENGTH = 1024;

/**
 * Keys bound to one sandbox bank: the first key and the keys it binds (POST /v1/sandbox/keys). A TPP
 * needs one per developer's machine and CI, and one more while a key is replaced; ten leave room for
 * that and keep one bank's door list short.
 */
export const MAX_SANDBOX_BANK_KEYS = 10;

/**
 * Snapshots one sandbox bank keeps (docs/sandbox.md, "Snapshots"): a CI job saves a state or two per
 * suite (after its setup, before a risky test); 20 leave room for several suites of one TPP, and
 * bound a bank's snapshots to 20 × MAX_SANDBOX_SNAPSHOT_BYTES before compression.
 */
export const MAX_SANDBOX_SNAPSHOTS_PER_BANK = 20;

/**
 * Rows one snapshot holds. A save reads them all into memory at once (some hundreds of bytes each);
 * the default data set with 10 000 posted transactions is some 10 100 rows, and 50 000 leave room
 * for a year of history on a few busy accounts while a save stays a few tens of MB of memory.
 */
export const MAX_SANDBOX_SNAPSHOT_ROWS = 50_000;

/**
 * A snapshot's rows serialised, before compression (src/store/bank-rows-codec.ts). Rows differ in
 * size (a bulk payment keeps its body, up to BODY_LIMIT_BYTES): the row limit alone does not bound
 * the memory of a save and a restore. The default data set with 10 000 transactions is some 3 MB.
 */
export const MAX_SANDBOX_SNAPSHOT_BYTES = 32 * 1024 * 1024;

/**
 * Scenarios one sandbox bank has armed at once (docs/scenarios.md). A test arms a few for the case it
 * drives and disarms them; every signed request of the TPP reads its bank's bank faults, so the bound
 * keeps that read a handful of rows.
 */
export const MAX_SANDBOX_SCENARIOS_ARMED = 50;
/** The most `times` of one armed scenario: a test's retry loop many times over; "unlimited" runs until disarmed. */
export const MAX_SANDBOX_SCENARIO_TIMES = 1000;
/**
 * The longest a bank-slow scenario delays an answer: beyond the 10 to 30 seconds TPPs' HTTP clients
 * commonly wait, so a test can see its own timeout fire, while one delayed request holds its
 * connection no longer than a client may take to send one (REQUEST_TIMEOUT_MS's default).
 */
export const SANDBOX_SLOW_MAX_DELAY_MS = 30_000;
/** The most a bank-throttled scenario's Retry-After says: an hour, longer than any test waits. */
export const SANDBOX_RETRY_AFTER_MAX_SECONDS = 3600;
/** The longest maintenance window a scenario opens: a week, a long weekend's upgrade with room to spare. */
export const SANDBOX_MAINTENANCE_MAX_SECONDS = 7 * 86_400;
/** A rejecting scenario's own reasonText: the statusReason after its code fits a tppMessage's text (TPP_MESSAGE_TEXT_MAX_LENGTH) with room. */
export const SANDBOX_SCENARIO_REASON_MAX_LENGTH = 200;

/**
 * How long a console link (`tpp console`, POST /v1/sandbox/console-links) can be opened: long enough
 * to copy it from a terminal into a browser, short enough that one left in a shell's history or a CI
 * log has expired before anyone reads it. It is opened once (docs/console.md).
 */
export const CONSOLE_LINK_TTL_MS = 5 * 60_000;

/**
 * How long a console session (its cookie) lasts after the link was opened: a working day, after
 * which the developer runs `tpp console` again. The session is the TPP's rights in its sandbox bank,
 * so it does not outlast the day it was given for.
 */
export const CONSOLE_SESSION_TTL_MS = 8 * 3_600_000;

/**
 * Console links one process remembers as used until they expire (what makes each link single-use):
 * a link lives CONSOLE_LINK_TTL_MS, so this is links opened within five minutes, far more than a
 * sandbox's developers open. Beyond it a link is refused until older ones expire, rather than a used
 * one forgotten (and usable again).
 */
export const CONSOLE_LINKS_REMEMBERED = 10_000;

/**
 * Console links one TPP opens within CONSOLE_LINK_TTL_MS (issue 40): a developer opens a few; beyond,
 * that TPP gets 429 until its older links expire, so no TPP fills the links every TPP's share
 * (CONSOLE_LINKS_REMEMBERED would take 500 TPPs each at its own limit).
 */
export const CONSOLE_LINKS_PER_TPP = 20;

/**
 * Console sessions one TPP's bank keeps (issue 40): a developer signs in from a few browsers; opening
 * one more ends the TPP's oldest, so the newest link always opens and no TPP's sessions grow without
 * bound in the database every TPP shares (links alone would allow CONSOLE_LINKS_PER_TPP every five
 * minutes for eight hours, per instance).
 */
export const CONSOLE_SESSIONS_PER_TPP = 20;

/** A console link's token or session cookie as sent: what a valid one is (a few hundred characters) with room; longer is not read. */
export const CONSOLE_TOKEN_MAX_LENGTH = 512;

/**
 * Payments the console lists, newest first: a screenful of a developer's recent tests, one page to
 * read without paging. Older ones are read by their id (GET /console/payments/{id}) or through the API.
 */
export const CONSOLE_PAYMENTS_LISTED = 50;

/** Consents the console lists, newest first: as its payments. */
export const CONSOLE_CONSENTS_LISTED = 50;

/** Customers the console lists, with their accounts: the default data set and a TPP's own test set. */
export const CONSOLE_CUSTOMERS_LISTED = 100;

/**
 * Authorisations, bookings and standing-order executions one payment's history shows, each: a
 * payment is authorised once or a few times, a bulk's bookings are one per entry and its fee, a
 * standing order runs monthly for years. The newest are kept when there are more.
 */
export const CONSOLE_HISTORY_EVENTS_MAX = 200;

/** A console form's body: a few short fields (a CSRF token, a number, a choice). */
export const CONSOLE_FORM_BODY_MAX_BYTES = 4096;

/**
 * Bulk operations on its bank (snapshot saves and restores, initialize) one TPP starts per minute.
 * Each reads or writes up to MAX_SANDBOX_SNAPSHOT_ROWS rows, a second or two of the database; a CI
 * suite restores before each test file, a few a minute. Twelve leave room for that, and bound a TPP
 * looping them to a fifth of the database's time, so other TPPs keep theirs.
 */
export const SANDBOX_BULK_OPERATIONS_PER_TPP_PER_MINUTE = 12;

/**
 * How long a bank's bulk operation holds its lease on the bank (banks.bulk_until) before another
 * may take it: far longer than a save or restore at the limits takes (a few seconds), so a lease
 * never runs out under its holder; short enough that a lease of an instance that died frees the
 * bank within minutes.
 */
export const SANDBOX_BULK_LEASE_MS = 120_000;

/**
 * Rows one slice of a bulk operation reads, encodes, decodes or writes before it yields to other
 * requests: some 100 KB of rows, a few milliseconds of the event loop and of SQLite's one connection,
 * so another TPP's request waits at most that long for it. Measured at the snapshot limits (44 000
 * transactions, bench/snapshot-stall.ts): 1 000 rows a slice held other requests up to some 60 ms on
 * SQLite, 250 some 15-30 ms, for a restore of 6 s instead of 4.
 */
export const SANDBOX_BULK_SLICE_ROWS = 250;

/**
 * The Retry-After of a bulk operation refused because another runs on the bank: a save or restore
 * at the snapshot limits takes a few seconds (bench/snapshot-stall.ts), so the next try finds it done.
 */
export const SANDBOX_BULK_BUSY_RETRY_SECONDS = 5;

/**
 * How often a process compares the versions of the bank facts it holds (a bank's clock offset,
 * whether a fault is armed) with the database's: the most another instance's clock move or armed
 * fault takes to reach this one (services/bank-facts.ts). This process's own changes reach it at once.
 */
export const BANK_FACTS_CHECK_MS = 100;

/** Banks whose facts one process holds: each check asks the versions of all of them in one query. */
export const BANK_FACTS_HELD = 2_000;
