import type { CertificateAndKey } from '../src/toolkit/certificate-factory.js';
import type { BenchServer } from './bench-server.js';
import { type LoadResult, runLoad } from './load.js';
import { ndctRequest, pool, poolForLoad } from './requests.js';

/**
 * Single domestic credit transfers (NDCT, with a KID) created on a server: the most common payment
 * in Norway, and the first call of a real client's payment flow. A warm-up of a second sizes the
 * pool so that no request is sent twice (a retry would be answered from what was stored).
 */
export async function measureNdctCreates(
  server: BenchServer,
  tpp: CertificateAndKey,
  options: { seconds: number; connections: number; least: number },
): Promise<{ result: LoadResult; pool: number }> {
  const warm = await runLoad(
    server.url,
    pool(2000, (i) => ndctRequest(tpp, 80_000_000 + i)),
    { connections: options.connections, seconds: 1, expect: 201 },
  );
  const size = poolForLoad(warm.requestsPerSecond, options.seconds, options.least);
  const result = await runLoad(
    server.url,
    pool(size, (i) => ndctRequest(tpp, 90_000_000 + i)),
    { connections: options.connections, seconds: options.seconds, expect: 201 },
  );
  return { result, pool: size };
}

/** The table's row for NDCT creates. */
export function ndctRow(
  results: LoadResult[],
  fmt: (values: number[], digits?: number) => string,
): [string, string, string] {
  return [
    'Single NDCT create (KID) on SQLite, req/s',
    fmt(results.map((r) => r.requestsPerSecond)),
    `p50 ${fmt(results.map((r) => r.p50Ms))} / p99 ${fmt(results.map((r) => r.p99Ms))} ms at full load`,
  ];
}
