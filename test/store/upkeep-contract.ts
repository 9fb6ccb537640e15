import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AddressBankLimitReached, type BankOwner } from '../../src/domain/bank.js';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import type { Store } from '../../src/store/store.js';
import type { StoreUnderTest } from './store-contract.js';

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

    it('binds a bank made without a key (before migration 016) to the first key that comes, once, two instances at once included', () =>
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

    it("notes a bank's use, and not of a bank that does not exist", () =>
      withStores(async (store) => {
        await store.enterBank('TPP-A', owner(keyA), at, defaultDataSet);
        assert.equal(await store.touchBank('TPP-A', new Date(at.getTime() + 1000)), true);
        assert.equal(await store.touchBank('NO-SUCH', at), false);
      }));
  });
}
