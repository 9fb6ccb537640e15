import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import { BankRowsEncoder, type TableRows, decodeBankPages, encodeFormatOne } from '../../src/store/bank-rows-codec.js';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { NewSandboxTransaction } from '../../src/store/sandbox-records.js';
import type { SnapshotLimits } from '../../src/store/snapshot-records.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { newPayment, requestFor } from '../support/new-payment.js';
import type { StoreUnderTest } from './store-under-test.js';

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
async function ageSnapshots(store: Store, migration = '017-bank-owners'): Promise<void> {
  const text = `update sandbox_snapshots set migration = '${migration}'`;
  if (store.kind === 'sqlite') (store as SqliteStore).connection.prepare(text).run();
  else await (store as PostgresStore).pool.query(text);
}

/** Runs one statement of SQL on either engine, with its rows. */
async function query(store: Store, text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (store.kind === 'sqlite') {
    const statement = (store as SqliteStore).connection.prepare(text.replace(/\$\d+/g, '?'));
    if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
    statement.run(...params);
    return [];
  }
  return (await (store as PostgresStore).pool.query(text, params)).rows as Record<string, unknown>[];
}

/** A payment of TPP-A, the bank as it reads with it, and a snapshot of the bank saved, with its stored data. */
async function savedWithPayment(
  store: Store,
): Promise<{ payment: ReturnType<typeof newPayment>; before: unknown; id: string; data: Buffer }> {
  const payment = newPayment({ tppId: 'TPP-A' });
  await store.createPayment(payment, requestFor(payment, 'request-1'), { duplicatesSince: null, bank: 'TPP-A' });
  const before = await readBank(store, 'TPP-A', payment.id);
  const saved = await store.saveSnapshot('TPP-A', { id: randomUUID(), name: undefined, createdAt: at }, LIMITS);
  if (saved.outcome !== 'saved') assert.fail(`the snapshot was ${saved.outcome}`);
  const [row] = await query(store, 'select data from sandbox_snapshots where id = $1', [saved.snapshot.id]);
  return { payment, before, id: saved.snapshot.id, data: row!.data as Buffer };
}

