import { bySize } from './smoke.js';

/** The sizes of a bench run (bench/run.ts), the smoke run's smallest ones in a smoke run (bench/smoke.ts). */
export const RUNS = Number(process.env.BENCH_RUNS ?? bySize(3, 1));
export const SECONDS = Number(process.env.BENCH_SECONDS ?? bySize(5, 1));
export const CONNECTIONS = 16;
/** Authorised payments executed by the measured batch run. */
export const BATCH_PAYMENTS = Number(process.env.BENCH_BATCH_PAYMENTS ?? bySize(100_000, 200));
/** Standing orders executing on one date (rule 6: not in the batch runs). */
export const STANDING_ORDERS = Number(process.env.BENCH_STANDING_ORDERS ?? bySize(10_000, 200));
/** Notifications waiting when the server starts, drained to a local receiver; then status changes made one at a time. */
export const NOTIFICATION_BACKLOG = Number(process.env.BENCH_NOTIFICATION_BACKLOG ?? bySize(20_000, 200));
export const NOTIFICATION_CHANGES = Number(process.env.BENCH_NOTIFICATION_CHANGES ?? bySize(500, 20));
/** `tpp call`s timed in a run. */
export const TPP_CALLS = bySize(10, 2);
/** Starts of each kind a run times, its figure their median: one start alone varied by a third between runs (bench/history.md). */
export const COLD_STARTS = bySize(5, 1);
/** Slices a side of a by-turns row gets (bench/by-turns.ts), and each one's length, s: eight slices of a second a row, the server's and its floor's alternating. */
export const BY_TURNS_SLICES = bySize(4, 1);
export const BY_TURNS_SLICE_SECONDS = 1;
