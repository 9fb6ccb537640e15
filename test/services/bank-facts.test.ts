import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BANK_FACTS_CHECK_MS } from '../../src/domain/limits.js';
import { BankFacts } from '../../src/services/bank-facts.js';
import type { BankFactsRead } from '../../src/store/sandbox-data-store.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { wrapStoreMethods } from '../../src/store/store-wrapper.js';
import { type TestDatabase, createMigratedTestDatabase } from '../support/postgres.js';
import { arm } from '../support/scenario-steps.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * Issue 44, 2: what every signed sandbox request needs of its bank (its clock, whether a fault is
 * armed) is held in the process (services/bank-facts.ts). No request reads it when nothing changed;
 * the app's own changes apply at once; another instance's reach it within BANK_FACTS_CHECK_MS, by
 * the versions the database's triggers raise (migration 029). The waits are bounds, not measures.
 */
const FACT_READS = ['readBankFacts', 'readClockOffset', 'listBankFaults'];

/** The store, counting its calls of the reads of a bank's facts. */
function counting(store: Store): { store: Store; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    store: wrapStoreMethods(store, (name, call) => (...args) => {
      if (FACT_READS.includes(name)) reads.push(name);
      return call(args);
    }),
  };
}

/** Resolves once `check` holds, looked at every 20 ms, or fails after `limitMs` (a bound, not a measure). */
async function until(check: () => Promise<boolean>, what: string, limitMs = 5_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const clockOf = async (t: TestApp) =>
  (JSON.parse((await t.signed({ method: 'GET', url: '/v1/sandbox/clock' })).body) as { now: string }).now;
/** A read of the bank's API with no consent: 401 CONSENT_UNKNOWN, unless a fault armed for it answers. */
const accounts = (t: TestApp) =>
  t.signed({ method: 'GET', url: '/v1/accounts', headers: { 'PSU-IP-Address': '192.0.2.10' } });

describe('bank facts held in the process', () => {
  describe('on two instances of one PostgreSQL database', () => {
    let database: TestDatabase;
    let counted: { store: Store; reads: string[] };
    let a: TestApp;
    let b: TestApp;
    const stores: Store[] = [];

    before(async () => {
      database = await createMigratedTestDatabase();
      stores.push(PostgresStore.open(database.url), PostgresStore.open(database.url));
      counted = counting(stores[0]!);
      a = await startTestApp({ store: counted.store });
      b = await startTestApp({ store: stores[1]!, seed: false });
    });
    after(async () => {
      await a.close();
      await b.close();
      await Promise.all(stores.map((s) => s.close()));
      await database.drop();
    });

    it('reads nothing of the bank for a signed request when nothing changed: one read, then none', async () => {
      await accounts(a);
      counted.reads.length = 0;
      for (let i = 0; i < 20; i++) assert.equal((await accounts(a)).statusCode, 401);
      assert.deepEqual(counted.reads, [], '20 signed requests');
    });

    it("applies the instance's own clock move and armed fault at once, and another instance's within the check", async () => {
      const before = await clockOf(b); // b holds the bank's facts from here
      const moved = await a.signed({ method: 'POST', url: '/v1/sandbox/clock', body: { advanceSeconds: 86_400 } });
      assert.equal(moved.statusCode, 200, moved.body);
      const now = (JSON.parse(moved.body) as { now: string }).now;
      assert.ok(now !== undefined, moved.body);
      assert.ok(Date.parse(await clockOf(a)) - Date.parse(now) < 1_000, 'at once on the instance that moved it');
      assert.ok(Date.parse(now) - Date.parse(before) >= 86_400_000);
      await until(
        async () => Date.parse(await clockOf(b)) - Date.parse(now) >= 0,
        'the other instance seeing the move',
      );
      // A move builds on the clock the database has: one through the other instance at once moves on from it.
      const next = await b.signed({ method: 'POST', url: '/v1/sandbox/clock', body: { advanceSeconds: 60 } });
      assert.equal(next.statusCode, 200, next.body);
      assert.ok(Date.parse((JSON.parse(next.body) as { now: string }).now) - Date.parse(now) >= 60_000);
      const atOnce = await a.signed({ method: 'POST', url: '/v1/sandbox/clock', body: { advanceSeconds: 60 } });
      assert.equal(atOnce.statusCode, 200, `a move at once after the other instance's: ${atOnce.body}`);

      await arm(b, { kind: 'bank-error', operationId: 'getAccountList', times: 1 });
      assert.equal((await accounts(b)).statusCode, 500, 'at once on the instance that armed it');
      await arm(b, { kind: 'bank-error', operationId: 'getAccountList', times: 1 });
      await until(async () => (await accounts(a)).statusCode === 500, 'the other instance meeting the fault');
      assert.equal((await accounts(a)).statusCode, 401, 'its one time spent');
    });
  });

  it('keeps no facts read while a change was made: a read that began before it is not held', async () => {
    let release: (read: BankFactsRead) => void = () => undefined;
    let version = 0;
    const facts = new BankFacts({
      readBankFacts: () =>
        new Promise<BankFactsRead>((resolve) => {
          release = resolve;
        }),
      bankFactsVersions: async () => new Map([['bank', version]]),
    });
    const reading = facts.of('bank');
    facts.forgetAll();
    release({ clockOffsetMs: 0n, faultArmed: false, version });
    await reading;
    const again = facts.of('bank');
    release({ clockOffsetMs: 5n, faultArmed: true, version: 1 });
    assert.deepEqual(await again, { clockOffsetMs: 5n, faultArmed: true, version: 1 }, 'read again, then held');
    assert.equal((await facts.of('bank')).clockOffsetMs, 5n);
    version = 2;
    await facts.check();
    const third = facts.of('bank');
    release({ clockOffsetMs: 9n, faultArmed: false, version: 2 });
    assert.equal((await third).clockOffsetMs, 9n, 'a version changed elsewhere is read again');
    assert.ok(BANK_FACTS_CHECK_MS <= 1_000);
  });

  it('reads a bank once for the requests that come together, and afresh for one after a change', async () => {
    const releases: ((read: BankFactsRead) => void)[] = [];
    const facts = new BankFacts({
      readBankFacts: () => new Promise<BankFactsRead>((resolve) => releases.push(resolve)),
      bankFactsVersions: async () => new Map(),
    });
    const together = Array.from({ length: 16 }, () => facts.of('bank'));
    assert.equal(releases.length, 1, '16 requests in flight: one read');
    facts.forget('bank');
    const afterChange = facts.of('bank');
    assert.equal(releases.length, 2, 'a request after a change does not wait for the read that began before it');
    releases[0]!({ clockOffsetMs: 0n, faultArmed: false, version: 0 });
    releases[1]!({ clockOffsetMs: 7n, faultArmed: false, version: 1 });
    assert.equal((await afterChange).clockOffsetMs, 7n);
    const [first, ...waited] = await Promise.all(together);
    assert.equal(first!.clockOffsetMs, 0n, 'the request that read answers with what it read, as before');
    for (const read of waited)
      assert.equal(read.clockOffsetMs, 7n, 'the requests that waited look again, and find the read after the change');
    assert.equal(releases.length, 2);
  });

  it('lets the requests that waited for a failed read read for themselves, all at once', async () => {
    let reads = 0;
    let inFlight = 0;
    let most = 0;
    const facts = new BankFacts({
      readBankFacts: async () => {
        const failing = reads === 0;
        reads += 1;
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight -= 1;
        if (failing) throw new Error('connection lost');
        return { clockOffsetMs: 3n, faultArmed: false, version: 0 };
      },
      bankFactsVersions: async () => new Map(),
    });
    const [first, ...rest] = await Promise.allSettled(Array.from({ length: 4 }, () => facts.of('bank')));
    assert.equal(first!.status, 'rejected');
    for (const r of rest)
      assert.deepEqual(r, { status: 'fulfilled', value: { clockOffsetMs: 3n, faultArmed: false, version: 0 } });
    assert.equal(reads, 4, 'one failed read, then one for each request that waited for it');
    assert.equal(most, 3, 'those three at once, not one after another (a store that is down answers each no later)');
  });
});
