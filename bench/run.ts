import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  type BenchServer,
  CEILING_SERVER,
  FLOOR_SERVER,
  SERVER_BUNDLE,
  benchPort,
  sqliteSandboxEnv,
  startBenchServer,
  timeColdStart,
} from './bench-server.js';
import { type LoadResult, type PreparedRequest, runLoad } from './load.js';
import { measureBatchRun, type BatchRunFigures } from './batch-run.js';
import { measurePeriodicRun, type PeriodicRunFigures } from './periodic-run.js';
import { LISTING_TRANSACTIONS, measureListing } from './listing.js';
import { type AisFigures, aisRows, measureAisReads } from './ais-reads.js';
import {
  type FirstBodies,
  type HostileFigures,
  firstBodiesRow,
  hostileRows,
  measureFirstBodies,
  measureHostileBodies,
} from './hostile-bodies.js';
import { runAtHalfRate } from './paced-load.js';
import { measureDiskFlush } from './disk-flush.js';
import { CREATE_PATH, benchTpp, bulkRequest, createRequest, pool, readRequest } from './requests.js';
import { measureNdctCreates, ndctRow } from './ndct-creates.js';
import { type TppCallFigures, measureTppCall } from './tpp-call.js';
import { SMOKE, SMOKE_POOL, bySize } from './smoke.js';

/**
 * `npm run bench`: the ceiling (bare Fastify), signed creates on SQLite and PostgreSQL (and their
 * latency at half the maximum rate), bulk creates, status reads, the transaction listing at
 * 1 000 000 transactions, account information (the account list, a transactions page at 1 000 000),
 * a batch run of 100 000 payments, cold start, peak memory and the toolkit's `tpp call`, each the
 * median of RUNS runs with min and max; prints one table and writes it to bench/results.md.
 * `--smoke` (or BENCH_SMOKE=1): every row once at its smallest sizes (bench/smoke.ts); prints the
 * table and each row's status, writes nothing, and exits non-zero when a row's check fails.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? bySize(3, 1));
const SECONDS = Number(process.env.BENCH_SECONDS ?? bySize(5, 1));
const CONNECTIONS = 16;
/** Authorised payments executed by the measured batch run. */
const BATCH_PAYMENTS = Number(process.env.BENCH_BATCH_PAYMENTS ?? bySize(100_000, 200));
/** Standing orders executing on one date (rule 6: not in the batch runs). */
const STANDING_ORDERS = Number(process.env.BENCH_STANDING_ORDERS ?? bySize(10_000, 200));
/** `tpp call`s timed in a run. */
const TPP_CALLS = bySize(10, 2);
const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const { work, caFile, credentials: tpp } = await benchTpp();

interface Figures {
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
  read: LoadResult[];
  ceilingRead: LoadResult[];
  rssMb: number[];
  coldEmpty: number[];
  coldExisting: number[];
  /** `tpp call` (bench/tpp-call.ts), 10 calls a run. */
  tppCall: TppCallFigures[];
  hostile: HostileFigures[][];
  firstBodies: FirstBodies[];
  ais: AisFigures[];
}
const figures: Figures = {
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
  read: [],
  ceilingRead: [],
  rssMb: [],
  coldEmpty: [],
  coldExisting: [],
  tppCall: [],
  hostile: [],
  firstBodies: [],
  ais: [],
};

const createPoolSize = Number(process.env.BENCH_POOL ?? 12_000);
/** Bulk requests of the warm-up before each bulk load, which sizes that load's pool (poolFor). */
const BULK_WARM_UP_POOL = { 100: 1_000, 1000: 150 } as const;
/**
 * Requests for a load of SECONDS at up to twice the warm-up's rate (the warm-up's second runs code
 * not yet optimised, and the load went up to 1.7 times as fast), and never fewer than `least`: a
 * request sent twice is a retry, answered from what was stored, and would inflate the figure (on a
 * VM twice as fast, a fixed pool of 1 500 bulks ran out at 521 bulks/s).
 */
