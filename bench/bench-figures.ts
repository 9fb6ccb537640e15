import type { AisFigures } from './ais-reads.js';
import type { BatchRunFigures } from './batch-run.js';
import type { ByTurns } from './by-turns.js';
import type { FirstBodies } from './first-bodies.js';
import type { HostileFigures } from './hostile-bodies.js';
import type { LoadResult } from './load.js';
import type { NotificationFigures } from './notification-delivery.js';
import type { PeriodicRunFigures } from './periodic-run.js';
import type { TppCallFigures } from './tpp-call.js';

/** What each run of the bench (bench/run.ts) measured, one entry a run, from which the table's rows are made. */
export interface Figures {
  ceiling: LoadResult[];
  /** The ceiling paced at the rate of the create's half-rate row: the latency floor of Node's HTTP here. */
  ceilingAtCreateHalfRate: LoadResult[];
  /** The ceiling's GET answering a body of the listing page's size, paced at the listing's half-rate row's rate. */
  ceilingAtListingHalfRate: LoadResult[];
  /** bench/floor-server.ts paced at the rate of the create's and the listing's half-rate rows: the latency floors of those rows. */
  floorAtCreateHalfRate: LoadResult[];
  floorAtListingHalfRate: LoadResult[];
  /** Bytes of a listing page's answer. */
  listingPageBytes: number[];
  /** bench/floor-server.ts on SQLite: creates, then status reads; and creates on PostgreSQL. */
  floorCreate: LoadResult[];
  floorRead: LoadResult[];
  floorCreatePg: LoadResult[];
  /** bench/floor-server.ts on SQLite: bulk creates of 100 and of 1 000 entries. */
  floorBulk100: LoadResult[];
  floorBulk1000: LoadResult[];
  createSqlite: LoadResult[];
  /** Single domestic credit transfers (NDCT) created on SQLite. */
  ndctSqlite: LoadResult[];
  createPg: LoadResult[];
  /** Two servers on one PostgreSQL database, loaded at once: their sum, and payments stored less 201s counted. */
  createPgTwo: { requestsPerSecond: number; storedLess201: number; unexpected: number }[];
  flush: { p50Ms: number; p99Ms: number }[];
  halfRateSqlite: LoadResult[];
  bulk100: LoadResult[];
  bulk1000: LoadResult[];
  listing: LoadResult[];
  listingHalfRate: LoadResult[];
  batch: BatchRunFigures[];
  periodic: PeriodicRunFigures[];
  /** Notifications to a local receiver (bench/notification-delivery.ts). */
  notifications: NotificationFigures[];
  read: LoadResult[];
  ceilingRead: LoadResult[];
  /** The server and its floor by turns (bench/by-turns.ts): status reads and creates on SQLite, creates on PostgreSQL. */
  byTurnsRead: ByTurns[];
  byTurnsCreate: ByTurns[];
  byTurnsCreatePg: ByTurns[];
  rssMb: number[];
  coldEmpty: number[];
  coldExisting: number[];
  /** The start ceiling's cold start (bench/start-ceiling.ts), by turns with the server's. */
  coldCeiling: number[];
  /** `tpp call` (bench/tpp-call.ts), 10 calls a run. */
  tppCall: TppCallFigures[];
  hostile: HostileFigures[][];
  firstBodies: FirstBodies[];
  ais: AisFigures[];
}

export function emptyFigures(): Figures {
  return {
    ceiling: [],
    ceilingAtCreateHalfRate: [],
    ceilingAtListingHalfRate: [],
    floorAtCreateHalfRate: [],
    floorAtListingHalfRate: [],
    listingPageBytes: [],
    floorCreate: [],
    floorRead: [],
    floorCreatePg: [],
    floorBulk100: [],
    floorBulk1000: [],
    createSqlite: [],
    ndctSqlite: [],
    createPg: [],
    createPgTwo: [],
    flush: [],
    halfRateSqlite: [],
    bulk100: [],
    bulk1000: [],
    listing: [],
    listingHalfRate: [],
    batch: [],
    periodic: [],
    notifications: [],
    read: [],
    ceilingRead: [],
    byTurnsRead: [],
    byTurnsCreate: [],
    byTurnsCreatePg: [],
    rssMb: [],
    coldEmpty: [],
    coldExisting: [],
    coldCeiling: [],
    tppCall: [],
    hostile: [],
    firstBodies: [],
    ais: [],
  };
}

/** The size of each pool the runs' loads drew from, one a run, to tell whether one ran out. */
export interface Pools {
  createPools: number[];
  readPools: number[];
  floorPools: number[];
  floorReadPools: number[];
  floorPgPools: number[];
  bulkPools: Record<100 | 1000, number[]>;
  floorBulkPools: Record<100 | 1000, number[]>;
  ndctPools: number[];
  /** The pool of the create on PostgreSQL, the same every run. */
  createPoolSize: number;
}
