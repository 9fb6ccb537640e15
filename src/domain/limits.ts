/**
 * Every limit of the server, named, with the reason for its value.
 * Limits that the specification sets are marked "spec"; the others are our choice (docs/decisions.md).
 */

/** spec: tppMessages text and psuMessage are at most 512 characters. */
export const TPP_MESSAGE_TEXT_MAX_LENGTH = 512;

/**
 * Bodies that carry a list of up to a thousand entries (a bulk payment, a posting of transactions).
 * Every such body with each field at its maximum length fits: 1 000 sandbox card transactions are
 * 1.45 MB of JSON, a bulk payment of MAX_BULK_ENTRIES entries with one structured reference each
 * 1.26 MB (test/http/body-limits.test.ts builds them from the schemas). Reading a body costs time
 * in proportion to its size (about 8-11 ms of CPU per MiB for a hostile one), so the limit is not
 * larger than that: 2 MiB let one hostile body hold the event loop over 50 ms (docs/decisions.md,
 * "List bodies of 1.5 MiB").
 */
export const BODY_LIMIT_BYTES = 1.5 * 1024 * 1024;

/**
 * Entries of a large body's list validated between two turns of the event loop: about a millisecond
 * of work with every entry wrong, so a /health probe or a small create waits that long behind a
 * hostile list body rather than for the whole of its validation.
 */
export const VALIDATION_ENTRIES_PER_TURN = 100;

/**
 * Characters of a large body's text parsed at a time (src/http/body/json-pieces.ts). Every piece is then a
 * string well under V8's largest object of its ordinary pages (128 KiB; 64 KiB for a piece of UTF-16),
 * made in the young generation's memory, already in use. One string of the whole body would be made
 * in fresh pages of its own: on the bench's 2-core VM touching them cost 5-9 ms per 1.5 MiB body,
 * and those strings filled the old generation, so that a full collection paused the event loop for
 * up to 28 ms every few large bodies.
 */
export const PARSE_PIECE_UNITS = 32 * 1024;

/**
 * Characters of a large body's text whose shape is checked between two turns of the event loop
 * (src/http/body/json-shape.ts): under a millisecond of the check on the bench's VM, so the check of a
 * 1.5 MiB list body is six short steps rather than one long one.
 */
export const SHAPE_SLICE_CHARS = 256 * 1024;

/**
 * Bodies of one resource (a cross-border payment, a basket, a customer, an account, a card account,
 * an agreement, the clock): the largest, an agreement of MAX_AGREEMENT_ENGAGEMENTS engagements with
 * every field at its maximum, is 31 KB of JSON; a cross-border payment about 2 KiB. 64 KiB leaves
 * room for any formatting, and keeps what a hostile body can cost on these routes small.
 */
export const RESOURCE_BODY_LIMIT_BYTES = 64 * 1024;

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

/**
 * The warm-up of the large-body steps (src/http/schema-compiler/warm-up.ts) begins this long after the server
 * listens: a client that asks at once (a health probe, a test's first call) is answered first, and
 * the first large body seldom comes sooner.
 */
export const WARM_UP_DELAY_MS = 100;

/** Requests still being answered when shutdown starts get this long to finish. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * At shutdown the store waits this long for its calls under way to settle before it closes
 * (src/store/closing-store.ts): they take milliseconds, and the longest any waits is SQLite's busy
 * timeout for the write lock, 5 s; within SHUTDOWN_GRACE_MS.
 */
export const STORE_CLOSE_WAIT_MS = 5_000;

/** A query that checks the database for /health gives up after this long. */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

/** Connections to PostgreSQL per server instance: two cores serve no more concurrent queries. */
export const POSTGRES_POOL_SIZE = 10;

// ---- Payment fields (specification, field tables and Limits) ----

/** spec: creditorName, debtorName, ultimateDebtor. */
export const NAME_MAX_LENGTH = 70;
/** spec: creditorAddress.street. */
export const STREET_MAX_LENGTH = 70;
/** spec: bban. */
export const BBAN_MAX_LENGTH = 30;
/** spec: iban. */
export const IBAN_MAX_LENGTH = 34;
/** spec: remittanceInformationUnstructured, 1 to 140. */
export const REMITTANCE_UNSTRUCTURED_MAX_LENGTH = 140;
/** spec: regulatoryReportingInformation. */
export const REGULATORY_REPORTING_INFORMATION_MAX_LENGTH = 140;
/** spec: paymentInformationId, 0 to 35. */
export const PAYMENT_INFORMATION_ID_MAX_LENGTH = 35;
/** spec: reference, referenceType, referenceIssuer of structured remittance, 1 to 35 each. */
export const STRUCTURED_REMITTANCE_FIELD_MAX_LENGTH = 35;
/** spec: amounts have precision 18 and scale 5 by contract. */
export const AMOUNT_PRECISION = 18;
export const AMOUNT_SCALE = 5;