const poolFor = (warmUpRate: number, least: number) => Math.max(least, Math.ceil(warmUpRate * SECONDS * 2));
/** The pools each run's loads drew from, to tell whether one ran out. */
const createPools: number[] = [];
const readPools: number[] = [];
const floorPools: number[] = [];
const floorReadPools: number[] = [];
const floorPgPools: number[] = [];
const bulkPools = { 100: [] as number[], 1000: [] as number[] };
const floorBulkPools = { 100: [] as number[], 1000: [] as number[] };
const ndctPools: number[] = [];
const load = (server: BenchServer, requests: PreparedRequest[], expect: number, rate?: number) =>
  runLoad(server.url, requests, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    expect,
    ...(rate === undefined ? {} : { rate }),
  });
const warmUp = (server: BenchServer, requests: PreparedRequest[], expect: number) =>
  runLoad(server.url, requests, { connections: CONNECTIONS, seconds: 1, expect });
/** A warm-up of bulk creates of `entries`, then the load, from a pool sized by the warm-up's rate (recorded in `pools`); `first` numbers the requests. */
async function loadBulks(
  server: BenchServer,
  entries: 100 | 1000,
  pools: Record<100 | 1000, number[]>,
  first: number,
): Promise<LoadResult> {
  const bulkWarmUp = await warmUp(
    server,
    pool(BULK_WARM_UP_POOL[entries], (i) => bulkRequest(tpp, first + 10_000_000 + i, entries)),
    201,
  );
  const bulkPool = poolFor(bulkWarmUp.requestsPerSecond, BULK_WARM_UP_POOL[entries]);
  pools[entries].push(bulkPool);
  return load(
    server,
    pool(bulkPool, (i) => bulkRequest(tpp, first + i, entries)),
    201,
  );
}

