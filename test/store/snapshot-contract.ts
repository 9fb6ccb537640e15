import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { NewSandboxTransaction } from '../../src/store/sandbox-records.js';
import type { SnapshotLimits } from '../../src/store/snapshot-records.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { newPayment, requestFor } from '../support/new-payment.js';
import type { StoreUnderTest } from './store-contract.js';

const at = new Date('2026-11-20T10:00:00.000Z');
const LIMITS: SnapshotLimits = { perBank: 20, rows: 50_000, bytes: 32 * 1024 * 1024 };
const key = (c: string) => c.repeat(64);

/** A posted transaction of an account, the i-th. */
export function postedTransaction(i: number, bookingDate = '2026-11-19'): NewSandboxTransaction {
  return {
    id: randomUUID(),
    amountMinor: BigInt(-1000 - i),
    currency: 'NOK',
    bookingDate,
    valueDate: bookingDate,
    remittance: `Posted ${i}`,
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

/** Sets every snapshot's schema to an older migration's, as a database migrated since would have it. */
async function ageSnapshots(store: Store): Promise<void> {
  const text = "update sandbox_snapshots set migration = '017-bank-owners'";
  if (store.kind === 'sqlite') (store as SqliteStore).connection.prepare(text).run();
  else await (store as PostgresStore).pool.query(text);
}

/** What the bank reads as, through the store: customers, accounts with balances and transactions, a payment, the clock. */
async function readBank(store: Store, bank: string, paymentId: string): Promise<unknown> {
  const customers = await store.listSandboxCustomers(bank, 0, 1000);
  const holdings = await store.sandboxCustomerHoldings(
    bank,
    customers.map((c) => c.id),
  );
  const accounts = [];
  for (const { accountIds } of holdings.values()) {
    for (const id of accountIds) {
      accounts.push({
        account: await store.findSandboxAccount(bank, id),
        transactions: await store.listSandboxTransactions(id, {
          fromDate: undefined,
          toDate: undefined,
          offset: 0,
          limit: 1000,
        }),
      });
    }
  }
  return {
    customers,
    holdings: [...holdings.entries()],
    accounts,
    payment: await store.findPayment(bank, paymentId, bank),
    clock: await store.readClockOffset(bank),
    lastSlot: await store.lastBatchSlot(bank),
  };
}

/** Sandbox snapshots: what every Store must do (run by store-contract.ts on both databases). */
export function snapshotContract(open: () => Promise<StoreUnderTest>): void {
  async function withStores(test: (store: Store, another: Store) => Promise<void>): Promise<void> {
    const { store, openAnother } = await open();
    const another = await openAnother();
    try {
      await store.migrate();
      for (const bank of ['TPP-A', 'TPP-B'])
        await store.enterBank(bank, { keySha256: key(bank.at(-1)!), address: '192.0.2.1' }, at, defaultDataSet);
      await test(store, another);
    } finally {
      if (another !== store) await another.close();
      await store.close();
    }
  }

  const snapshot = (name?: string) => ({ id: randomUUID(), name, createdAt: at });

  describe('sandbox snapshots (docs/sandbox.md, "Snapshots")', () => {
    it("puts a bank's rows and clock back as saved, and touches no other bank", () =>
      withStores(async (store) => {
        const ola = (await store.findCustomer('TPP-A', { customerNumber: '13039319955' }))!;
        const account = (await store.findAccount('TPP-A', { bban: '15061012343' }))!;
        await store.addSandboxTransactions(account.id, [postedTransaction(1), postedTransaction(2)], at);
        const payment = newPayment({ tppId: 'TPP-A' });
        await store.createPayment(payment, requestFor(payment, 'request-1'), { duplicatesSince: null, bank: 'TPP-A' });
        await store.writeClockOffset('TPP-A', 86_400_123n, at);
        await store.claimBatchRun('TPP-A', '2026-11-21T05:00:00.000Z', at);
        const before = await readBank(store, 'TPP-A', payment.id);
        const saved = await store.saveSnapshot('TPP-A', snapshot('first'), LIMITS);
        assert.equal(saved.outcome, 'saved');
        if (saved.outcome !== 'saved') return;
        assert.equal(saved.snapshot.clockOffsetMs, 86_400_123n);
        assert.equal(saved.snapshot.name, 'first');
        assert.ok(saved.snapshot.rowCount > 30 && saved.snapshot.sizeBytes > 0, `${saved.snapshot.rowCount} rows`);

        // Everything changes after the save, in A and in B.
        await store.addSandboxTransactions(account.id, [postedTransaction(3)], at);
        await store.deleteSandboxCustomer('TPP-A', ola.id);
        await store.decidePayments([{ paymentId: payment.id, status: 'RJCT', reason: 'test' }], undefined, at);
        const later = newPayment({ tppId: 'TPP-A' });
        await store.createPayment(later, requestFor(later, 'request-2'), { duplicatesSince: null, bank: 'TPP-A' });
        await store.writeClockOffset('TPP-A', 999_999_999n, at);
        await store.claimBatchRun('TPP-A', '2026-11-30T05:00:00.000Z', at);
        const ofB = newPayment({ tppId: 'TPP-B' });
        await store.createPayment(ofB, requestFor(ofB), { duplicatesSince: null, bank: 'TPP-B' });
        await store.writeClockOffset('TPP-B', 5_000n, at);
        const bBefore = await readBank(store, 'TPP-B', ofB.id);

        const restored = await store.restoreSnapshot('TPP-A', saved.snapshot.id, new Date(at.getTime() + 1000));
        assert.deepEqual(restored, { outcome: 'restored', snapshot: saved.snapshot });
        assert.deepEqual(await readBank(store, 'TPP-A', payment.id), before);
        assert.equal(await store.findPayment('TPP-A', later.id, 'TPP-A'), undefined);
        assert.notEqual(await store.findTppRequest('TPP-A', 'request-1'), undefined, 'the saved answer is back');
        assert.equal(await store.findTppRequest('TPP-A', 'request-2'), undefined, "the later one's is gone with it");
        assert.deepEqual(await readBank(store, 'TPP-B', ofB.id), bBefore, 'B is untouched');
        // The restored rows are whole: restoring again, and saving them again, changes nothing.
        await store.restoreSnapshot('TPP-A', saved.snapshot.id, at);
        assert.deepEqual(await readBank(store, 'TPP-A', payment.id), before);
        const again = await store.saveSnapshot('TPP-A', snapshot(), LIMITS);
        assert.equal(again.outcome === 'saved' && again.snapshot.rowCount, saved.snapshot.rowCount);
      }));

    it("keeps each bank's snapshots to itself: another bank's id is unknown to find, delete and restore", () =>
      withStores(async (store) => {
        const saved = await store.saveSnapshot('TPP-B', snapshot(), LIMITS);
        assert.equal(saved.outcome, 'saved');
        if (saved.outcome !== 'saved') return;
        assert.equal(await store.findSnapshot('TPP-A', saved.snapshot.id), undefined);
        assert.equal(await store.deleteSnapshot('TPP-A', saved.snapshot.id), false);
        assert.deepEqual(await store.restoreSnapshot('TPP-A', saved.snapshot.id, at), { outcome: 'unknown' });
        assert.deepEqual(await store.listSnapshots('TPP-A'), []);
        assert.deepEqual(await store.listSnapshots('TPP-B'), [saved.snapshot]);
        assert.deepEqual(await store.findSnapshot('TPP-B', saved.snapshot.id), saved.snapshot);
        assert.equal(await store.deleteSnapshot('TPP-B', saved.snapshot.id), true);
        assert.deepEqual(await store.listSnapshots('TPP-B'), []);
      }));

    it('saves no more than the limits allow, and nothing when refused; two instances at once included', () =>
      withStores(async (store, another) => {
        const one = { ...LIMITS, perBank: 1 };
        const saves = await Promise.all([
          store.saveSnapshot('TPP-A', snapshot(), one),
          another.saveSnapshot('TPP-A', snapshot(), one),
        ]);
        assert.deepEqual(saves.map((s) => s.outcome).sort(), ['saved', 'too-many']);
        assert.deepEqual(await store.saveSnapshot('TPP-B', snapshot(), { ...LIMITS, rows: 10 }), {
          outcome: 'too-many-rows',
          limit: 10,
        });
        const large = await store.saveSnapshot('TPP-B', snapshot(), { ...LIMITS, bytes: 100 });
        assert.equal(large.outcome, 'too-large');
        assert.deepEqual(await store.listSnapshots('TPP-B'), []);
        assert.equal((await store.listSnapshots('TPP-A')).length, 1);
      }));

    it('refuses to restore a snapshot saved in a schema before a later migration', () =>
      withStores(async (store) => {
        const saved = await store.saveSnapshot('TPP-A', snapshot(), LIMITS);
        assert.equal(saved.outcome, 'saved');
        if (saved.outcome !== 'saved') return;
        await ageSnapshots(store);
        assert.deepEqual(await store.restoreSnapshot('TPP-A', saved.snapshot.id, at), {
          outcome: 'stale',
          migration: '017-bank-owners',
        });
      }));

    it("goes with its bank when the bank is removed, and only that bank's", () =>
      withStores(async (store) => {
        for (const bank of ['TPP-A', 'TPP-B']) await store.saveSnapshot(bank, snapshot(), LIMITS);
        assert.equal(await store.markBankRemoving('TPP-A', new Date(at.getTime() + 1000)), true);
        while ((await store.deleteBankChunk('TPP-A', 5)) > 0);
        assert.deepEqual(await store.listSnapshots('TPP-A'), []);
        assert.equal((await store.listSnapshots('TPP-B')).length, 1);
        assert.deepEqual(await store.listBanks(), ['TPP-B']);
      }));
  });
}
