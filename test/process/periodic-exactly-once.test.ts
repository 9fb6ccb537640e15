import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { addDays, osloDate } from '../../src/domain/clock.js';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { signRequest } from '../../src/toolkit/request-signer.js';
import { requestFor } from '../support/new-payment.js';
import { newStandingOrder } from '../support/periodic-requests.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { trustedCa, withTwoServersOnPostgres } from '../support/two-postgres-servers.js';
import { TPP_ID, tppFixtures } from '../support/tpp-fixtures.js';

/**
 * Standing orders execute exactly once with real processes: a run of executions killed part-way
 * (SIGKILL) and resumed books nothing twice; two server instances on one PostgreSQL database that
 * find the same executions due at once book each once.
 */
const ORDERS = 300;
/** Daily orders over three days: three executions each. */
const EXECUTIONS = ORDERS * 3;
const AMOUNT_MINOR = 100n;
const DEBTOR = '15061012343';
const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * Authorised daily standing orders of NOK 1.00 from Ola's current account, from tomorrow for three
 * days, written straight to the database, and the TPP's bank clock a week ahead: a server that starts
 * on it finds every execution due.
 */
async function seedStandingOrders(store: Store): Promise<string[]> {
  await store.migrate();
  await store.openBank(TPP_ID, new Date(), defaultDataSet);
  const start = addDays(osloDate(new Date()), 1);
  const ids: string[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const order = newStandingOrder(
      { startDate: start, endDate: addDays(start, 2), frequency: 'Daily', dayOfExecution: undefined },
      { amountMinor: AMOUNT_MINOR, tppId: TPP_ID },
    );
    await store.createPayment(order, requestFor(order), { duplicatesSince: null, bank: TPP_ID });
    ids.push(order.id);
  }
  await store.decidePayments(
    ids.map((paymentId) => ({ paymentId, status: 'ACTC', reason: undefined })),
    undefined,
    new Date(),
  );
  await store.writeClockOffset(TPP_ID, BigInt(7 * 86_400_000), new Date());
  return ids;
}

interface Ledger {
  executions: number;
  debits: number;
  balance: bigint;
}

/** Moves the TPP's clock a minute on: the answer comes once the executions due have run. */
async function nudgeClock(server: ServerProcess): Promise<Response> {
  const fixtures = await tppFixtures();
  const url = '/v1/sandbox/clock';
  const body = JSON.stringify({ advanceSeconds: 60 });
  const headers = signRequest({ method: 'POST', url, credentials: fixtures.tpp, digest: true, body });
  headers['content-type'] = 'application/json';
  return fetch(`${server.url}${url}`, { method: 'POST', headers, body });
}

describe('standing orders execute exactly once', () => {
  it('books nothing twice when a run of executions is killed part-way (SIGKILL) and resumed, on SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'psd2-periodic-'));
    dirs.push(dir);
    const file = join(dir, 'psd2.db');
    const seeding = SqliteStore.open(file);
    const ids = await seedStandingOrders(seeding);
    const before = (await seeding.findAccount(TPP_ID, { bban: DEBTOR }))!.balanceMinor;
    await seeding.close();

    const env = {
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${file}`,
      TRUSTED_CA_CERTS: await trustedCa(dir),
      BATCH_CHUNK_SIZE: '1',
    };
    // The server's start runs what is due by the bank's clock: here, every execution.
    const first = await startServerProcess(env);
    let midway = sqliteLedger(file, ids);
    for (let waited = 0; midway.executions === 0 && waited < 15_000; waited += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      midway = sqliteLedger(file, ids);
    }
    first.child.kill('SIGKILL');
    await first.exited;
    midway = sqliteLedger(file, ids);
    assert.ok(
      midway.executions > 0 && midway.executions < EXECUTIONS,
      `killed part-way: ${JSON.stringify({ ...midway, balance: String(midway.balance) })}`,
    );
    assert.equal(midway.debits, midway.executions, 'each committed execution with its debit, none without');

    const second = await startServerProcess(env);
    try {
      assert.equal((await nudgeClock(second)).status, 200);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
    const ledger = sqliteLedger(file, ids);
    assert.equal(ledger.executions, EXECUTIONS);
    assert.equal(ledger.debits, EXECUTIONS, 'one debit per execution');
    assert.equal(ledger.balance, before - BigInt(EXECUTIONS) * AMOUNT_MINOR);
  });

  it('books each execution once when two server instances on one PostgreSQL database find them due at once', async () => {
    await withTwoServersOnPostgres({
      dirs,
      chunkSize: 7,
      debtor: DEBTOR,
      seed: seedStandingOrders,
      // Both start at once, and each start runs the executions due; then both are moved at once.
      drive: async (servers) => {
        const answers = await Promise.all(servers.map((server) => nudgeClock(server)));
        assert.ok(
          answers.every((a) => a.status === 200 || a.status === 400),
          answers.map((a) => a.status).join(),
        );
        // The one refused (the other moved the clock first) ran nothing; wait for the starts' runs too.
        assert.equal((await nudgeClock(servers[0])).status, 200);
        assert.equal((await nudgeClock(servers[1])).status, 200);
      },
      check: async (url, ids, before) => {
        const ledger = await postgresLedger(url, ids);
        assert.equal(ledger.executions, EXECUTIONS);
        assert.equal(ledger.debits, EXECUTIONS, 'one debit per execution');
        assert.equal(ledger.balance, before - BigInt(EXECUTIONS) * AMOUNT_MINOR);
      },
    });
  });
});

function sqliteLedger(file: string, ids: string[]): Ledger {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    db.defaultSafeIntegers(true);
    const list = ids.map(() => '?').join(',');
    const count = (sql: string, ...args: unknown[]) => Number((db.prepare(sql).get(...args) as { n: bigint }).n);
    return {
      executions: count(`select count(*) as n from periodic_executions where payment_id in (${list})`, ...ids),
      debits: count(
        `select count(*) as n from account_transactions where payment_id in (${list}) and account_id = (select id from accounts where bban = ?)`,
        ...ids,
        DEBTOR,
      ),
      balance: (
        db.prepare('select balance_minor from accounts where bban = ?').get(DEBTOR) as { balance_minor: bigint }
      ).balance_minor,
    };
  } finally {
    db.close();
  }
}

async function postgresLedger(url: string, ids: string[]): Promise<Ledger> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const count = async (sql: string, args: unknown[]) =>
      Number((await client.query<{ n: string }>(sql, args)).rows[0]!.n);
    return {
      executions: await count('select count(*) as n from periodic_executions where payment_id = any($1)', [ids]),
      debits: await count(
        'select count(*) as n from account_transactions where payment_id = any($1) and account_id = (select id from accounts where bban = $2)',
        [ids, DEBTOR],
      ),
      balance: BigInt(
        (await client.query<{ balance_minor: string }>('select balance_minor from accounts where bban = $1', [DEBTOR]))
          .rows[0]!.balance_minor,
      ),
    };
  } finally {
    await client.end();
  }
}