for (let run = 0; run < RUNS; run++) {
  process.stderr.write(`run ${run + 1} of ${RUNS}\n`);
  const ceiling = await startBenchServer(CEILING_SERVER, benchPort(1), {}, ['600'], '/');
  const ceilingPool = pool(1000, (i) => createRequest(tpp, i));
  await warmUp(ceiling, ceilingPool, 201);
  figures.ceiling.push(await load(ceiling, ceilingPool, 201));
  const ceilingReadPool = pool(1000, () => readRequest(tpp, 'x'));
  figures.ceilingRead.push(await load(ceiling, ceilingReadPool, 200));
  // The ceiling stays up, idle, for the latency floors below: paced at the rates the half-rate rows
  // are paced at. A bare route answers a request sent twice the same way: its pools may repeat.
  const ceilingPacedAt = (rate: number, requests: PreparedRequest[], expect: number) =>
    runAtHalfRate(ceiling.url, { requestsPerSecond: rate * 2 } as LoadResult, (i) => requests[i % requests.length]!, {
      seconds: SECONDS,
      connections: CONNECTIONS,
      expect,
    });

  const floorDir = mkdtempSync(join(work, 'floor-'));
  const floor = await startBenchServer(FLOOR_SERVER, benchPort(0), {}, [`sqlite:${join(floorDir, 'floor.db')}`]);
  const floorWarmUp = await warmUp(
    floor,
    pool(2000, (i) => createRequest(tpp, 20_000_000 + i)),
    201,
  );
  const floorPool = poolFor(floorWarmUp.requestsPerSecond, createPoolSize);
  floorPools.push(floorPool);
  figures.floorCreate.push(
    await load(
      floor,
      pool(floorPool, (i) => createRequest(tpp, 30_000_000 + i)),
      201,
    ),
  );
  floorReadPools.push(3 * floorPool);
  figures.floorRead.push(
    await load(
      floor,
      pool(3 * floorPool, () => readRequest(tpp, 'x')),
      200,
    ),
  );
  for (const entries of [100, 1000] as const)
    figures[`floorBulk${entries}`].push(await loadBulks(floor, entries, floorBulkPools, 20_000_000));
  await floor.stop();

  const dir = mkdtempSync(join(work, 'sqlite-'));
  figures.flush.push(measureDiskFlush(dir));
  const sqlite = await startBenchServer(SERVER_BUNDLE, benchPort(2), sqliteSandboxEnv(dir, caFile));
  const createWarmUp = await warmUp(
    sqlite,
    pool(2000, (i) => createRequest(tpp, 10_000_000 + i)),
    201,
  );
  const createPool = poolFor(createWarmUp.requestsPerSecond, createPoolSize);
  createPools.push(createPool);
  const created = await load(
    sqlite,
    pool(createPool, (i) => createRequest(tpp, i)),
    201,
  );
  figures.createSqlite.push(created);
  figures.rssMb.push(sqlite.peakRssMb());
  figures.halfRateSqlite.push(
    await runAtHalfRate(sqlite.url, created, (i) => createRequest(tpp, i), {
      seconds: SECONDS,
      connections: CONNECTIONS,
      expect: 201,
    }),
  );
  figures.ceilingAtCreateHalfRate.push(
    await ceilingPacedAt(figures.halfRateSqlite.at(-1)!.requestsPerSecond, ceilingPool, 201),
  );
  // The floor again, on its own file, paced at the same rate as the half-rate row (the same maximum
  // halved), with requests of its own: it answers a request sent twice with 500. The server waits,
  // idle, so that its later rows run in the process they always ran in.
  const floorAgain = await startBenchServer(FLOOR_SERVER, benchPort(0), {}, [`sqlite:${join(floorDir, 'floor.db')}`]);
  await warmUp(
    floorAgain,
    pool(2000, (i) => createRequest(tpp, 60_000_000 + i)),
    201,
  );
  figures.floorAtCreateHalfRate.push(
    await runAtHalfRate(floorAgain.url, created, (i) => createRequest(tpp, 70_000_000 + i), {
      seconds: SECONDS,
      connections: CONNECTIONS,
      expect: 201,
    }),
  );
  await floorAgain.stop();
  for (const entries of [100, 1000] as const)
    figures[`bulk${entries}`].push(await loadBulks(sqlite, entries, bulkPools, 0));
  const ndct = await measureNdctCreates(sqlite, tpp, { seconds: SECONDS, connections: CONNECTIONS, least: 2000 });
  figures.ndctSqlite.push(ndct.result);
  ndctPools.push(ndct.pool);
  const one = createRequest(tpp, -1);
  const first = await fetch(`${sqlite.url}${CREATE_PATH}`, {
    method: one.method,
    headers: one.headers,
    body: one.body!,
  });
  if (first.status !== 201) throw new Error(`the payment to read answered ${first.status}: ${await first.text()}`);
  const paymentId = ((await first.json()) as { paymentId: string }).paymentId;
  readPools.push(3 * createPool);
  figures.read.push(
    await load(
      sqlite,
      pool(3 * createPool, () => readRequest(tpp, paymentId)),
      200,
    ),
  );
  await sqlite.stop();

  const database = `bench_${process.pid}_${run}`;
  const admin = new pg.Client(PG_ADMIN);
  await admin.connect();
  await admin.query(`create database ${database}`);
  try {
    // The floor on a database of its own, so that the server's create row starts on a fresh one as before.
    await admin.query(`create database ${database}_floor`);
    const pgFloor = await startBenchServer(FLOOR_SERVER, benchPort(0), {}, [
      PG_ADMIN.replace(/\/[^/]*$/, `/${database}_floor`),
    ]);
    const pgFloorWarmUp = await warmUp(
      pgFloor,
      pool(2000, (i) => createRequest(tpp, 40_000_000 + i)),
      201,
    );
    // Sized by its warm-up like the SQLite floor's: a fixed pool ran out at 2 700 creates/s, and the
    // floor answers a request sent twice with 500 (it stores no answer to replay).
    const pgFloorPool = poolFor(pgFloorWarmUp.requestsPerSecond, createPoolSize);
    floorPgPools.push(pgFloorPool);
    figures.floorCreatePg.push(
      await load(
        pgFloor,
        pool(pgFloorPool, (i) => createRequest(tpp, 50_000_000 + i)),
        201,
      ),
    );
    await pgFloor.stop();
    const pgDir = mkdtempSync(join(work, 'pg-'));
    const postgres = await startBenchServer(SERVER_BUNDLE, benchPort(3), {
      ...sqliteSandboxEnv(pgDir, caFile),
      DATABASE_URL: PG_ADMIN.replace(/\/[^/]*$/, `/${database}`),
    });
    await warmUp(
      postgres,
      pool(2000, (i) => createRequest(tpp, i)),
      201,
    );
    figures.createPg.push(
      await load(
        postgres,
        pool(createPoolSize, (i) => createRequest(tpp, i)),
        201,
      ),
    );
    // A second server on the same database (and the same data folder, for the instances' shared key
    // of national identity numbers): both loaded at once, half the connections each.
    const second = await startBenchServer(SERVER_BUNDLE, benchPort(8), {
      ...sqliteSandboxEnv(pgDir, caFile),
      DATABASE_URL: PG_ADMIN.replace(/\/[^/]*$/, `/${database}`),
    });
    await warmUp(
      second,
      pool(1000, (i) => createRequest(tpp, 2_000_000 + i)),
      201,
    );
    const counter = new pg.Client(PG_ADMIN.replace(/\/[^/]*$/, `/${database}`));
    await counter.connect();
    const count = async () => Number((await counter.query('select count(*) as n from payments')).rows[0].n);
    // Requests whose connection the load generator closed at the end of a load are still committed by
    // the server: read the count once it has stopped moving, or the warm-up's last requests would be
    // counted as stored without an answer.
    const settledCount = async (): Promise<number> => {
      for (let last = await count(); ;) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const now = await count();
        if (now === last) return now;
        last = now;
      }
    };
    const before = await settledCount();
    const both = await Promise.all([
      runLoad(
        postgres.url,
        pool(createPoolSize / 2, (i) => createRequest(tpp, 3_000_000 + i)),
        { connections: CONNECTIONS / 2, seconds: SECONDS, expect: 201 },
      ),
      runLoad(
        second.url,
        pool(createPoolSize / 2, (i) => createRequest(tpp, 4_000_000 + i)),
        { connections: CONNECTIONS / 2, seconds: SECONDS, expect: 201 },
      ),
    ]);
    const after = await settledCount();
    await counter.end();
    figures.createPgTwo.push({
      requestsPerSecond: both[0].requestsPerSecond + both[1].requestsPerSecond,
      storedLess201: after - before - both[0].expected - both[1].expected,
      unexpected: both[0].unexpected + both[1].unexpected,
    });
    await second.stop();
    await postgres.stop();
  } finally {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`drop database if exists ${database}_floor with (force)`);
    await admin.end();
  }

  const listing = await measureListing(
    { work, caFile, credentials: tpp },
    { seconds: SECONDS, connections: CONNECTIONS, port: benchPort(4) },
  );
  figures.listing.push(listing.saturated);
  figures.listingHalfRate.push(listing.halfRate);
  figures.ceilingAtListingHalfRate.push(listing.ceilingHalfRate);
  figures.floorAtListingHalfRate.push(listing.floorHalfRate);
  figures.listingPageBytes.push(listing.pageBytes);
  await ceiling.stop();
  figures.batch.push(
    await measureBatchRun({ work, caFile, credentials: tpp }, { payments: BATCH_PAYMENTS, port: benchPort(4) }),
  );
  figures.periodic.push(
    await measurePeriodicRun({ work, caFile, credentials: tpp }, { orders: STANDING_ORDERS, port: benchPort(4) }),
  );
  figures.ais.push(
    await measureAisReads(
      { work, caFile, credentials: tpp },
      { seconds: SECONDS, connections: CONNECTIONS, port: benchPort(7) },
    ),
  );

  const coldDir = mkdtempSync(join(work, 'cold-'));
  figures.coldEmpty.push((await timeColdStart(coldDir, benchPort(5), caFile)).ms);
  figures.coldExisting.push((await timeColdStart(coldDir, benchPort(5), caFile)).ms);
  figures.tppCall.push(await measureTppCall(mkdtempSync(join(work, 'tpp-call-')), benchPort(5), TPP_CALLS));

  const hostileDir = mkdtempSync(join(work, 'hostile-'));
  const hostile = await startBenchServer(SERVER_BUNDLE, benchPort(6), sqliteSandboxEnv(hostileDir, caFile));
  figures.hostile.push(await measureHostileBodies(hostile.url, tpp, hostile.child.pid));
  await hostile.stop();
  figures.firstBodies.push(await measureFirstBodies(work, caFile, tpp, benchPort(6)));
}

