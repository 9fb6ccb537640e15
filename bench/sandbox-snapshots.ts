import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  MAX_SANDBOX_SNAPSHOT_BYTES,
  MAX_SANDBOX_SNAPSHOT_ROWS,
  MAX_SANDBOX_SNAPSHOTS_PER_BANK,
} from '../src/domain/limits.js';
import { defaultDataSet } from '../src/sandbox/default-data-set.js';
import type { NewSandboxTransaction } from '../src/store/sandbox-records.js';
import type { Store } from '../src/store/store.js';
import { onBothStores } from './on-both-stores.js';

/**
 * Sandbox snapshots (docs/sandbox.md, "Snapshots"): the time `Store.saveSnapshot` and
 * `Store.restoreSnapshot` take for a bank of the default data set plus `BENCH_TRANSACTIONS` (10 000)
 * posted transactions, among `BENCH_OTHER_BANKS` (1 000) other banks of the default data set (the
 * predicates of a few tables read past other banks' rows). Run: `npm run build && node
 * dist/bench/sandbox-snapshots.js`.
 */
const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 10_000);
const OTHER_BANKS = Number(process.env.BENCH_OTHER_BANKS ?? 1_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const BANK = 'PSDNO-FSA-SNAPSHOT';
const LIMITS = {
  perBank: MAX_SANDBOX_SNAPSHOTS_PER_BANK,
  rows: MAX_SANDBOX_SNAPSHOT_ROWS,
  bytes: MAX_SANDBOX_SNAPSHOT_BYTES,
};

function posted(i: number): NewSandboxTransaction {
  return {
    id: randomUUID(),
    amountMinor: BigInt(-(1000 + (i % 5000))),
    currency: 'NOK',
    bookingDate: `2026-${String(1 + (i % 10)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
    valueDate: '2026-11-01',
    remittance: `Faktura ${i}`,
    creditorName: 'Sognekraft AS',
    creditorIban: 'NO6290491105991',
    creditorBban: '90491105991',
    debtorName: 'Ola Nordmann',
    debtorIban: 'NO9315061012343',
    debtorBban: '15061012343',
    bankTransactionCode: 'PMNT',
    ultimateDebtor: '',
    ultimateCreditor: '',
    purposeCode: 'OTHR',
  };
}

interface Figures {
  save: number[];
  restore: number[];
  rows: number;
  sizeBytes: number;
}

async function measure(store: Store): Promise<Figures> {
  await store.migrate();
  for (let i = 0; i < OTHER_BANKS; i++) await store.openBank(`PSDNO-FSA-OTHER${i}`, new Date(), defaultDataSet);
  await store.openBank(BANK, new Date(), defaultDataSet);
  const account = (await store.findAccount(BANK, { bban: '15061012343' }))!;
  for (let i = 0; i < TRANSACTIONS; i += 1000)
    await store.addSandboxTransactions(
      account.id,
      Array.from({ length: Math.min(1000, TRANSACTIONS - i) }, (_, j) => posted(i + j)),
      new Date(),
    );
  const figures: Figures = { save: [], restore: [], rows: 0, sizeBytes: 0 };
  for (let run = 0; run < RUNS; run++) {
    let start = performance.now();
    const saved = await store.saveSnapshot(BANK, { id: randomUUID(), name: undefined, createdAt: new Date() }, LIMITS);
    figures.save.push(performance.now() - start);
    if (saved.outcome !== 'saved') throw new Error(`save refused: ${saved.outcome}`);
    figures.rows = saved.snapshot.rowCount;
    figures.sizeBytes = saved.snapshot.sizeBytes;
    start = performance.now();
    const restored = await store.restoreSnapshot(BANK, saved.snapshot.id, new Date());
    figures.restore.push(performance.now() - start);
    if (restored.outcome !== 'restored') throw new Error(`restore refused: ${restored.outcome}`);
    await store.deleteSnapshot(BANK, saved.snapshot.id);
  }
  return figures;
}

function line(engine: string, what: string, times: number[], figures: Figures): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  return `| ${engine} | ${what} | ${figures.rows} | ${(figures.sizeBytes / 1024).toFixed(0)} | ${sorted.length} | ${at(0.5)} | ${at(0.95)} | ${sorted.at(-1)!.toFixed(1)} |`;
}

async function main(): Promise<void> {
  const rows = (await onBothStores('snapshots', measure)).flatMap(({ engine, result }) => [
    line(engine, 'save', result.save, result),
    line(engine, 'restore', result.restore, result),
  ]);
  process.stdout.write(
    [
      `${TRANSACTIONS} transactions on the default data set, among ${OTHER_BANKS} other banks`,
      '| Engine | Operation | Rows | Stored KiB | Runs | p50 ms | p95 ms | max ms |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n') + '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
