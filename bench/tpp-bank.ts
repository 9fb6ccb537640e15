import { performance } from 'node:perf_hooks';
import { defaultDataSet } from '../src/sandbox/default-data-set.js';
import type { Store } from '../src/store/store.js';
import { onBothStores } from './on-both-stores.js';

/**
 * The cost of a TPP's sandbox bank (src/services/banks.ts): the time `openBank` takes to make one (a
 * copy of the default data set: 4 customers, 8 accounts, 2 agreements, 4 engagements, the bank's row
 * and its first batch mark, in one transaction), and to find one made already (a TPP's later
 * requests: one primary-key read, once per process). Run: `npm run build && node dist/bench/tpp-bank.js`.
 */
const BANKS = Number(process.env.BENCH_BANKS ?? 200);

async function measure(store: Store): Promise<{ make: number[]; found: number[] }> {
  await store.migrate();
  const make: number[] = [];
  const found: number[] = [];
  for (let i = 0; i < BANKS; i++) {
    const bank = `PSDNO-FSA-BENCH${i}`;
    let start = performance.now();
    if (!(await store.openBank(bank, new Date(), defaultDataSet))) throw new Error(`bank ${bank} existed`);
    make.push(performance.now() - start);
    start = performance.now();
    if (await store.openBank(bank, new Date(), defaultDataSet)) throw new Error(`bank ${bank} made twice`);
    found.push(performance.now() - start);
  }
  return { make, found };
}

function line(engine: string, what: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2);
  return `| ${engine} | ${what} | ${sorted.length} | ${at(0.5)} | ${at(0.95)} | ${sorted.at(-1)!.toFixed(2)} |`;
}

async function main(): Promise<void> {
  const rows = (await onBothStores('bank', measure)).flatMap(({ engine, result }) => [
    line(engine, 'make a bank', result.make),
    line(engine, 'find it made', result.found),
  ]);
  process.stdout.write(
    ['| Engine | Operation | Banks | p50 ms | p95 ms | max ms |', '|---|---|---|---|---|---|', ...rows].join('\n') +
      '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
