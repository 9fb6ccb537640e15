import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { parseCertificate, readPemCertificates } from '../src/security/tpp-certificate.js';
import { type BenchServer, SERVER_BUNDLE, benchPort, sqliteSandboxEnv, startBenchServer } from './bench-server.js';
import { type BenchTpp, benchTpp } from './requests.js';
import { sandboxCall } from './sandbox-call.js';
import { FEE_CODE, type SeededPayments, seedDuePayments } from './seed-payments.js';

export interface BatchRunFigures {
  /** From sending `POST /v1/sandbox/batch-runs` to its answer. */
  seconds: number;
  paymentsPerSecond: number;
  /** As the run's answer counts them. */
  executed: number;
  /** Every payment booked once and only once: see checkLedger. */
  exactlyOnce: boolean;
}

/**
 * One batch run of `payments` authorised payments due now (bench/seed-payments.ts), on SQLite: the
 * database is migrated and seeded before the server first starts (so that its start-up catch-up has
 * no earlier run to follow and executes nothing), then one signed `POST /v1/sandbox/batch-runs` is
 * timed from send to answer, and the ledger is checked after the server has stopped.
 */
export async function measureBatchRun(
  tpp: BenchTpp,
  options: { payments: number; port: number },
): Promise<BatchRunFigures> {
  const dir = mkdtempSync(join(tpp.work, 'batch-'));
  const file = join(dir, 'psd2.db');
  let server: BenchServer | undefined;
  try {
    const seeded = await seedBatchDatabase(tpp, file, options.payments);
    server = await startBenchServer(SERVER_BUNDLE, options.port, sqliteSandboxEnv(dir, tpp.caFile));
    const started = performance.now();
    const run = await sandboxCall<{ executed: number; partial: number; rejected: number }>(
      server.url,
      tpp.credentials,
      'POST',
      '/v1/sandbox/batch-runs',
      200,
    );
    const seconds = (performance.now() - started) / 1000;
    await server.stop();
    server = undefined;
    const problems = checkLedger(file, seeded);
    if (run.executed !== options.payments)
      problems.push(`the run answered executed ${run.executed}, partial ${run.partial}, rejected ${run.rejected}`);
    for (const problem of problems) process.stderr.write(`batch run: ${problem}\n`);
    return {
      seconds,
      paymentsPerSecond: options.payments / seconds,
      executed: run.executed,
      exactlyOnce: problems.length === 0,
    };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A SQLite database at `file`, migrated, with `payments` authorised payments due now for the bench
 * TPP's bank: what a batch run finds (bench/profile-scenario.ts profiles the same run).
 */
export async function seedBatchDatabase(tpp: BenchTpp, file: string, payments: number): Promise<SeededPayments> {
  const store = SqliteStore.open(file);
  await store.migrate();
  await store.close();
  const tppId = parseCertificate(readPemCertificates(tpp.credentials.certPem)[0]!).organisationId!;
  return seedDuePayments(file, payments, tppId);
}

/**
 * What is wrong with the ledger after the run, if anything: every seeded payment and transfer ACSC
 * (those of the seeded ids: other rows of the tables are not the run's);
 * per payment exactly one debit (and one fee for a cross-border payment) and, when the creditor is
 * the bench's account, exactly one credit; each debtor's balance lowered by exactly its payments'
 * amounts and fees and the creditor's raised by exactly its credits; every account's positions
 * dense, 1 to its transaction_count.
 */
export function checkLedger(file: string, seeded: SeededPayments): string[] {
  const db = new BetterSqlite3(file, { readonly: true });
  db.defaultSafeIntegers(true);
  try {
    return [
      ...statusProblems(db, seeded),
      ...postingProblems(db, seeded),
      ...balanceProblems(db, seeded),
      ...positionProblems(db),
    ];
  } finally {
    db.close();
  }
}

/** The one figure a query reads, 0 when it reads no row. */
function count(db: BetterSqlite3.Database, sql: string, ...params: unknown[]): number {
  return Number(
    (db
      .prepare(sql)
      .pluck()
      .get(...params) as bigint | undefined) ?? 0n,
  );
}

/** Every seeded payment and its transfer ACSC. */
function statusProblems(db: BetterSqlite3.Database, seeded: SeededPayments): string[] {
  const problems: string[] = [];
  const n = seeded.paymentIds.length;
  // Only the payments this row seeded, by their ids: the tables hold others, such as the default
  // data set's standing order, which the TPP's bank is given on its first request.
  const ids = new Set(seeded.paymentIds);
  const statusesOfSeeded = (sql: string) => {
    const found = { all: 0, acsc: 0 };
    for (const [id, status] of db.prepare(sql).raw().iterate() as Iterable<[string, string]>) {
      if (!ids.has(id)) continue;
      found.all += 1;
      if (status === 'ACSC') found.acsc += 1;
    }
    return found;
  };
  const payments = statusesOfSeeded('select id, status from payments');
  if (payments.all !== n || payments.acsc !== n)
    problems.push(`${payments.acsc} of ${n} payments ACSC (${payments.all} found)`);
  // One transfer a payment: a cross-border payment is one, a bulk of one entry has one.
  const transfers = statusesOfSeeded('select payment_id, status from transfers');
  if (transfers.all !== n || transfers.acsc !== n)
    problems.push(`${transfers.acsc} of ${n} transfers ACSC (${transfers.all} found)`);
  return problems;
}

/** Exactly one debit a payment, one fee a cross-border payment, one credit a payment to the bench's account. */
function postingProblems(db: BetterSqlite3.Database, seeded: SeededPayments): string[] {
  const problems: string[] = [];
  const n = seeded.paymentIds.length;
  const debtorIds = seeded.debtors.map((d) => d.id);
  const onDebtors = `account_id in (${debtorIds.map(() => '?').join(', ')})`;
  // A debit is a transaction of the debtor's account that names that account as its debtor; amounts
  // are kept as posted, without a sign (the side says the direction).
  const perPayment = db
    .prepare(
      `select count(*) from (select t.payment_id from account_transactions t join accounts a on a.id = t.account_id
      where t.${onDebtors} and t.bank_transaction_code <> ? and t.debtor_bban = a.bban and t.amount_minor > 0
      group by t.payment_id having count(*) = 1)`,
    )
    .pluck()
    .get(...debtorIds, FEE_CODE) as bigint;
  const debits = count(
    db,
    `select count(*) from account_transactions where ${onDebtors} and bank_transaction_code <> ?`,
    ...debtorIds,
    FEE_CODE,
  );
  if (Number(perPayment) !== n || debits !== n)
    problems.push(`${debits} debits, ${perPayment} payments with exactly one; expected ${n}`);
  const fees = count(
    db,
    `select count(distinct payment_id) from account_transactions where ${onDebtors} and bank_transaction_code = ?`,
    ...debtorIds,
    FEE_CODE,
  );
  const feeRows = count(
    db,
    `select count(*) from account_transactions where ${onDebtors} and bank_transaction_code = ?`,
    ...debtorIds,
    FEE_CODE,
  );
  if (fees !== seeded.crossBorder || feeRows !== seeded.crossBorder)
    problems.push(`${feeRows} fee transactions for ${fees} payments; expected ${seeded.crossBorder}`);
  const credits = count(
    db,
    'select count(*) from account_transactions where account_id = ? and amount_minor > 0',
    seeded.creditor.id,
  );
  const credited = count(
    db,
    'select count(distinct payment_id) from account_transactions where account_id = ?',
    seeded.creditor.id,
  );
  if (credits !== seeded.domestic || credited !== seeded.domestic)
    problems.push(`${credits} credits for ${credited} payments; expected ${seeded.domestic}`);
  return problems;
}

/** Each debtor's balance lowered by exactly its payments' amounts and fees, the creditor's raised by exactly its credits. */
function balanceProblems(db: BetterSqlite3.Database, seeded: SeededPayments): string[] {
  const problems: string[] = [];
  const balance = db.prepare('select balance_minor from accounts where id = ?').pluck();
  for (const debtor of seeded.debtors) {
    const now = balance.get(debtor.id) as bigint;
    const expected = debtor.balanceMinor - seeded.debitMinor.get(debtor.id)!;
    if (now !== expected) problems.push(`debtor ${debtor.bban} holds ${now}, expected ${expected}`);
  }
  const creditorNow = balance.get(seeded.creditor.id) as bigint;
  if (creditorNow !== seeded.creditor.balanceMinor + seeded.creditMinor)
    problems.push(`creditor holds ${creditorNow}, expected ${seeded.creditor.balanceMinor + seeded.creditMinor}`);
  return problems;
}

/** Every account's positions dense, 1 to its transaction_count. */
function positionProblems(db: BetterSqlite3.Database): string[] {
  const gaps = db
    .prepare(
      `select a.bban from accounts a left join (select account_id, count(*) n, count(distinct seq) d, min(seq) lo, max(seq) hi from account_transactions group by account_id) t
      on t.account_id = a.id where coalesce(t.n, 0) <> a.transaction_count or coalesce(t.d, 0) <> a.transaction_count or coalesce(t.hi, 0) <> a.transaction_count or coalesce(t.lo, 1) <> 1`,
    )
    .pluck()
    .all() as string[];
  return gaps.length > 0 ? [`positions not dense on ${gaps.join(', ')}`] : [];
}

// On its own: `npm run build && node dist/bench/batch-run.js [payments]` (default 100 000).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const payments = Number(process.argv[2] ?? 100_000);
  const tpp = await benchTpp();
  try {
    const figures = await measureBatchRun(tpp, { payments, port: benchPort(4) });
    process.stdout.write(
      `batch run of ${payments} authorised payments: ${figures.seconds.toFixed(1)} s, ${Math.round(figures.paymentsPerSecond)} payments/s; exactly once: ${figures.exactlyOnce ? 'yes' : 'NO'}\n`,
    );
    if (!figures.exactlyOnce) process.exitCode = 1;
  } finally {
    rmSync(tpp.work, { recursive: true, force: true });
  }
}
