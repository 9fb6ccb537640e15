/**
 * A smoke run of the bench (`npm run bench -- --smoke`, or BENCH_SMOKE=1): every row at its smallest
 * sizes, to show that each still runs and that its checks hold (every answer as expected, the batch
 * and the standing orders booked exactly once), not to measure. Its figures mean nothing.
 * test/bench/smoke.test.ts runs it in the test suite, so the bench cannot break unseen.
 *
 * What changes in a smoke run: one run; paced loads of one second; each closed-loop load sends each of
 * its prepared requests once (load.ts), and no more than SMOKE_POOL are prepared (requests.ts
 * `pool`); the seeded data (transactions, payments, standing orders) and the repeats are small.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1' || process.argv.includes('--smoke');

/**
 * The requests a load prepares ahead in a smoke run: twice the bench's 16 connections, since a load
 * that sends each request once cannot have more connections than requests.
 */
export const SMOKE_POOL = 32;

/** `normal` in a bench run, `smoke` in a smoke run. */
export const bySize = <T>(normal: T, smoke: T): T => (SMOKE ? smoke : normal);
