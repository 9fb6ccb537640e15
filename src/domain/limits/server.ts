/** Limits of the process and its connections: slow or idle clients, shutdown, the database's connections. */

/** Requests still being answered when shutdown starts get this long to finish. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * At shutdown the store waits this long for its calls under way to settle before it closes
 * (src/store/closing-store.ts): they take milliseconds, and the longest any waits is SQLite's busy
 * timeout for the write lock, SQLITE_BUSY_WAIT_MS; within SHUTDOWN_GRACE_MS.
 */
export const STORE_CLOSE_WAIT_MS = 5_000;

/** A query that checks the database for /health gives up after this long. */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

/**
 * How long a new PostgreSQL connection, or a wait for a free one of the pool, may take before it
 * fails: a database behind a firewall that drops packets would otherwise hold the start (and every
 * request) without end. Ten seconds outlast a PostgreSQL restart's usual recovery. The database URL's
 * `connect_timeout` (seconds, as libpq reads it) sets another.
 */
export const POSTGRES_CONNECT_TIMEOUT_MS = 10_000;

/** Connections to PostgreSQL per server instance: two cores serve no more concurrent queries. */
export const POSTGRES_POOL_SIZE = 10;

/**
 * A client has this long to send all its request headers. A signed request's headers are about 4 KiB
 * and arrive in one or two packets; 10 s allows a very slow mobile link and closes a slow-loris
 * connection (headers sent a byte at a time) long before thousands of them can pile up.
 */
export const HEADERS_TIMEOUT_MS = 10_000;

/**
 * A client has this long to send the whole request, body included. BODY_LIMIT_BYTES (1.5 MiB) over a
 * slow 1 Mbit/s link takes 13 s; 30 s leaves room, and a connection that stops sending mid-body is
 * closed with 408 instead of being held (docs/security.md, "A client that stops sending mid-body").
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

/**
 * The same signal again within this long of the first is the one stop delivered twice, not a second
 * stop that means "exit without waiting". `npm start` forwards the SIGINT or SIGTERM it gets to the
 * server, which gets it itself too when it was sent to the process group (Ctrl-C in a terminal,
 * systemd's default KillMode=control-group, `timeout`). npm forwards it from its signal handler, a few
 * milliseconds later; a person who presses Ctrl-C again after reading "shutting down" takes longer
 * than a second.
 */
export const SIGNAL_ECHO_WINDOW_MS = 1_000;

/**
 * How long a SQLite connection waits for another process's lock (busy_timeout), and a start for the
 * lock that switching a new file to WAL needs: long enough for another instance's migration on the
 * same file, short enough that a start on a file held by a stuck process says so (exit code 3).
 */
export const SQLITE_BUSY_WAIT_MS = 5_000;

/**
 * An answer shorter than this is sent without content coding, whatever Accept-Encoding allows. Most
 * HTTP clients ask for gzip by default, and the answers TPPs call most (a status, a create) are a few
 * hundred bytes: compressing one saves less than a TCP packet and costs more CPU than the rest of
 * the answer (docs/decisions/0349). Lists, documents and pages above it are compressed. 1 KiB is
 * @fastify/compress's own default.
 */
export const COMPRESSION_MIN_BYTES = 1024;

/**
 * Column sets of one table whose insert statement SQLite's hot path keeps at hand
 * (src/store/sqlite/insert-statements.ts). The hot path's rows each have one set, so a table sees one
 * or two; a row builder that left out columns by the row would make a set per combination, and past
 * this the oldest is dropped (it is still found, more slowly, through the statement cache).
 */
export const INSERT_SHAPES_PER_TABLE = 8;

/**
 * Rows inserted per statement (src/store/queries/insert-rows.ts): 500 transactions of 21 columns
 * stay far under either engine's bound on parameters (SQLite's 32 766, PostgreSQL's 65 535).
 */
export const INSERT_CHUNK = 500;

/**
 * Texts of multi-row inserts kept per database engine (src/store/queries/insert-rows.ts): one per
 * table, column set and row count. A batch run's chunks are all of INSERT_CHUNK rows but the last,
 * so the tables that insert in chunks use a few; the rest count one text each. Past this the oldest
 * is dropped and made again when next needed. A text of INSERT_CHUNK rows is some 100 KB.
 */
export const INSERT_TEXTS_PER_ENGINE = 64;