/** Counts the pages a save encodes, while `work` runs. */
async function encodedPages(work: () => Promise<unknown>): Promise<number> {
  const add = BankRowsEncoder.prototype.add;
  let pages = 0;
  BankRowsEncoder.prototype.add = function (this: BankRowsEncoder, ...args: Parameters<typeof add>) {
    pages++;
    return add.apply(this, args);
  };
  try {
    await work();
  } finally {
    BankRowsEncoder.prototype.add = add;
  }
  return pages;
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

    it('restores a snapshot saved before migrations that change no table it holds (the banks row, console tables)', () =>
      withStores(async (store) => {
        const saved = await store.saveSnapshot('TPP-A', snapshot(), LIMITS);
        assert.equal(saved.outcome, 'saved');
        if (saved.outcome !== 'saved') return;
        await ageSnapshots(store, '022-psu-session-customer');
        assert.equal((await store.restoreSnapshot('TPP-A', saved.snapshot.id, at)).outcome, 'restored');
      }));

    it('restores a snapshot saved before migration 032 dropped payments.changed_at_ms, whose payments still hold it', () =>
      withStores(async (store) => {
        const { payment, before, id, data } = await savedWithPayment(store);
        // The payments' rows as 031's schema wrote them: with the column, null in a sandbox bank's rows.
        const encoder = new BankRowsEncoder(LIMITS.bytes);
        let widened = 0;
        for await (const page of decodeBankPages(data, [], 1000)) {
          const objects = page.rows.map((values) =>
            Object.fromEntries(page.columns.flatMap((c, i) => [[c, values[i]]])),
          );
          if (page.table === 'payments')
            for (const object of objects) {
              object.changed_at_ms = null;
              widened++;
            }
          encoder.add(page.table, objects);
        }
        assert.ok(widened > 0, 'the snapshot holds the payment');
        await query(store, 'update sandbox_snapshots set data = $1 where id = $2', [await encoder.finish(), id]);
        // Its schema, as the snapshot names it, is unchanged: 032 is among MIGRATIONS_OUTSIDE_SNAPSHOTS.

        await store.decidePayments([{ paymentId: payment.id, status: 'RJCT', reason: 'test' }], undefined, at);
        assert.equal((await store.restoreSnapshot('TPP-A', id, at)).outcome, 'restored');
        assert.deepEqual(await readBank(store, 'TPP-A', payment.id), before);
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
    it('refuses a bank over the row limit from a bounded count, before one row is encoded; stops encoding once the rows pass the byte limit', () =>
      withStores(async (store) => {
        const account = (await store.findAccount('TPP-A', { bban: '15061012343' }))!;
        for (let i = 0; i < 3; i++)
          await store.addSandboxTransactions(
            account.id,
            Array.from({ length: 1000 }, (_, j) => postedTransaction(i * 1000 + j)),
            at,
          );
        let refused: unknown;
        assert.equal(
          await encodedPages(async () => {
            refused = await store.saveSnapshot('TPP-A', snapshot(), { ...LIMITS, rows: 2000 });
          }),
          0,
        );
        assert.deepEqual(refused, { outcome: 'too-many-rows', limit: 2000 });
        const whole = await encodedPages(() => store.saveSnapshot('TPP-B', snapshot(), LIMITS));
        const partial = await encodedPages(async () => {
          refused = await store.saveSnapshot('TPP-A', snapshot(), { ...LIMITS, bytes: 2000 });
        });
        assert.equal((refused as { outcome: string }).outcome, 'too-large');
        assert.ok(
          partial < whole,
          `${partial} pages encoded of a bank over the limit, ${whole} of a whole smaller bank`,
        );
        assert.deepEqual(await store.listSnapshots('TPP-A'), []);
      }));

    it("finishes a restore a crash left half done (the bank's mark) at the next start: exactly the snapshot's rows", () =>
      withStores(async (store) => {
        const account = (await store.findAccount('TPP-A', { bban: '15061012343' }))!;
        const payment = newPayment({ tppId: 'TPP-A' });
        await store.createPayment(payment, requestFor(payment, 'request-1'), { duplicatesSince: null, bank: 'TPP-A' });
        await store.writeClockOffset('TPP-A', 3_600_000n, at);
        const before = await readBank(store, 'TPP-A', payment.id);
        const saved = await store.saveSnapshot('TPP-A', snapshot(), LIMITS);
        assert.equal(saved.outcome, 'saved');
        if (saved.outcome !== 'saved') return;
        const bBefore = await readBank(store, 'TPP-B', payment.id);
        // As a crash between slices leaves it: marked, some rows deleted, others added.
        await store.addSandboxTransactions(account.id, [postedTransaction(7)], at);
        await query(store, 'delete from engagements where bank = $1', ['TPP-A']);
        await store.writeClockOffset('TPP-A', 9_000_000n, at);
        await query(store, 'update banks set restoring = $1 where bank = $2', [saved.snapshot.id, 'TPP-A']);

        assert.deepEqual(await store.finishRestores(at), ['TPP-A']);
        assert.deepEqual(await readBank(store, 'TPP-A', payment.id), before);
        assert.deepEqual(await readBank(store, 'TPP-B', payment.id), bBefore, 'B is untouched');
        assert.deepEqual(await store.finishRestores(at), [], 'the mark is cleared');
      }));

    it('still restores a snapshot of format 1, one JSON document of every table', () =>
      withStores(async (store) => {
        const account = (await store.findAccount('TPP-A', { bban: '15061012343' }))!;
        await store.addSandboxTransactions(account.id, [postedTransaction(1), postedTransaction(2)], at);
        const { payment, before, id, data } = await savedWithPayment(store);
        const tables: Record<string, TableRows> = {};
        for await (const page of decodeBankPages(data, [], 1000)) {
          const table = (tables[page.table] ??= { columns: page.columns, rows: [] });
          table.rows.push(...page.rows);
        }
        const formatOne = await encodeFormatOne(tables);
        await query(store, 'update sandbox_snapshots set data = $1 where id = $2', [formatOne, id]);

        await store.addSandboxTransactions(account.id, [postedTransaction(3)], at);
        await store.writeClockOffset('TPP-A', 77_000n, at);
        assert.equal((await store.restoreSnapshot('TPP-A', id, at)).outcome, 'restored');
        assert.deepEqual(await readBank(store, 'TPP-A', payment.id), before);
      }));

    it('lets one bulk operation hold a bank at a time, across instances, until it frees it or its lease runs out', () =>
      withStores(async (store, another) => {
        const until = new Date(at.getTime() + 60_000);
        assert.equal(await store.takeBulkLease('TPP-A', { holder: 'snapshot save 1', now: at, until }), undefined);
        assert.deepEqual(await another.takeBulkLease('TPP-A', { holder: 'snapshot restore 2', now: at, until }), {
          holder: 'snapshot save 1',
          until,
        });
        assert.equal(await another.takeBulkLease('TPP-B', { holder: 'initialize 3', now: at, until }), undefined);
        await another.releaseBulkLease('TPP-A', 'snapshot restore 2');
        assert.notEqual(await another.takeBulkLease('TPP-A', { holder: 'x 4', now: at, until }), undefined);
        await store.releaseBulkLease('TPP-A', 'snapshot save 1');
        assert.equal(await another.takeBulkLease('TPP-A', { holder: 'x 5', now: at, until }), undefined);
        // Its holder died: past its time, the lease is free.
        assert.equal(
          await store.takeBulkLease('TPP-A', { holder: 'x 6', now: until, until: new Date(until.getTime() + 1) }),
          undefined,
        );
      }));
  });
}
