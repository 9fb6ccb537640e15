import { rmSync } from 'node:fs';
import { aisRows, measureAisReads } from './ais-reads.js';
import { benchPort } from './bench-server.js';
import { benchTpp } from './requests.js';

/**
 * The account-information rows of `npm run bench` on their own (`npm run build && node
 * dist/bench/ais-run.js`): one run, printed as the table's rows.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const tpp = await benchTpp();
const figures = await measureAisReads(tpp, { seconds: SECONDS, connections: 16, port: benchPort(7) });
const fmt = (values: number[], digits = 0) => values.map((v) => v.toFixed(digits)).join(', ');
for (const row of aisRows([figures], fmt)) process.stdout.write(`| ${row.join(' | ')} |\n`);
process.stdout.write(
  `unexpected answers: ${figures.accounts.unexpected + figures.transactions.unexpected + figures.transactionsSmall.unexpected} ${JSON.stringify([figures.accounts.unexpectedStatuses, figures.transactions.unexpectedStatuses, figures.transactionsSmall.unexpectedStatuses])}\n`,
);
rmSync(tpp.work, { recursive: true, force: true });