/**
 * The specification leaves these address parts unbounded; ISO 20022 (pain.001), into which the bank
 * turns the payment, allows BldgNb and PstCd 16 characters and TwnNm 35.
 */
export const BUILDING_NUMBER_MAX_LENGTH = 16;
export const POSTAL_CODE_MAX_LENGTH = 16;
export const CITY_MAX_LENGTH = 35;

/**
 * Entries of one bulk payment. 1 000 covers the monthly payroll of a company of a thousand people
 * in one SCA, bounds a request to about 1 MB and the PSU's signing page to a list one can still read;
 * larger batches belong in the file channels (ISO 20022 pain.001) banks offer for them.
 */
export const MAX_BULK_ENTRIES = 1000;

/** remittanceInformationStructuredArray entries: the platform's examples use one or two (KID plus invoice). */
export const MAX_STRUCTURED_REMITTANCE_ENTRIES = 10;

/** requestedExecutionDate at most this many days ahead: banks keep future-dated payments for a year. */
export const MAX_EXECUTION_DAYS_AHEAD = 365;

/**
 * A payment equal to one of the same PSU created within this window is a logical duplicate. 24 hours
 * catches a double submission and a retry with a new X-Request-ID, and lets a PSU pay the same
 * creditor the same amount again the next day (a weekly rent, say).
 */
export const LOGICAL_DUPLICATE_WINDOW_HOURS = 24;

/**
 * The latest instant the sandbox clock may show. The batch schedule (croner) finds no run in year
 * 3000 or after (nextRun gives null: measured), so a clock past this would have no next batch run;
 * and every date the interface writes keeps a four-digit year (the specification's YYYY-MM-DD).
 */
export const SANDBOX_CLOCK_LATEST = new Date('2999-12-31T00:00:00.000Z');

/**
 * The days the logical-duplicate look-up probes at most: those of the window, and the day after the
 * payment's (src/store/duplicate-hash.ts). Its index is probed once for each transfer on each day, so
 * a window that touched more days would cost more probes, not a wider scan; a longer span is a bug.
 */
export const LOGICAL_DUPLICATE_MAX_DAYS = Math.ceil(LOGICAL_DUPLICATE_WINDOW_HOURS / 24) + 2;

/** Free-text headers without a format in the specification, bounded for storage and logs. */
export const SESSION_ID_MAX_LENGTH = 200;
export const FORWARDED_HEADER_MAX_LENGTH = 512;
export const SHORT_HEADER_MAX_LENGTH = 140;

// ---- Sandbox test data (mock-data API) ----

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

// ---- Replay of signed requests (docs/security.md, section 1) ----

/**
 * Expired X-Request-ID bindings are deleted at most this often, by the request that finds the
 * interval passed. A minute bounds one purge to a minute's requests (with a Date header, a binding
 * lives DATE_SKEW_SECONDS), so it never holds the database for long.
 */
export const REQUEST_BINDING_PURGE_INTERVAL_MS = 60_000;

// ---- Certificate strength (what a qualified trust service issues) ----

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

// ---- The PSU's side: one-time codes per PSU ----

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

// ---- Currencies and reference rates (docs/fees.md) ----

/**
 * Fraction digits of one reference rate. Each rate keeps the digits it is written with (no common
 * scale), so a withdrawn currency keeps its value per old unit: the smallest rate of the sandbox
 * table, ZWD at about NOK 3.1 × 10^-41, needs 44 fraction digits for 4 significant ones. 48 bounds
 * the digits read from REFERENCE_RATES and the size of the integers one conversion multiplies.
 */
export const REFERENCE_RATE_MAX_FRACTION_DIGITS = 48;
/** Digits before the point of one reference rate: no currency is worth NOK 10^12 per unit. */
export const REFERENCE_RATE_MAX_WHOLE_DIGITS = 12;

// ---- Input shape (issue 10, point 3: refusing costs little and is bounded) ----
// Checked in one linear pass over the raw JSON before it is parsed (src/http/body/json-shape.ts), so no
// per-element work (parsing, hashing, schema validation) ever runs on a body beyond these.

/**
 * Nesting of arrays and objects in a JSON body. The deepest request of this interface is a bulk
 * entry's structured remittance ($ → payments → entry → remittanceInformationStructuredArray → entry):
 * 5 levels. 16 leaves room and keeps every recursive walk of a body (the canonical hash) shallow.
 */
export const JSON_MAX_DEPTH = 16;
/**
 * Entries of any one JSON array: the largest array a request may hold (a bulk payment's
 * MAX_BULK_ENTRIES, a sandbox posting's MAX_SANDBOX_TRANSACTIONS_PER_REQUEST), 1 000. Each route's
 * schema sets its own, smaller maxItems where it has one (a test checks none exceeds this).
 */
export const JSON_MAX_ARRAY_ENTRIES = 1000;
/**
 * Fields of any one JSON object: the widest request object (a sandbox card transaction) has 16. Every
 * unknown field is one more schema error per object, so the room left is small: 20.
 */
