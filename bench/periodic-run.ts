import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { addDays, osloDate } from '../src/domain/clock.js';
import { bankDayFrom } from '../src/domain/periodic/bank-days.js';
import { defaultDataSet } from '../src/sandbox/default-data-set.js';
import { parseCertificate, readPemCertificates } from '../src/security/tpp-certificate.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { requestFor } from '../test/support/new-payment.js';
import { newStandingOrder } from '../test/support/periodic-requests.js';
import { type BenchServer, SERVER_BUNDLE, sqliteSandboxEnv, startBenchServer } from './bench-server.js';
import type { BenchTpp } from './requests.js';
import { sandboxCall } from './sandbox-call.js';

export interface PeriodicRunFigures {
  /** From sending the clock move past the execution date to its answer. */
  seconds: number;
  executionsPerSecond: number;
  /** Every order executed once, with one debit, and the balance lowered by exactly their amounts. */
  exactlyOnce: boolean;
}

/** NOK 1.00 from the default data set's Kari Nordmann's current account (NOK 12 000 with a NOK 5 000 credit line). */
const AMOUNT_MINOR = 100n;
const DEBTOR = '15061012378';

/**
 * `orders` authorised monthly standing orders whose executions all fall on one date (the next bank
 * day after tomorrow), on SQLite: stored through the store before the server starts, then one signed
 * clock move past the date is timed from send to answer (the move runs the day's executions, rule 6),
 * and the ledger is checked after the server has stopped.
 */
export async function measurePeriodicRun(
  tpp: BenchTpp,
  options: { orders: number; port: number },
): Promise<PeriodicRunFigures> {
  const dir = mkdtempSync(join(tpp.work, 'periodic-'));
  const file = join(dir, 'psd2.db');
  let server: BenchServer | undefined;
  try {
    const tppId = parseCertificate(readPemCertificates(tpp.credentials.certPem)[0]!).organisationId!;
    const date = bankDayFrom(addDays(osloDate(new Date()), 2), 'following');
    const store = SqliteStore.open(file);
    await store.migrate();
    await store.openBank(tppId, new Date(), defaultDataSet);
    const ids: string[] = [];
    // Stored 200 at a time: the store commits concurrent creates in groups, one flush for each group.
    for (let i = 0; i < options.orders; i += 200) {
      const orders = Array.from({ length: Math.min(200, options.orders - i) }, () =>
        newStandingOrder(
          { startDate: date, dayOfExecution: String(Number(date.slice(8, 10))) },
          { amountMinor: AMOUNT_MINOR, tppId, debtorBban: DEBTOR },
        ),
      );
      await Promise.all(
        orders.map((order) => store.createPayment(order, requestFor(order), { duplicatesSince: null, bank: tppId })),
      );
      ids.push(...orders.map((o) => o.id));
    }
    await store.decidePayments(
      ids.map((paymentId) => ({ paymentId, status: 'ACTC', reason: undefined })),
      undefined,
      new Date(),
    );
    const before = (await store.findAccount(tppId, { bban: DEBTOR }))!.balanceMinor;
    await store.close();

    server = await startBenchServer(SERVER_BUNDLE, options.port, sqliteSandboxEnv(dir, tpp.caFile));
    const started = performance.now();
    await sandboxCall(server.url, tpp.credentials, 'POST', '/v1/sandbox/clock', 200, { to: `${date}T12:00:00+01:00` });
    const seconds = (performance.now() - started) / 1000;
    await server.stop();
    server = undefined;
    const problems = checkExecutions(file, date, ids.length, before - BigInt(ids.length) * AMOUNT_MINOR);
    for (const problem of problems) process.stderr.write(`standing orders: ${problem}\n`);
    return { seconds, executionsPerSecond: ids.length / seconds, exactlyOnce: problems.length === 0 };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The date's executions (the data set's own order executes on another day): one booked and one debit per order. */
function checkExecutions(file: string, date: string, orders: number, balanceMinor: bigint): string[] {
  const db = new BetterSqlite3(file, { readonly: true });
  db.defaultSafeIntegers(true);
  const count = (sql: string, ...params: unknown[]) =>
    Number(
      db
        .prepare(sql)
        .pluck()
        .get(...params) as bigint,
    );
  const problems: string[] = [];
  try {
    const executions = count(
      "select count(*) from periodic_executions where status = 'ACSC' and execution_date = ?",
      date,
    );
    if (executions !== orders) problems.push(`${executions} executions booked of ${orders}`);
    const debits = count(
      "select count(*) from account_transactions where bank_transaction_code = 'PMNT-ICDT-STDO' and booking_date = ?",
      date,
    );
    if (debits !== orders) problems.push(`${debits} debits for ${orders} executions`);
    const balance = db.prepare('select balance_minor from accounts where bban = ?').pluck().get(DEBTOR) as bigint;
    if (balance !== balanceMinor) problems.push(`the debtor holds ${balance}, expected ${balanceMinor}`);
  } finally {
    db.close();
  }
  return problems;
}
