import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AddressBankLimitReached, type BankOwner } from '../../src/domain/bank.js';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import type { Store } from '../../src/store/store.js';
import type { StoreUnderTest } from './store-under-test.js';
import { RetentionJob } from '../../src/services/retention-job.js';
import { newPayment, requestFor } from '../support/new-payment.js';

const at = new Date('2026-11-20T10:00:00.000Z');
const keyA = 'a'.repeat(64);
const keyB = 'b'.repeat(64);
const owner = (keySha256: string, address = '192.0.2.1', perAddress?: BankOwner['perAddress']): BankOwner => ({
  keySha256,
  address,
  ...(perAddress === undefined ? {} : { perAddress }),
});

/** Tenancy and upkeep of the sandbox's banks: what every Store must do (run by store-contract.ts on both databases). */
export function upkeepContract(open: () => Promise<StoreUnderTest>): void {
  async function withStores(test: (store: Store, another: Store) => Promise<void>): Promise<void> {
    const { store, openAnother } = await open();
    const another = await openAnother();
    try {
      await store.migrate();
      await test(store, another);
    } finally {
      if (another !== store) await another.close();
      await store.close();
    }
  }

  describe('bank owners (a sandbox bank belongs to its key)', () => {
    it('makes the bank for the first key, admits that key, and refuses another key for the same bank', () =>
      withStores(async (store) => {
        assert.equal(await store.enterBank('TPP-A', owner(keyA), at, defaultDataSet), 'opened');
        assert.equal(await store.enterBank('TPP-A', owner(keyA), at, defaultDataSet), 'bound');
        assert.equal(await store.enterBank('TPP-A', owner(keyB), at, defaultDataSet), 'foreign');
        assert.equal(await store.enterBank('TPP-B', owner(keyB), at, defaultDataSet), 'opened', "B's own bank");
        assert.deepEqual(await store.listBanks(), ['TPP-A', 'TPP-B']);
      }));

    it('binds a bank made without a key (before migration 017) to the first key that comes, once, two instances at once included', () =>
      withStores(async (store, another) => {
        await store.openBank('TPP-A', at, defaultDataSet);
        const entries = await Promise.all([
          store.enterBank('TPP-A', owner(keyA), at, defaultDataSet),
          another.enterBank('TPP-A', owner(keyB), at, defaultDataSet),
        ]);
        assert.deepEqual([...entries].sort(), ['claimed', 'foreign']);
        const winner = entries[0] === 'claimed' ? keyA : keyB;
        assert.equal(await store.enterBank('TPP-A', owner(winner), at, defaultDataSet), 'bound');
      }));

    it('makes no more banks from one address than its limit of the day, two instances at once included; other addresses and older banks do not count', () =>
      withStores(async (store, another) => {
        const perAddress = { limit: 2, since: new Date(at.getTime() - 86_400_000) };
        await store.enterBank('OLD', owner(keyA, '192.0.2.1'), new Date(at.getTime() - 2 * 86_400_000), defaultDataSet);
        const tries = await Promise.allSettled(
          ['TPP-1', 'TPP-2', 'TPP-3'].map((bank, i) =>
            (i % 2 === 0 ? store : another).enterBank(bank, owner(keyA, '192.0.2.1', perAddress), at, defaultDataSet),
          ),
        );
        assert.equal(tries.filter((r) => r.status === 'fulfilled').length, 2, JSON.stringify(tries));
        assert.equal(
          tries.filter((r) => r.status === 'rejected' && r.reason instanceof AddressBankLimitReached).length,
          1,
        );
        assert.equal(
          await store.enterBank('TPP-4', owner(keyA, '192.0.2.2', perAddress), at, defaultDataSet),
          'opened',
          'another address',
        );
        const made = tries.findIndex((r) => r.status === 'fulfilled');
        assert.equal(
          await store.enterBank(`TPP-${made + 1}`, owner(keyA, '192.0.2.1', perAddress), at, defaultDataSet),
          'bound',
          'a bank made already is entered whatever the count',
        );
      }));

    it('admits a trusted certificate whatever its key, binding none, and then no self-service key claims the bank, two instances at once included', () =>
      withStores(async (store, another) => {
        const trusted = (key: string): BankOwner => ({ ...owner(key), trusted: true });
        assert.equal(await store.enterBank('TPP-T', trusted(keyA), at, defaultDataSet), 'opened');
        assert.equal(await store.enterBank('TPP-T', trusted(keyB), at, defaultDataSet), 'trusted');
        assert.deepEqual(await store.listBankKeys('TPP-T'), [], 'a trusted certificate binds no key');
        assert.equal(await store.enterBank('TPP-T', owner(keyA), at, defaultDataSet), 'foreign-trusted');
        // A bank of no key that was never trusted: a trusted certificate and a self-service key come at once.
        await store.openBank('TPP-OLD', at, defaultDataSet);
        const entries = await Promise.all([
          store.enterBank('TPP-OLD', trusted(keyB), at, defaultDataSet),
          another.enterBank('TPP-OLD', owner(keyA), at, defaultDataSet),
        ]);
        assert.equal(entries[0], 'trusted');
        const claimed = entries[1] === 'claimed';
        assert.ok(claimed || entries[1] === 'foreign-trusted', entries[1]);
        assert.equal(
          await store.enterBank('TPP-OLD', owner(keyA), at, defaultDataSet),
          claimed ? 'bound' : 'foreign-trusted',
          'the key claimed before the trusted certificate came keeps its bank; after, none claims it',
        );
        assert.equal(await store.enterBank('TPP-OLD', owner(keyB), at, defaultDataSet), 'foreign-trusted');
      }));

    it('unbinds the last key of a bank a trusted certificate used, and never of another', () =>
      withStores(async (store) => {
        await store.enterBank('TPP-A', owner(keyA), at, defaultDataSet);
        assert.equal(await store.unbindBankKey('TPP-A', keyA), 'last');
        assert.equal(await store.enterBank('TPP-A', { ...owner(keyB), trusted: true }, at, defaultDataSet), 'trusted');
        assert.equal(await store.unbindBankKey('TPP-A', keyA), 'unbound');
        assert.equal(await store.enterBank('TPP-A', owner(keyA), at, defaultDataSet), 'foreign-trusted');
      }));

    it("notes a bank's use, and not of a bank that does not exist", () =>
      withStores(async (store) => {
        await store.enterBank('TPP-A', owner(keyA), at, defaultDataSet);
        assert.equal(await store.touchBank('TPP-A', new Date(at.getTime() + 1000)), true);
        assert.equal(await store.touchBank('NO-SUCH', at), false);
      }));
  });

  describe('retention (docs/retention.md)', () => {
    const now = new Date('2026-11-20T10:00:00.000Z');
    const binding = (requestId: string, expiresAt: Date) => ({
      tppId: 'TPP-A',
      requestId,
      method: 'GET',
      target: '/v1/x',
      bodySha256: 'e3',
      scope: 'strict' as const,
      expiresAt,
    });

    it("claims each hour's run once, two instances at once included", () =>
      withStores(async (store, another) => {
        const claims = await Promise.all([
          store.claimRetentionRun('2026-11-20T10', now),
          another.claimRetentionRun('2026-11-20T10', now),
        ]);
        assert.deepEqual([...claims].sort(), [false, true]);
        const job = (s: Store) =>
          new RetentionJob(s, { mode: 'sandbox', idleDays: 30, bookkeepingYears: 5 }, { now: () => now });
        const runs = await Promise.all([job(store).runOnce(), job(another).runOnce()]);
        assert.equal(runs.filter((r) => r === undefined).length, 2, 'this hour is claimed already');
      }));

    it('deletes request bindings past their replay window in bounded chunks, and keeps those within it', () =>
      withStores(async (store) => {
        for (let i = 0; i < 5; i++) await store.bindRequest(binding(`old-${i}`, new Date(now.getTime() - 1000)), now);
        await store.bindRequest(binding('live', new Date(now.getTime() + 60_000)), now);
        assert.equal(await store.deleteRetained('request-bindings', now, 2), 2, 'one chunk is at most its rows');
        const job = new RetentionJob(
          store,
          { mode: 'sandbox', idleDays: 30, bookkeepingYears: 5, chunkRows: 2 },
          { now: () => now },
        );
        assert.equal((await job.sweep(now))['request-bindings'], 3);
        const again = await store.bindRequest(binding('live', new Date(now.getTime() + 60_000)), now);
        assert.equal(again?.requestId, 'live', 'the live binding is kept');
      }));

    it('removes a sandbox bank unused for the idle days with all its data, and keeps a bank in use', () =>
      withStores(async (store) => {
        const long = new Date(now.getTime() - 31 * 86_400_000);
        await store.enterBank('IDLE', owner(keyA), long, defaultDataSet);
        await store.enterBank('USED', owner(keyA), long, defaultDataSet);
        await store.touchBank('USED', new Date(now.getTime() - 86_400_000));
        const payment = newPayment({ tppId: 'IDLE' });
        await store.createPayment(payment, requestFor(payment), { duplicatesSince: null, bank: 'IDLE' });
        const job = new RetentionJob(
          store,
          { mode: 'sandbox', idleDays: 30, bookkeepingYears: 5, chunkRows: 3 },
          { now: () => now },
        );
        const report = await job.sweep(now);
        assert.equal(report.banks, 1);
        assert.ok((report['bank-rows'] ?? 0) > 20, JSON.stringify(report));
        assert.deepEqual(await store.listBanks(), ['USED']);
        assert.equal(await store.findCustomer('IDLE', { customerNumber: '13039319955' }), undefined);
        assert.equal(await store.findPayment('IDLE', payment.id, 'IDLE'), undefined);
        assert.notEqual(await store.findCustomer('USED', { customerNumber: '13039319955' }), undefined);
        assert.equal(
          await store.enterBank('IDLE', owner(keyB), now, defaultDataSet),
          'opened',
          'the identifier is free again',
        );
      }));

    it('keeps payments in production five years after the end of their financial year, and deletes older ones', () =>
      withStores(async (store) => {
        const old = newPayment({ tppId: 'TPP-A', createdAt: new Date('2020-06-01T10:00:00.000Z') });
        const kept = newPayment({ tppId: 'TPP-A', createdAt: new Date('2021-01-02T10:00:00.000Z') });
        for (const [payment, at] of [
          [old, '2020-12-30T10:00:00.000Z'],
          [kept, '2021-01-02T10:00:00.000Z'],
        ] as const) {
          await store.createPayment(payment, requestFor(payment), { duplicatesSince: null, bank: '' });
          await store.decidePayments(
            [{ paymentId: payment.id, status: 'RJCT', reason: 'test' }],
            undefined,
            new Date(at),
          );
        }
        const job = new RetentionJob(
          store,
          { mode: 'production', idleDays: 30, bookkeepingYears: 5 },
          { now: () => now },
        );
        assert.equal((await job.sweep(now)).payments, 1);
        assert.equal(await store.findPayment('TPP-A', old.id, ''), undefined, '2020 ended more than five years ago');
        assert.notEqual(await store.findPayment('TPP-A', kept.id, ''), undefined, '2021 is kept until the end of 2026');
      }));
  });
}