export const JSON_MAX_OBJECT_KEYS = 20;
/**
 * Characters of any one JSON string, value or field name (after unescaping). The longest text field
 * of a request body is 140 characters (remittance information); 1 024 covers every one with room.
 */
export const JSON_MAX_STRING_LENGTH = 1024;
/** Characters of one JSON number as written: amounts and int32 minor units are under 30. */
export const JSON_MAX_NUMBER_LENGTH = 100;
/**
 * Values (of every kind, containers included) in one body. A bulk payment of MAX_BULK_ENTRIES entries
 * with every optional field and ten structured references has about 63 000; 100 000 bounds the work
 * per body well under what BODY_LIMIT_BYTES alone allows (about 700 000 tiny values).
 */
export const JSON_MAX_VALUES = 100_000;

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

// ---- No 5xx, and slow or idle clients (issue 10, points 4 and 5) ----

/**
 * TPP-Redirect-URI: 2048 characters is what every browser and proxy on the PSU's way back handles
 * (the historic 2083 of Internet Explorer, rounded down), with room for the TPP's own state query and
 * the psu-id, tpp-session-id and message the server adds.
 */
export const REDIRECT_URI_MAX_LENGTH = 2048;

/**
 * A client has this long to send all its request headers. A signed request's headers are about 4 KiB
 * and arrive in one or two packets; 10 s allows a very slow mobile link and closes a slow-loris
 * connection (headers sent a byte at a time) long before thousands of them can pile up.
 */
export const HEADERS_TIMEOUT_MS = 10_000;

/**
 * A client has this long to send the whole request, body included. BODY_LIMIT_BYTES (1.5 MiB) over a
 * slow 1 Mbit/s link takes 13 s; 30 s leaves room, and a connection that stops sending mid-body is
 * closed with 408 instead of being held (it was held for more than 6 minutes before this limit).
 */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Bounds of the HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS variables: a second at least, five minutes at most (Node's own default). */
export const MIN_CLIENT_TIMEOUT_MS = 1_000;
export const MAX_CLIENT_TIMEOUT_MS = 300_000;

/**
 * An idle keep-alive connection is closed after this long. 65 s is longer than the 60 s idle timeout
 * of the usual load balancers in front of a bank (which then close first, so a request is never sent
 * on a connection the server is closing) and short enough that idle connections do not accumulate.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * How often Node checks connections against HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS. Its default,
 * 30 s, lets a stalled request live up to 30 s past its limit; once a second costs a walk over the
 * open connections and keeps the limits as stated.
 */
export const CONNECTIONS_CHECK_INTERVAL_MS = 1_000;

// ---- The sandbox's certificates over HTTP ----

/**
 * Requests one client address may send per minute to POST /v1/sandbox/certificates, which needs no
 * certificate, refused ones included. Each certificate costs an RSA-2048 key, 100 to 500 ms of a
 * core; a TPP's CI asks for one per pipeline run, and ten a minute leave room for parallel jobs while
 * bounding one address to a few seconds of key generation a minute.
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

// ---- Account information (docs/ais.md) ----

/**
 * spec, Authentication 10: "the history of transactions can be read without SCA for 90 days".
 * Transactions booked more than this many days ago are read only with an SCA at most this old.
 */
export const AIS_HISTORY_WITHOUT_SCA_DAYS = 90;
/**
 * PSD2 RTS article 36(5)(b): without the PSU actively asking (no PSU-IP-Address), an AISP reads an
 * account at most four times a day. Counted per TPP, account and kind of read, per Norwegian day of
 * the bank's clock.
 */
export const AIS_UNATTENDED_READS_PER_DAY = 4;
/** Transactions per page when the TPP gives no limit: a screenful of a statement, a small answer. */
export const AIS_TRANSACTIONS_PAGE_DEFAULT = 100;
/**
 * The most transactions one page returns: about 1 MB of JSON, as the sandbox's listing. A client that
 * wants more follows `_links.next`; each page is one index range, however far it is.
 */
export const AIS_TRANSACTIONS_PAGE_MAX = 1000;
/**
 * Accounts and card accounts one consent page offers, and one consent shares. Each choice is a
 * checkbox whose value (an id of about 30 characters) the form posts back within
 * SCA_FORM_BODY_MAX_BYTES; 50 is more than a person reads on a phone, and a company with more
 * accounts shares them in several consents.
 */
export const AIS_SHAREABLE_ACCOUNTS_MAX = 50;

// ---- Sandbox banks ----

/**
 * Sandbox banks one server keeps (one per TPP, each a copy of the default data set, about 60 rows).
 * A bank's sandbox serves tens to hundreds of TPPs; certificates over HTTP let one address make ten
 * TPPs a minute, so without a bound the database would grow by a bank for every certificate asked
 * for. 10 000 banks are some 600 000 rows.
 */
export const MAX_SANDBOX_BANKS = 10_000;
