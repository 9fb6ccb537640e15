import { aisRows } from './ais-reads.js';
import type { Figures } from './bench-figures.js';
import { byTurnsRows } from './by-turns.js';
import { BATCH_PAYMENTS, COLD_STARTS, CONNECTIONS, STANDING_ORDERS, TPP_CALLS } from './bench-sizes.js';
import { firstBodiesRow } from './first-bodies.js';
import { hostileRows } from './hostile-bodies.js';
import { LISTING_TRANSACTIONS } from './listing.js';
import type { LoadResult } from './load.js';
import { ndctRow } from './ndct-creates.js';
import { notificationRows } from './notification-delivery.js';

/** The bench's table (bench/run.ts): one row a measure, its figure the median of the runs with min and max. */

/** A row of the table: the measure, its figure, a note. */
export type Row = [string, string, string];

function stats(values: number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted.at(-1)! };
}
const fmt = (values: number[], digits = 0) => {
  const s = stats(values);
  return `${s.median.toFixed(digits)} (${s.min.toFixed(digits)} – ${s.max.toFixed(digits)})`;
};
const rps = (results: LoadResult[]) => results.map((r) => r.requestsPerSecond);
const ratio = (results: LoadResult[], ceilings: LoadResult[]) =>
  results.map((r, i) => r.requestsPerSecond / ceilings[i]!.requestsPerSecond);
/** A load whose answers are counted: its name, the start of the measure of the row it feeds, its results. */
export type CountedLoad = [name: string, row: string, results: LoadResult[]];

/** The table's rows, in the order it shows them. */
export function resultRows(figures: Figures): Row[] {
  return [
    ...floorRows(figures),
    ...createRows(figures),
    ...halfRateRows(figures),
    ...postgresRows(figures),
    ...bulkRows(figures),
    ndctRow(figures.ndctSqlite, fmt),
    ...readRows(figures),
    ...byTurnsRows(
      { read: figures.byTurnsRead, create: figures.byTurnsCreate, createPg: figures.byTurnsCreatePg },
      fmt,
    ),
    ...listingRows(figures),
    ...batchRows(figures),
    ...notificationRows(figures.notifications, fmt),
    ...processRows(figures),
    ...aisRows(figures.ais, fmt),
    ...hostileRows(figures.hostile, fmt),
    firstBodiesRow(figures.firstBodies, fmt),
  ];
}

/** The ceiling, and the floors of a create and a status read: what the server's rows are measured against. */
function floorRows(figures: Figures): Row[] {
  return [
    ['Ceiling: bare Fastify 201, req/s', fmt(rps(figures.ceiling)), ''],
    [
      "Floor of a create on SQLite (bench/floor-server.ts: the ceiling's route + RSA verification + the store's binding, create and flush), req/s",
      fmt(rps(figures.floorCreate)),
      `ratio to ceiling ${fmt(ratio(figures.floorCreate, figures.ceiling), 2)}: what a create could reach with nothing of the server's own; the create row's target is 0.25`,
    ],
    [
      'Floor of a status read on SQLite (RSA verification + binding + read + flush), req/s',
      fmt(rps(figures.floorRead)),
      `ratio to ceiling (GET) ${fmt(ratio(figures.floorRead, figures.ceilingRead), 2)}; the status read's target is 0.5`,
    ],
    [
      'Floor of a create on PostgreSQL (the same, on a fresh database), req/s',
      fmt(rps(figures.floorCreatePg)),
      `ratio to ceiling ${fmt(ratio(figures.floorCreatePg, figures.ceiling), 2)}; the create's target on PostgreSQL is 0.1`,
    ],
  ];
}

/** Creates on SQLite at full load, and the disk flush under each. */
function createRows(figures: Figures): Row[] {
  return [
    [
      'Create on SQLite, req/s',
      fmt(rps(figures.createSqlite)),
      `ratio to ceiling ${fmt(ratio(figures.createSqlite, figures.ceiling), 2)}; target ≥ 0.25`,
    ],
    [
      'Create on SQLite, p50 / p99 ms (at full load)',
      `${fmt(figures.createSqlite.map((r) => r.p50Ms))} / ${fmt(figures.createSqlite.map((r) => r.p99Ms))}`,
      `${CONNECTIONS} connections`,
    ],
    [
      'Disk flush (4 KiB appended, fdatasync), p50 / p99 ms',
      `${fmt(
        figures.flush.map((f) => f.p50Ms),
        2,
      )} / ${fmt(
        figures.flush.map((f) => f.p99Ms),
        2,
      )}`,
      'the floor under a durable create, measured in the same run',
    ],
  ];
}

