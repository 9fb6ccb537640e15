import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { emptyFigures } from './bench-figures.js';
import {
  BATCH_PAYMENTS,
  COLD_STARTS,
  CONNECTIONS,
  NOTIFICATION_BACKLOG,
  NOTIFICATION_CHANGES,
  RUNS,
  SECONDS,
  STANDING_ORDERS,
  TPP_CALLS,
} from './bench-sizes.js';
import {
  type BenchServer,
  CEILING_SERVER,
  FLOOR_SERVER,
  SERVER_BUNDLE,
  benchPort,
  sqliteSandboxEnv,
  startBenchServer,
  medianColdStarts,
} from './bench-server.js';
import { type LoadResult, type PreparedRequest, runLoad } from './load.js';
import { measureBatchRun } from './batch-run.js';
import { byTurns } from './by-turns.js';
import { measureNotificationDelivery } from './notification-delivery.js';
import { measurePeriodicRun } from './periodic-run.js';
import { measureListing } from './listing.js';
import { measureAisReads } from './ais-reads.js';
import { measureFirstBodies } from './first-bodies.js';
import { measureHostileBodies } from './hostile-bodies.js';
import { runAtHalfRate } from './paced-load.js';
import { measureDiskFlush } from './disk-flush.js';
import { benchTpp, bulkRequest, createRequest, createdPaymentId, pool, poolForLoad, readRequest } from './requests.js';
import { measureNdctCreates } from './ndct-creates.js';
import { measureTppCall } from './tpp-call.js';
import { reportResults } from './results-report.js';
import { reportProfiles } from './profiles-report.js';

/**
 * `npm run bench`: the ceiling (bare Fastify), signed creates on SQLite and PostgreSQL (and their
 * latency at half the maximum rate), bulk creates, status reads, the transaction listing at
 * 1 000 000 transactions, account information (the account list, a transactions page at 1 000 000),
 * a batch run of 100 000 payments, cold start, peak memory and the toolkit's `tpp call`, each the
 * median of RUNS runs with min and max; prints one table and writes it to bench/results.md.
 * `--smoke` (or BENCH_SMOKE=1): every row once at its smallest sizes (bench/smoke.ts); prints the
 * table and each row's status, writes nothing, and exits non-zero when a row's check fails.
 *
 * This file runs the measures; bench-sizes.ts sizes them, bench-figures.ts holds what they measured,
 * result-rows.ts makes the table's rows of it and results-report.ts prints and writes the table.
 */
const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The URL of the database `name` on PG_ADMIN's server. */
const databaseUrl = (name: string) => PG_ADMIN.replace(/\/[^/]*$/, `/${name}`);

const { work, caFile, credentials: tpp } = await benchTpp();
const figures = emptyFigures();

const createPoolSize = Number(process.env.BENCH_POOL ?? 12_000);
/** Bulk requests of the warm-up before each bulk load, which sizes that load's pool (poolFor). */
const BULK_WARM_UP_POOL = { 100: 1_000, 1000: 150 } as const;
const poolFor = (warmUpRate: number, least: number) => poolForLoad(warmUpRate, SECONDS, least);
/** A server's creates and its floor's by turns (bench/by-turns.ts), numbered past every other load's on each database. */
const createsByTurns = (server: BenchServer, floor: BenchServer) =>
  byTurns(
    { url: server.url, request: (i) => createRequest(tpp, 80_000_000 + i) },
    { url: floor.url, request: (i) => createRequest(tpp, 80_000_000 + i) },
    201,
  );
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
  /** The floor on SQLite, each time on the same file: started for its rows, again paced, and again by turns. */
  const startFloor = () => startBenchServer(FLOOR_SERVER, benchPort(0), {}, [`sqlite:${join(floorDir, 'floor.db')}`]);
  const floor = await startFloor();
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
  const floorAgain = await startFloor();
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
  const paymentId = await createdPaymentId(sqlite.url, tpp, -1);
  readPools.push(3 * createPool);
  figures.read.push(
    await load(
      sqlite,
      pool(3 * createPool, () => readRequest(tpp, paymentId)),
      200,
    ),
  );
  // The server and its floor by turns, after the rows above, which it leaves as they were: the floor
  // again on its own file; its creates come first, and its reads read the last one created.
  const floorByTurns = await startFloor();
  figures.byTurnsCreate.push(await createsByTurns(sqlite, floorByTurns));
  figures.byTurnsRead.push(
    await byTurns(
      { url: sqlite.url, request: () => readRequest(tpp, paymentId) },
      { url: floorByTurns.url, request: () => readRequest(tpp, 'x') },
      200,
    ),
  );
  await floorByTurns.stop();
  await sqlite.stop();

  const database = `bench_${process.pid}_${run}`;
  const admin = new pg.Client(PG_ADMIN);
  await admin.connect();
  await admin.query(`create database ${database}`);
  try {
    // The floor on a database of its own, so that the server's create row starts on a fresh one as before.
    await admin.query(`create database ${database}_floor`);
    const startPgFloor = () => startBenchServer(FLOOR_SERVER, benchPort(0), {}, [databaseUrl(`${database}_floor`)]);
    const pgFloor = await startPgFloor();
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
      DATABASE_URL: databaseUrl(database),
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
      DATABASE_URL: databaseUrl(database),
    });
    await warmUp(
      second,
      pool(1000, (i) => createRequest(tpp, 2_000_000 + i)),
      201,
    );
    const counter = new pg.Client(databaseUrl(database));
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
    const pgFloorByTurns = await startPgFloor();
    figures.byTurnsCreatePg.push(await createsByTurns(postgres, pgFloorByTurns));
    await pgFloorByTurns.stop();
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
  figures.notifications.push(
    await measureNotificationDelivery(
      { work, caFile, credentials: tpp },
      { backlog: NOTIFICATION_BACKLOG, changes: NOTIFICATION_CHANGES, port: benchPort(4) },
    ),
  );
  figures.ais.push(
    await measureAisReads(
      { work, caFile, credentials: tpp },
      { seconds: SECONDS, connections: CONNECTIONS, port: benchPort(7) },
    ),
  );

  const cold = await medianColdStarts(work, benchPort(5), caFile, COLD_STARTS);
  figures.coldEmpty.push(cold.empty);
  figures.coldExisting.push(cold.existing);
  figures.coldCeiling.push(cold.ceiling);
  figures.tppCall.push(await measureTppCall(mkdtempSync(join(work, 'tpp-call-')), benchPort(5), TPP_CALLS));

  const hostileDir = mkdtempSync(join(work, 'hostile-'));
  const hostile = await startBenchServer(SERVER_BUNDLE, benchPort(6), sqliteSandboxEnv(hostileDir, caFile));
  figures.hostile.push(await measureHostileBodies(hostile.url, tpp, hostile.child.pid));
  await hostile.stop();
  figures.firstBodies.push(await measureFirstBodies(work, caFile, tpp, benchPort(6)));
}

reportResults(figures, {
  createPools,
  readPools,
  floorPools,
  floorReadPools,
  floorPgPools,
  bulkPools,
  floorBulkPools,
  ndctPools,
  createPoolSize,
});
// After the table: profiled, the server is slower, and its figures are not the table's.
await reportProfiles({ work, caFile, credentials: tpp }, benchPort(6));
rmSync(work, { recursive: true, force: true });
