import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { signRequest } from '../../src/toolkit/request-signer.js';
import { duplicateKeyOf, newPayment, requestFor } from '../support/new-payment.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { trustedCa, withTwoServersOnPostgres as withTwoServers } from '../support/two-postgres-servers.js';
import { TPP_ID, tppFixtures } from '../support/tpp-fixtures.js';

/**
 * Exactly-once execution with real processes: a batch run killed part-way (SIGKILL) and run again
 * debits nothing twice; two server instances on one PostgreSQL database running the batch at the
 * same moment execute every payment once.
 */
/** Bulk payments of ENTRIES transfers each: big enough that a run takes a while, so a kill lands part-way. */
const PAYMENTS = 40;
const ENTRIES = 200;
const AMOUNT_MINOR = 100n;
const DEBTOR = '15061012343';
const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Authorised bulk payments of NOK 1.00 transfers from Ola's current account, written straight to the database. */
async function seedAuthorisedPayments(store: Store): Promise<string[]> {
  await store.migrate();
  // The sandbox bank of the TPP that runs the batch: its payments are paid from its accounts.
  await store.openBank(TPP_ID, new Date(), defaultDataSet);
  const ids: string[] = [];
  for (let i = 0; i < PAYMENTS; i++) {
    const base = newPayment({ amountMinor: AMOUNT_MINOR });
    const transfers = Array.from({ length: ENTRIES }, (_, e) => ({
      ...base.transfers[0]!,
      creditorAccount: '12345678911',
      duplicateKey: duplicateKeyOf(`seed-${i}-${e}`),
      path: `$.payments[${e}]`,
    }));
    const payment = newPayment({
      service: 'bulk-payments',
      product: 'norwegian-domestic-credit-transfers',
      transfers,
      body: { payments: transfers.map(() => ({ remittanceInformationUnstructured: 'seed' })) },
      psuKey: `psu:seed-${i}`,
      debtor: { bban: DEBTOR, iban: undefined, currency: 'NOK' },
      fees: { total: { minor: 0n, currency: 'NOK' }, charged: false, conversion: undefined },
    });
    await store.createPayment(payment, requestFor(payment), { duplicatesSince: null, bank: TPP_ID });
    ids.push(payment.id);
  }
  await store.decidePayments(
    ids.map((paymentId) => ({ paymentId, status: 'ACTC', reason: undefined })),
    undefined,
    new Date(),
  );
  return ids;
}

interface Ledger {
  statuses: Map<string, number>;
  debits: number;
  balance: bigint;
}

/** A signed sandbox call to a server process. */
async function call(server: ServerProcess, method: 'GET' | 'POST', url: string, body?: unknown): Promise<Response> {
  const fixtures = await tppFixtures();
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = signRequest({
    method,
    url,
    credentials: fixtures.tpp,
    digest: method === 'POST',
    ...(text === undefined ? {} : { body: text }),
  });
  if (text !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${server.url}${url}`, { method, headers, ...(text === undefined ? {} : { body: text }) });
}

function runBatch(server: ServerProcess): Promise<Response> {
  return call(server, 'POST', '/v1/sandbox/batch-runs');
}

describe('exactly-once execution', () => {
  it('debits nothing twice when a batch run is killed part-way (SIGKILL) and run again, on SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'psd2-batch-'));
    dirs.push(dir);
    const file = join(dir, 'psd2.db');
    const seeding = SqliteStore.open(file);
    const ids = await seedAuthorisedPayments(seeding);
    const before = (await seeding.findAccount(TPP_ID, { bban: DEBTOR }))!.balanceMinor;
    await seeding.close();

    const env = {
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${file}`,
      TRUSTED_CA_CERTS: await trustedCa(dir),
      BATCH_CHUNK_SIZE: '1',
      LOG_LEVEL: 'debug',
    };
    const first = await startServerProcess(env);
    void runBatch(first).catch(() => undefined);
    await first.waitForLine((l) => l.msg === 'batch chunk executed', 'a first committed chunk');
    first.child.kill('SIGKILL');
    await first.exited;
    const midway = sqliteLedger(file, ids);
    assert.ok(
      (midway.statuses.get('ACSC') ?? 0) > 0 && (midway.statuses.get('ACSC') ?? 0) < PAYMENTS,
      `killed part-way: ${JSON.stringify([...midway.statuses])}`,
    );

    const second = await startServerProcess(env);
    try {
      assert.equal((await runBatch(second)).status, 200);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
    const ledger = sqliteLedger(file, ids);
    assert.deepEqual([...ledger.statuses], [['ACSC', PAYMENTS]]);
    assert.equal(ledger.debits, PAYMENTS * ENTRIES, 'one debit per transfer');
    assert.equal(ledger.balance, before - BigInt(PAYMENTS * ENTRIES) * AMOUNT_MINOR);
  });

  it('executes every payment once when two server instances on one PostgreSQL database run the batch at once', async () => {
    await withTwoServersOnPostgres(async (servers) => {
      const answers = await Promise.all([
        runBatch(servers[0]),
        runBatch(servers[1]),
        runBatch(servers[0]),
        runBatch(servers[1]),
      ]);
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200, 200],
      );
      const runs = await Promise.all(answers.map((a) => a.json() as Promise<{ executed: number }>));
      assert.equal(
        runs.reduce((sum, r) => sum + r.executed, 0),
        PAYMENTS,
        `each payment counted by exactly one run: ${JSON.stringify(runs)}`,
      );
    });
  });

  it('executes every payment once when two server instances on one PostgreSQL database reach the same batch time', async () => {
    await withTwoServersOnPostgres(async (servers) => {
      const clock = (await (await call(servers[0], 'GET', '/v1/sandbox/clock')).json()) as { nextBatchRun: string };
      // Both instances move the TPP's business clock (one, in the database) to the same batch time at
      // once; each runs the slots it passes. The clock is read from the database, so an instance that
      // finds it moved there already answers that it only moves forward (400) and runs nothing.
      const answers = await Promise.all(
        servers.map((server) => call(server, 'POST', '/v1/sandbox/clock', { to: clock.nextBatchRun })),
      );
      const bodies = await Promise.all(
        answers.map((a) => a.json() as Promise<{ batchRuns?: { slot: string; executed: number }[]; message?: string }>),
      );
      assert.ok(
        answers.some((a) => a.status === 200),
        JSON.stringify(bodies),
      );
      answers.forEach((a, i) =>
        assert.ok(
          a.status === 200 || (a.status === 400 && /only moves forward/.test(JSON.stringify(bodies[i]))),
          JSON.stringify(bodies[i]),
        ),
      );
      const moved = bodies.filter((_, i) => answers[i]!.status === 200);
      const runs = moved.flatMap((m) => m.batchRuns ?? []);
      assert.deepEqual(
        runs.map((r) => r.slot),
        [clock.nextBatchRun],
        `the slot is run by one instance only: ${JSON.stringify(moved)}`,
      );
      assert.equal(runs[0]!.executed, PAYMENTS);
    });
  });
});