/** Creates on SQLite paced at half the maximum rate, and the ceiling and the floor paced at that rate. */
function halfRateRows(figures: Figures): Row[] {
  return [
    [
      'Create on SQLite at half the maximum rate, p99 ms',
      fmt(
        figures.halfRateSqlite.map((r) => r.p99Ms),
        1,
      ),
      `target within 2× the disk flush p99: ${fmt(
        figures.halfRateSqlite.map((r, i) => r.p99Ms / figures.flush[i]!.p99Ms),
        1,
      )}×; paced (open loop) at ${fmt(figures.halfRateSqlite.map((r) => r.requestsPerSecond))} req/s; p50 ${fmt(
        figures.halfRateSqlite.map((r) => r.p50Ms),
        1,
      )}`,
    ],
    [
      'The ceiling paced at the same rate, p99 ms',
      fmt(
        figures.ceilingAtCreateHalfRate.map((r) => r.p99Ms),
        2,
      ),
      `p50 ${fmt(
        figures.ceilingAtCreateHalfRate.map((r) => r.p50Ms),
        2,
      )}: the latency floor of Node's HTTP and the paced loader on this machine, ${fmt(
        figures.ceilingAtCreateHalfRate.map((r, i) => r.p99Ms / figures.flush[i]!.p99Ms),
        1,
      )}× the disk flush p99 by itself`,
    ],
    [
      'The floor of a create paced at the same rate, p99 ms',
      fmt(
        figures.floorAtCreateHalfRate.map((r) => r.p99Ms),
        1,
      ),
      `p50 ${fmt(
        figures.floorAtCreateHalfRate.map((r) => r.p50Ms),
        1,
      )}: the latency of a signed, durable create with nothing of the server's own; the create's half-rate p99 is ${fmt(
        figures.halfRateSqlite.map((r, i) => r.p99Ms / figures.floorAtCreateHalfRate[i]!.p99Ms),
        1,
      )}× it`,
    ],
  ];
}

/** Creates on PostgreSQL: one server, and two on one database. */
function postgresRows(figures: Figures): Row[] {
  return [
    [
      'Create on PostgreSQL, req/s',
      fmt(rps(figures.createPg)),
      `ratio to ceiling ${fmt(ratio(figures.createPg, figures.ceiling), 2)}; target ≥ 0.1`,
    ],
    [
      'Create on PostgreSQL, p50 / p99 ms',
      `${fmt(figures.createPg.map((r) => r.p50Ms))} / ${fmt(figures.createPg.map((r) => r.p99Ms))}`,
      '',
    ],
    [
      'Create on PostgreSQL, two servers on one database, req/s (sum)',
      fmt(figures.createPgTwo.map((f) => f.requestsPerSecond)),
      `ratio to ceiling ${fmt(
        figures.createPgTwo.map((f, i) => f.requestsPerSecond / figures.ceiling[i]!.requestsPerSecond),
        2,
      )}; payments stored less 201s counted ${figures.createPgTwo.map((f) => f.storedLess201).join(', ')} (at most the ${CONNECTIONS} in flight when the load stopped); unexpected answers ${figures.createPgTwo.map((f) => f.unexpected).join(', ')}`,
    ],
  ];
}

