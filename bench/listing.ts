import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BenchServer,
  CEILING_SERVER,
  FLOOR_SERVER,
  SERVER_BUNDLE,
  sqliteSandboxEnv,
  startBenchServer,
} from './bench-server.js';
import { type LoadResult, runLoad } from './load.js';
import { runAtHalfRate } from './paced-load.js';
import { type BenchTpp, listingRequest, pool } from './requests.js';
import { sandboxCall } from './sandbox-call.js';
import { seedAccountTransactions } from './seed-ledger.js';
import { bySize } from './smoke.js';

/** Transactions on the one account the listing reads, and the page it asks for. */
export const LISTING_TRANSACTIONS = bySize(1_000_000, 1_000);
const PAGE = 50;

/** The bench's own customer and account (valid check digits), made through the sandbox API. */
const CUSTOMER = '01018510002';
const BBAN = '96500000004';

/**
 * The sandbox transaction listing, `GET /v1/sandbox/accounts/{id}/transactions?offset=…&limit=50`, at
 * random offsets of one account holding LISTING_TRANSACTIONS transactions, signed like every call.
 * The account is the bench TPP's own (made through the API on a fresh SQLite database); the server
 * is stopped while the transactions are written straight into the file, then started again. One
 * page is checked (200, 50 transactions, the positions asked for) before a 1 s warm-up and the load:
 * at full load with `connections`, then paced at half the rate that reached.
 * Then the two latency floors at that same rate (bench/history.md, "The listing's floor"): the floor
 * server (bench/floor-server.ts) reading the same pages of the same file, and the ceiling's bare
 * route answering a body of the page's size.
 */
export interface ListingFigures {
  saturated: LoadResult;
  halfRate: LoadResult;
  /** bench/floor-server.ts on the same file, paced at the half-rate row's rate. */
  floorHalfRate: LoadResult;
  /** The ceiling's bare GET answering `pageBytes`, paced at the same rate. */
  ceilingHalfRate: LoadResult;
  /** Bytes of a page's answer (50 transactions as JSON). */
  pageBytes: number;
}

export async function measureListing(
  tpp: BenchTpp,
  options: { seconds: number; connections: number; port: number },
): Promise<ListingFigures> {
  const dir = mkdtempSync(join(tpp.work, 'listing-'));
  const file = join(dir, 'psd2.db');
  const start = () => startBenchServer(SERVER_BUNDLE, options.port, sqliteSandboxEnv(dir, tpp.caFile));
  let server: BenchServer | undefined = await start();
  try {
    const accountId = await createAccount(server.url, tpp);
    await server.stop();
    server = undefined;
    const ms = seedAccountTransactions(file, accountId, LISTING_TRANSACTIONS);
    process.stderr.write(`listing: ${LISTING_TRANSACTIONS} transactions seeded in ${(ms / 1000).toFixed(1)} s\n`);
    server = await start();
    const pageBytes = await checkPage(server.url, tpp, accountId);

    const randomPage = () =>
      listingRequest(tpp.credentials, accountId, Math.floor(Math.random() * (LISTING_TRANSACTIONS - PAGE + 1)), PAGE);
    const load = { connections: options.connections, expect: 200 };
    const warmUp = await runLoad(server.url, pool(1000, randomPage), { ...load, seconds: 1 });
    // Enough signed requests that none repeats at the warm-up's rate and a half more.
    const size = Math.max(1000, Math.ceil(warmUp.requestsPerSecond * options.seconds * 1.5));
    const saturated = await runLoad(server.url, pool(size, randomPage), { ...load, seconds: options.seconds });
    // At full load the p99 is the queue of requests in flight; a latency is read at half that rate.
    const halfRate = await runAtHalfRate(server.url, saturated, randomPage, { ...load, seconds: options.seconds });
    await server.stop();
    server = undefined;

    // The floors, paced at the same rate (runAtHalfRate of the same maximum): the floor server after a
    // warm-up at full load as the server had, the ceiling (a bare route) after runAtHalfRate's paced second only.
    const floor = await startBenchServer(FLOOR_SERVER, options.port, {}, [`sqlite:${file}`]);
    let floorHalfRate: LoadResult;
    try {
      await runLoad(floor.url, pool(1000, randomPage), { ...load, seconds: 1 });
      floorHalfRate = await runAtHalfRate(floor.url, saturated, randomPage, { ...load, seconds: options.seconds });
    } finally {
      await floor.stop();
    }
    const ceiling = await startBenchServer(CEILING_SERVER, options.port, {}, ['600', String(pageBytes)], '/');
    try {
      const ceilingHalfRate = await runAtHalfRate(ceiling.url, saturated, randomPage, {
        ...load,
        seconds: options.seconds,
      });
      return { saturated, halfRate, floorHalfRate, ceilingHalfRate, pageBytes };
    } finally {
      await ceiling.stop();
    }
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function createAccount(url: string, tpp: BenchTpp): Promise<string> {
  await sandboxCall(url, tpp.credentials, 'POST', '/v1/sandbox/customers', 201, {
    customerNumber: CUSTOMER,
    name: 'Bench Kunde',
    type: 'private',
  });
  const account = await sandboxCall<{ id: string }>(url, tpp.credentials, 'POST', '/v1/sandbox/accounts', 201, {
    customerNumber: CUSTOMER,
    accountName: 'Brukskonto',
    bban: BBAN,
    currency: 'NOK',
    product: 'Brukskonto',
    cashAccountType: 'CACC',
    creditLine: 0,
    balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount: 10000, currency: 'NOK' } }],
  });
  return account.id;
}

/** A page from the middle: 200, PAGE transactions, and the ones after the offset in posting order (by their remittance, `Faktura <seq>`). Returns the page's size as JSON, in bytes. */
async function checkPage(url: string, tpp: BenchTpp, accountId: string): Promise<number> {
  const offset = LISTING_TRANSACTIONS / 2;
  const path = `/v1/sandbox/accounts/${accountId}/transactions?offset=${offset}&limit=${PAGE}`;
  const page = await sandboxCall<{ remittanceInformationUnstructured: string }[]>(
    url,
    tpp.credentials,
    'GET',
    path,
    200,
  );
  const expected = Array.from({ length: PAGE }, (_, i) => `Faktura ${offset + i + 1}`);
  const got = page.map((t) => t.remittanceInformationUnstructured);
  if (JSON.stringify(got) !== JSON.stringify(expected))
    throw new Error(
      `listing at offset ${offset}: ${page.length} transactions, ${got.slice(0, 3).join(', ')}…; expected ${PAGE} from Faktura ${offset + 1}`,
    );
  return Buffer.byteLength(JSON.stringify(page));
}