// ---- The table ----

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
type CountedLoad = [name: string, row: string, results: LoadResult[]];
/** The answers other than the expected status, in all, and by the load that had them: a figure that counts errors is no figure. */
const unexpected = (loads: CountedLoad[]) => {
  const all = loads.flatMap(([, , results]) => results);
  const byLoad = loads
    .filter(([, , results]) => results.some((r) => r.unexpected > 0))
    .map(([name, , results]) => `${name}: ${JSON.stringify(results.map((r) => r.unexpectedStatuses))}`);
  return `${all.reduce((sum, r) => sum + r.unexpected, 0)}${byLoad.length === 0 ? '' : ` (${byLoad.join('; ')})`}`;
};
const overflow = (results: LoadResult[], sizes: number[]) => results.some((r, run) => r.sent > sizes[run]!);

const rows: [string, string, string][] = [
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
  ndctRow(figures.ndctSqlite, fmt),
  [
    'Status read on SQLite, req/s',
    fmt(rps(figures.read)),
    `ratio to ceiling (GET) ${fmt(ratio(figures.read, figures.ceilingRead), 2)}; target ≥ 0.5`,
  ],
  ['Status read, p99 ms', fmt(figures.read.map((r) => r.p99Ms)), ''],
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
  ['Peak RSS of the server during the create run, MB', fmt(figures.rssMb), 'target < 200'],
  ['Cold start, existing database, ms', fmt(figures.coldExisting), ''],
  ['Cold start, empty database, ms', fmt(figures.coldEmpty), 'target < 350'],
  [
    '`tpp call GET /v1/sandbox/keys` (the bundled toolkit, a new process), wall ms',
    fmt(figures.tppCall.map((t) => stats(t.wallMs).median)),
    `median of ${TPP_CALLS} calls a run; CPU (user + sys) ${fmt(figures.tppCall.map((t) => t.cpuMs))} ms a call; target < 300 (issue 41 §4)`,
  ],
  ...aisRows(figures.ais, fmt),
  ...hostileRows(figures.hostile, fmt),
  firstBodiesRow(figures.firstBodies, fmt),
];
const counted: CountedLoad[] = [
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
  ['status read', 'Status read on SQLite', figures.read],
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
const poolRanOut =
  overflow(figures.createSqlite, createPools) ||
  overflow(figures.ndctSqlite, ndctPools) ||
  overflow(figures.floorCreate, floorPools) ||
  overflow(figures.floorRead, floorReadPools) ||
  overflow(figures.floorCreatePg, floorPgPools) ||
  overflow(
    figures.createPg,
    figures.createPg.map(() => createPoolSize),
  ) ||
  overflow(figures.read, readPools) ||
  overflow(figures.bulk100, bulkPools[100]) ||
  overflow(figures.bulk1000, bulkPools[1000]) ||
  overflow(figures.floorBulk100, floorBulkPools[100]) ||
  overflow(figures.floorBulk1000, floorBulkPools[1000]);
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const header = [
  `Date: ${new Date().toISOString()}; CPU: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}; Node ${process.version}; commit ${commit}.`,
  SMOKE
    ? `A smoke run: ${RUNS} run; each load sends its ${SMOKE_POOL} prepared requests once, a paced load lasts ${SECONDS} s; ${CONNECTIONS} connections from a second process on loopback.`
    : `${RUNS} runs; each load ${SECONDS} s after a 1 s warm-up, ${CONNECTIONS} connections from a second process on loopback; median (min – max).`,
  `Answers other than the expected status in all runs: ${unexpected(counted)}${
    poolRanOut ? '; WARNING: a request pool ran out and requests were repeated' : ''
  }.`,
];
const table = [
  '| Measure | Median (min – max) | Note |',
  '|---|---|---|',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');
const text = `# Benchmark results\n\n${header.join('\n')}\n\n${table}\n`;
process.stdout.write(`${text}\n`);
if (SMOKE) process.exitCode = smokeVerdict();
else writeFileSync('bench/results.md', text);
rmSync(work, { recursive: true, force: true });

/**
 * A smoke run's verdict: each row's status, printed, and 1 when a row failed. A row fails when its
 * figure is not a number, or when a check of its own does: an answer other than the expected status
 * in its loads, a batch or standing orders not booked exactly once, payments stored by two servers
 * that the 201s do not account for, a hostile body not refused. A row that throws ends the run before
 * this, with its error and a non-zero exit.
 */
function smokeVerdict(): number {
  const wrong: [row: string, problem: string][] = [
    ...counted
      .filter(([, , results]) => results.some((r) => r.unexpected > 0))
      .map(([name, row, results]): [string, string] => [
        row,
        `answers other than the expected status (${name}): ${JSON.stringify(results.map((r) => r.unexpectedStatuses))}`,
      ]),
    ...figures.createPgTwo
      .filter((f) => f.unexpected > 0 || f.storedLess201 < 0 || f.storedLess201 > CONNECTIONS)
      .map((f): [string, string] => [
        'Create on PostgreSQL, two servers',
        `payments stored less 201s ${f.storedLess201}, unexpected answers ${f.unexpected}`,
      ]),
    ...(figures.batch.every((b) => b.exactlyOnce)
      ? []
      : [['Batch run of', 'exactly once: NO (what is wrong is on stderr)'] as [string, string]]),
    ...(figures.periodic.every((p) => p.exactlyOnce)
      ? []
      : [['standing orders executing', 'exactly once: NO (what is wrong is on stderr)'] as [string, string]]),
    ...figures.hostile
      .flat()
      .filter((h) => Object.keys(h.unexpected).length > 0)
      .map((h): [string, string] => [`Hostile body, ${h.route}:`, `not refused: ${JSON.stringify(h.unexpected)}`]),
    ...(poolRanOut ? [['', 'a request pool ran out and requests were repeated'] as [string, string]] : []),
  ];
  const lines: string[] = [];
  let failed = 0;
  for (const [measure, figure] of rows) {
    const problems = wrong.filter(([row]) => row !== '' && measure.startsWith(row)).map(([, problem]) => problem);
    if (/NaN|Infinity/.test(figure)) problems.unshift(`its figure is not a number: ${figure}`);
    if (problems.length > 0) failed += 1;
    lines.push(
      `${problems.length === 0 ? 'ok  ' : 'FAIL'}  ${measure}${problems.length === 0 ? '' : `: ${problems.join('; ')}`}`,
    );
  }
  // A problem no row claims (the row renamed, or none of its own) still fails the run.
  const unclaimed = wrong.filter(([row]) => row === '' || !rows.some(([measure]) => measure.startsWith(row)));
  for (const [, problem] of unclaimed) lines.push(`FAIL  (the run): ${problem}`);
  failed += unclaimed.length;
  process.stdout.write(
    `Smoke run: every row once at its smallest sizes; the figures mean nothing.\n${lines.join('\n')}\nsmoke: ${rows.length} rows, ${failed} failed\n`,
  );
  return failed === 0 ? 0 : 1;
}