/** Bulk creates of 100 and of 1 000 entries on SQLite, and their floors. */
function bulkRows(figures: Figures): Row[] {
  return [
    [
      "Floor of a bulk of 100 entries on SQLite (the create's floor with a transfer for each entry), entries/s",
      fmt(figures.floorBulk100.map((r) => r.requestsPerSecond * 100)),
      "what a bulk could reach with none of the server's reading and checking of its entries",
    ],
    [
      'Floor of a bulk of 1 000 entries on SQLite, entries/s',
      fmt(figures.floorBulk1000.map((r) => r.requestsPerSecond * 1000)),
      '',
    ],
    [
      'Bulk of 100 entries on SQLite, entries/s',
      fmt(figures.bulk100.map((r) => r.requestsPerSecond * 100)),
      `${fmt(rps(figures.bulk100))} bulk payments/s; ${fmt(ratio(figures.bulk100, figures.floorBulk100), 2)} of its floor; target ≥ 50 000 entries/s`,
    ],
    [
      'Bulk of 1 000 entries on SQLite, entries/s',
      fmt(figures.bulk1000.map((r) => r.requestsPerSecond * 1000)),
      `${fmt(rps(figures.bulk1000), 1)} bulk payments/s; ${fmt(ratio(figures.bulk1000, figures.floorBulk1000), 2)} of its floor; target ≥ 50 000 entries/s`,
    ],
  ];
}

/** Status reads on SQLite. */
function readRows(figures: Figures): Row[] {
  return [
    [
      'Status read on SQLite, req/s',
      fmt(rps(figures.read)),
      `ratio to ceiling (GET) ${fmt(ratio(figures.read, figures.ceilingRead), 2)}; target ≥ 0.5`,
    ],
    ['Status read, p99 ms', fmt(figures.read.map((r) => r.p99Ms)), ''],
  ];
}

/** The transaction listing, at full load and at half rate, and the ceiling's and the floor's latency at that rate. */
function listingRows(figures: Figures): Row[] {
  return [
    [
      `Listing of ${LISTING_TRANSACTIONS.toLocaleString('en')} transactions, limit 50 at random offsets, req/s`,
      fmt(rps(figures.listing)),
      `p50 ${fmt(figures.listing.map((r) => r.p50Ms))} / p99 ${fmt(figures.listing.map((r) => r.p99Ms))} ms at full load (${CONNECTIONS} connections: the queue)`,
    ],
    [
      'Listing at half the maximum rate, p99 ms',
      fmt(
        figures.listingHalfRate.map((r) => r.p99Ms),
        1,
      ),
      `target < 5; paced at ${fmt(figures.listingHalfRate.map((r) => r.requestsPerSecond))} req/s; p50 ${fmt(
        figures.listingHalfRate.map((r) => r.p50Ms),
        1,
      )}`,
    ],
    [
      "The ceiling (GET) answering a page's size, paced at the same rate, p99 ms",
      fmt(
        figures.ceilingAtListingHalfRate.map((r) => r.p99Ms),
        1,
      ),
      `p50 ${fmt(
        figures.ceilingAtListingHalfRate.map((r) => r.p50Ms),
        1,
      )}; a page is ${fmt(figures.listingPageBytes)} bytes: Node's HTTP and the paced loader alone, at this rate and size`,
    ],
    [
      'The floor of a listing page paced at the same rate, p99 ms',
      fmt(
        figures.floorAtListingHalfRate.map((r) => r.p99Ms),
        1,
      ),
      `p50 ${fmt(
        figures.floorAtListingHalfRate.map((r) => r.p50Ms),
        1,
      )}: bench/floor-server.ts (signature, binding, the account and the page read from the same file, flush, the rows as JSON); the listing's p99 is ${fmt(
        figures.listingHalfRate.map((r, i) => r.p99Ms / figures.floorAtListingHalfRate[i]!.p99Ms),
        1,
      )}× it`,
    ],
  ];
}

/** The batch run and the standing orders executing on one date. */
function batchRows(figures: Figures): Row[] {
  return [
    [
      `Batch run of ${BATCH_PAYMENTS.toLocaleString('en')} authorised payments, s`,
      fmt(
        figures.batch.map((b) => b.seconds),
        1,
      ),
      `${fmt(figures.batch.map((b) => b.paymentsPerSecond))} payments/s; exactly once: ${figures.batch.every((b) => b.exactlyOnce) ? 'yes, every run' : 'NO'}; target < 10 s`,
    ],
    [
      `${STANDING_ORDERS.toLocaleString('en')} standing orders executing on one date, s`,
      fmt(
        figures.periodic.map((p) => p.seconds),
        1,
      ),
      `${fmt(figures.periodic.map((p) => p.executionsPerSecond))} executions/s (the clock move past the date, which runs them); exactly once: ${figures.periodic.every((p) => p.exactlyOnce) ? 'yes, every run' : 'NO'}`,
    ],
  ];
}