/**
 * Seeds the authorised payments in a new PostgreSQL database, starts two server processes on it, lets
 * the test drive them, stops them, and asserts that every payment executed exactly once.
 */
async function withTwoServersOnPostgres(
  drive: (servers: [ServerProcess, ServerProcess]) => Promise<void>,
): Promise<void> {
  await withTwoServers({
    dirs,
    chunkSize: 2,
    debtor: DEBTOR,
    seed: seedAuthorisedPayments,
    drive,
    check: async (url, ids, before) => {
      const ledger = await postgresLedger(url, ids);
      assert.deepEqual([...ledger.statuses], [['ACSC', PAYMENTS]]);
      assert.equal(ledger.debits, PAYMENTS * ENTRIES, 'one debit per transfer');
      assert.equal(ledger.balance, before - BigInt(PAYMENTS * ENTRIES) * AMOUNT_MINOR);
    },
  });
}

function sqliteLedger(file: string, ids: string[]): Ledger {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    db.defaultSafeIntegers(true);
    const list = ids.map(() => '?').join(',');
    const statuses = new Map(
      (
        db.prepare(`select status, count(*) as n from payments where id in (${list}) group by status`).all(...ids) as {
          status: string;
          n: bigint;
        }[]
      ).map((r) => [r.status, Number(r.n)]),
    );
    const debits = Number(
      (
        db
          .prepare(
            `select count(*) as n from account_transactions where payment_id in (${list}) and account_id = (select id from accounts where bban = ?)`,
          )
          .get(...ids, DEBTOR) as { n: bigint }
      ).n,
    );
    const balance = (
      db.prepare('select balance_minor from accounts where bban = ?').get(DEBTOR) as { balance_minor: bigint }
    ).balance_minor;
    return { statuses, debits, balance };
  } finally {
    db.close();
  }
}

async function postgresLedger(url: string, ids: string[]): Promise<Ledger> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const statuses = new Map(
      (
        await client.query<{ status: string; n: string }>(
          'select status, count(*) as n from payments where id = any($1) group by status',
          [ids],
        )
      ).rows.map((r) => [r.status, Number(r.n)]),
    );
    const debits = Number(
      (
        await client.query<{ n: string }>(
          'select count(*) as n from account_transactions where payment_id = any($1) and account_id = (select id from accounts where bban = $2)',
          [ids, DEBTOR],
        )
      ).rows[0]!.n,
    );
    const balance = BigInt(
      (await client.query<{ balance_minor: string }>('select balance_minor from accounts where bban = $1', [DEBTOR]))
        .rows[0]!.balance_minor,
    );
    return { statuses, debits, balance };
  } finally {
    await client.end();
  }
}
