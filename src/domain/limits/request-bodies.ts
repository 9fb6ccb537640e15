/**
 * Limits on JSON bodies: their size, and their shape, checked in one linear pass over the raw JSON
 * before it is parsed (src/http/body/json-shape.ts), so no per-element work (parsing, hashing, schema
 * validation) ever runs on a body beyond these; and the steps in which a large body is read, so that
 * reading one does not hold every other request.
 */

/**
 * Bodies that carry a list of up to a thousand entries (a bulk payment, a posting of transactions).
 * Every such body with each field at its maximum length fits: 1 000 sandbox card transactions are
 * 1.45 MB of JSON, a bulk payment of MAX_BULK_ENTRIES entries with one structured reference each
 * 1.26 MB (test/http/body-limits.test.ts builds them from the schemas). Reading a body costs time
 * in proportion to its size, so the limit is not larger than that: a larger one lets one hostile
 * body hold the event loop past the latency target (docs/decisions/0145).
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
 * in fresh pages of its own, slow to touch on a virtual machine, and such strings fill the old
 * generation, so that a full collection pauses the event loop every few large bodies
 * (docs/decisions/0147).
 */
export const PARSE_PIECE_UNITS = 32 * 1024;

/**
 * Characters of a large body's text whose shape is checked between two turns of the event loop
 * (src/http/body/json-shape.ts): under a millisecond of the check, so the check of a list body at
 * BODY_LIMIT_BYTES is six short steps rather than one long one.
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
 * The warm-up of the large-body steps (src/http/schema-compiler/warm-up.ts) begins this long after the server
 * listens: a client that asks at once (a health probe, a test's first call) is answered first, and
 * the first large body seldom comes sooner.
 */
export const WARM_UP_DELAY_MS = 100;

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