/** The server's memory and cold start, and the toolkit's `tpp call`. */
function processRows(figures: Figures): Row[] {
  return [
    ['Peak RSS of the server during the create run, MB', fmt(figures.rssMb), 'target < 200'],
    ['Cold start, existing database, ms', fmt(figures.coldExisting), `each run the median of ${COLD_STARTS} starts`],
    [
      'Cold start, empty database, ms',
      fmt(figures.coldEmpty),
      `target < 350; each run the median of ${COLD_STARTS} starts, each on a new folder; ${fmt(
        figures.coldEmpty.map((ms, i) => ms / figures.coldCeiling[i]!),
        1,
      )} times the start ceiling's`,
    ],
    [
      'Start ceiling: bare Fastify with one route, bundled and started as the server is, ms',
      fmt(figures.coldCeiling),
      `bench/start-ceiling.ts, by turns with the starts above: what a start takes on this machine before any of the server's own code`,
    ],
    [
      '`tpp call GET /v1/sandbox/keys` (the bundled toolkit, a new process), wall ms',
      fmt(figures.tppCall.map((t) => stats(t.wallMs).median)),
      `median of ${TPP_CALLS} calls a run; CPU (user + sys) ${fmt(figures.tppCall.map((t) => t.cpuMs))} ms a call; target < 300 (issue 41 §4)`,
    ],
  ];
}

/** The loads whose answers are counted: each by its name and the start of the measure of its row. */
export function countedLoads(figures: Figures): CountedLoad[] {
  return [
    ['ceiling', 'Ceiling: bare Fastify', figures.ceiling],
    ['ceiling GET', 'Ceiling: bare Fastify', figures.ceilingRead],
    ['ceiling at the create half rate', 'The ceiling paced at the same rate', figures.ceilingAtCreateHalfRate],
    ['ceiling at the listing half rate', "The ceiling (GET) answering a page's size", figures.ceilingAtListingHalfRate],
    ['floor at the create half rate', 'The floor of a create paced', figures.floorAtCreateHalfRate],
    ['floor at the listing half rate', 'The floor of a listing page', figures.floorAtListingHalfRate],
    ['floor create', 'Floor of a create on SQLite', figures.floorCreate],
    ['floor read', 'Floor of a status read', figures.floorRead],
    ['floor create on PostgreSQL', 'Floor of a create on PostgreSQL', figures.floorCreatePg],
    ['create on SQLite', 'Create on SQLite, req/s', figures.createSqlite],
    ['NDCT create on SQLite', 'Single NDCT create', figures.ndctSqlite],
    ['create on PostgreSQL', 'Create on PostgreSQL, req/s', figures.createPg],
    ['status read', 'Status read on SQLite, req/s', figures.read],
    ['status read by turns', 'Status read on SQLite over its floor', figures.byTurnsRead.flatMap((r) => r.slices)],
    ['create by turns', 'Create on SQLite over its floor', figures.byTurnsCreate.flatMap((r) => r.slices)],
    [
      'create on PostgreSQL by turns',
      'Create on PostgreSQL over its floor',
      figures.byTurnsCreatePg.flatMap((r) => r.slices),
    ],
    ['create at half rate', 'Create on SQLite at half', figures.halfRateSqlite],
    ['bulk of 100', 'Bulk of 100 entries', figures.bulk100],
    ['bulk of 1 000', 'Bulk of 1 000 entries', figures.bulk1000],
    ['floor bulk of 100', 'Floor of a bulk of 100 entries', figures.floorBulk100],
    ['floor bulk of 1 000', 'Floor of a bulk of 1 000 entries', figures.floorBulk1000],
    ['listing', 'Listing of', figures.listing],
    ['listing at half rate', 'Listing at half', figures.listingHalfRate],
    ['account list', 'Account information: GET /v1/accounts', figures.ais.map((a) => a.accounts)],
    ['account transactions', 'Account information: a transactions page', figures.ais.map((a) => a.transactions)],
    ['account transactions, 1 000', 'Account information: the same at', figures.ais.map((a) => a.transactionsSmall)],
  ];
}
