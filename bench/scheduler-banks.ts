import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../src/domain/reference-rates.js';
import { defaultDataSet } from '../src/sandbox/default-data-set.js';
import { BatchRunner } from '../src/services/batch-runner.js';
import { Banks } from '../src/services/banks.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { newPayment, requestFor } from '../test/support/new-payment.js';

/**
 * The scheduler with many sandbox banks (issue 31, point 2): 10 000 banks with nothing due and
 * BENCH_BUSY banks with a payment each waiting for the 09:00 run. Prints how long the catch-up and the
 * next-wake computation take, the banks visited, and the longest the event loop went without a turn
 * while they ran: the most a /health request arriving then would wait. Run:
 * `npm run build && node dist/bench/scheduler-banks.js`.
 */
const IDLE = Number(process.env.BENCH_BANKS ?? 10_000);
const BUSY = Number(process.env.BENCH_BUSY ?? 100);
const MADE = new Date('2026-11-20T07:00:00.000Z');
const NOW = new Date('2026-11-20T11:30:00.000Z');

const dir = mkdtempSync(join(tmpdir(), 'psd2-bench-scheduler-'));
try {
  const file = join(dir, 'bench.db');
  const store = SqliteStore.open(file);
  await store.migrate();
  const db = new Database(file);
  db.prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${IDLE})
     insert into banks (bank, clock_offset_ms, created_at, updated_at, used_at)
     select printf('IDLE-%06d', i), 0, ?, ?, ? from n`,
  ).run(MADE.toISOString(), MADE.toISOString(), MADE.toISOString());
  db.close();
  for (let i = 0; i < BUSY; i++) {
    const bank = `BUSY-${i}`;
    await store.openBank(bank, MADE, (at) => ({ ...defaultDataSet(at), standingOrders: [] }));
    const payment = newPayment({ tppId: bank, debtor: { bban: '15061012351', iban: undefined, currency: 'NOK' } });
    await store.createPayment(payment, requestFor(payment), { duplicatesSince: null, bank });
    await store.decidePayments([{ paymentId: payment.id, status: 'ACTC', reason: undefined }], undefined, MADE);
  }
  const runner = new BatchRunner(
    store,
    new Banks(store, 'sandbox', { now: () => NOW }),
    new ReferenceRates(SANDBOX_REFERENCE_RATES),
  );

  let longest = 0;
  let last = performance.now();
  let going = true;
  const probe = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (going) setImmediate(probe);
  };
  setImmediate(probe);
  const started = performance.now();
  const results = await runner.catchUp();
  const caughtUp = performance.now();
  await runner.untilNextSlotMs();
  const woken = performance.now();
  going = false;
  const executed = results.reduce((n, r) => n + r.executed, 0);
  console.log(`| banks | with work | catch-up ms | next wake ms | payments executed | longest without a turn, ms |`);
  console.log(`|---|---|---|---|---|---|`);
  console.log(
    `| ${IDLE + BUSY} | ${BUSY} | ${(caughtUp - started).toFixed(1)} | ${(woken - caughtUp).toFixed(1)} | ${executed} | ${longest.toFixed(1)} |`,
  );
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
