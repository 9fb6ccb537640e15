import { ndctOrder } from '../support/core-orders.js';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { BankCore } from '../../src/core/bank-core.js';
import type { CoreReport } from '../../src/core/core-records.js';
import { readFeedToEnd, readFeedUntil } from '../support/core-feed.js';
import type { Store } from '../../src/store/store.js';
import { bulkBody } from '../support/payment-requests.js';
import { periodicBody } from '../support/periodic-requests.js';

/** A core as the contract suite drives it: the port, the store behind it (to add test data), and its batch. */
export interface CoreUnderTest {
  core: BankCore;
  store: Store;
  /** Runs the core's batch now (the reference core's POST /admin/run-batch). */
  runBatch(): Promise<void>;
  close(): Promise<void>;
}

const OLA = '13039319955';
const OLA_CURRENT = '15061012343';
const OLA_SAVINGS = '15061012351';
const PER_CURRENT = '15062073540';
const NORDLYS_AGREEMENT = 'AGR-18129215603';
const NORDLYS_OPERATING = '15062056786';
const NORDLYS_TAX = '15062056794';

const order = ndctOrder;

/** A start date of a standing order within the year ahead, and after this month's 20th. */
function firstOfMonthAfterNext(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1)).toISOString().slice(0, 10);
}

/**
 * One suite of the port's semantics (docs/core.md), run against the embedded core in process
 * (test/core/embedded-core.test.ts) and the reference core over HTTP (test/core/reference-core.test.ts):
 * what a bank's own core adapter must answer too.
 */
export function coreContract(name: string, open: () => Promise<CoreUnderTest>): void {
  describe(`the core contract: ${name}`, () => {
    let t: CoreUnderTest;
    let core: BankCore;
    before(async () => {
      t = await open();
      core = t.core;
    });
    after(() => t.close());

    /** How many transactions a payment booked on an account (its debit, and its fee when it has one). */
    async function bookedBy(accountId: string, paymentId: string): Promise<number> {
      const page = await core.aisTransactions(accountId, {
        dateFrom: undefined,
        dateTo: undefined,
        after: undefined,
        limit: 500,
      });
      return page.filter((tx) => tx.paymentId === paymentId).length;
    }

    it('finds a customer by national identity number and by id, and nobody else', async () => {
      const ola = await core.findCustomer('', { customerNumber: OLA });
      assert.equal(ola?.name, 'Ola Nordmann');
      assert.equal(ola?.type, 'PRIVATE');
      assert.deepEqual(await core.findCustomer('', { id: ola!.id }), ola);
      assert.equal(await core.findCustomer('', { customerNumber: '01010112345' }), undefined);
      assert.equal(await core.findCustomer('', { id: 'enc!!nobody' }), undefined);
    });

    it('finds an agreement and a person’s engagement on its accounts', async () => {
      const ola = (await core.findCustomer('', { customerNumber: OLA }))!;
      const agreement = await core.findAgreement('', NORDLYS_AGREEMENT);
      assert.equal(agreement?.name, 'Nordlys Handel AS nettbank');
      const operating = (await core.findAccount('', { bban: NORDLYS_OPERATING }))!;
      const tax = (await core.findAccount('', { bban: NORDLYS_TAX }))!;
      assert.deepEqual((await core.findEngagement('', NORDLYS_AGREEMENT, ola.id, operating.id))?.roles, [
        'VIEW',
        'REGISTER',
      ]);
      assert.deepEqual((await core.findEngagement('', NORDLYS_AGREEMENT, ola.id, tax.id))?.roles, ['VIEW']);
      assert.equal(await core.findAgreement('', 'AGR-none'), undefined);
      assert.equal(await core.findEngagement('', 'AGR-none', ola.id, tax.id), undefined);
    });

    it('finds an account by BBAN and by IBAN, with its balance in minor units', async () => {
      const ola = (await core.findCustomer('', { customerNumber: OLA }))!;
      const byBban = (await core.findAccount('', { bban: OLA_SAVINGS }))!;
      assert.equal(byBban.customerId, ola.id);
      assert.equal(byBban.cashAccountType, 'SVGS');
      assert.equal(typeof byBban.balanceMinor, 'bigint');
      assert.deepEqual(await core.findAccount('', { iban: byBban.iban }), byBban);
      assert.equal(await core.findAccount('', { bban: '99999999999' }), undefined);
    });

    it('lists the accounts a customer may share: their own, or an agreement’s they may view', async () => {
      const ola = (await core.findCustomer('', { customerNumber: OLA }))!;
      const own = await core.shareableAccounts('', ola.id, undefined);
      assert.deepEqual(own.accounts.map((a) => a.bban).sort(), [OLA_CURRENT, OLA_SAVINGS]);
      assert.equal(own.accounts[0]!.ownerName, 'Ola Nordmann');
      const corporate = await core.shareableAccounts('', ola.id, NORDLYS_AGREEMENT);
      assert.deepEqual(corporate.accounts.map((a) => a.bban).sort(), [NORDLYS_OPERATING, NORDLYS_TAX]);
      assert.equal(corporate.accounts[0]!.ownerType, 'CORPORATE');
    });

    it('pages an account’s transactions by position, and finds one', async () => {
      const account = (await core.findAccount('', { bban: PER_CURRENT }))!;
      const all = await core.aisTransactions(account.id, {
        dateFrom: undefined,
        dateTo: undefined,
        after: undefined,
        limit: 500,
      });
      assert.ok(all.length >= 2, 'the default standing order has executions booked');
      const first = await core.aisTransactions(account.id, {
        dateFrom: undefined,
        dateTo: undefined,
        after: undefined,
        limit: 1,
      });
      const last = first.at(-1)!;
      const rest = await core.aisTransactions(account.id, {
        dateFrom: undefined,
        dateTo: undefined,
        after: { bookingDate: last.bookingDate, seq: last.seq },
        limit: 500,
      });
      assert.deepEqual([...first, ...rest], all);
      assert.equal(typeof last.amountMinor, 'bigint');
      const { bulk: _bulk, ...one } = last;
      assert.deepEqual(await core.findTransaction(account.id, last.id), one);
      assert.equal(await core.findTransaction(account.id, 'enc!!none'), undefined);
      const none = await core.aisTransactions(account.id, {
        dateFrom: '1990-01-01',
        dateTo: '1990-12-31',
        after: undefined,
        limit: 10,
      });
      assert.deepEqual(none, []);
    });

    it('pages a card account’s transactions', async () => {
      const ola = (await core.findCustomer('', { customerNumber: OLA }))!;
      const cardId = `card-${randomUUID()}`;
      const at = new Date();
      assert.ok(
        await t.store.createSandboxCardAccount('', {
          id: cardId,
          customerId: ola.id,
          maskedPan: '4321xxxxxxxx1234',
          name: 'Visa',
          product: 'Gold',
          currency: 'NOK',
          creditLimitMinor: 5_000_000n,
          balanceMinor: 0n,
          body: { cardAccountStatus: 'enabled' },
          createdAt: at,
        }),
      );
      await t.store.addSandboxCardTransactions(
        cardId,
        [1, 2, 3].map((n) => ({
          id: `${cardId}-t${n}`,
          bookingDate: `2026-10-0${n}`,
          body: { cardTransactionId: `${cardId}-t${n}` },
        })),
        at,
      );
      const shared = await core.shareableAccounts('', ola.id, undefined);
      assert.equal(shared.cards.find((c) => c.id === cardId)?.creditLimitMinor, 5_000_000n);
      const page = await core.aisCardTransactions(cardId, {
        dateFrom: undefined,
        dateTo: undefined,
        after: undefined,
        limit: 2,
      });
      assert.equal(page.length, 2);
      const rest = await core.aisCardTransactions(cardId, {
        dateFrom: undefined,
        dateTo: undefined,
        after: { bookingDate: page[1]!.bookingDate, seq: page[1]!.seq },
        limit: 10,
      });
      assert.deepEqual(
        [...page, ...rest].map((c) => c.id),
        [1, 2, 3].map((n) => `${cardId}-t${n}`),
      );
    });

    it('takes a hand-over once by its paymentId, and executes it once', async () => {
      const o = order();
      const first = await core.submitPayment('', o);
      assert.equal(first.transactionStatus, 'ACSP');
      assert.equal(first.paymentId, o.paymentId);
      const again = await core.submitPayment('', o);
      assert.equal(again.transactionStatus, 'ACSP');
      const account = (await core.findAccount('', { bban: OLA_CURRENT }))!;
      const pending = await core.pendingPayments('', { bban: account.bban, iban: account.iban }, 100);
      const mine = pending.filter((p) => p.id === o.paymentId);
      assert.equal(mine.length, 1, 'handed over twice, pending once');
      assert.equal(mine[0]!.transfers[0]!.amountMinor, 25_000n);
      await t.runBatch();
      assert.equal((await core.paymentReport('', o.paymentId))?.transactionStatus, 'ACSC');
      assert.equal((await core.submitPayment('', o)).transactionStatus, 'ACSC', 'a third hand-over changes nothing');
      await t.runBatch();
      assert.equal(await bookedBy(account.id, o.paymentId), 1, 'one debit');
      assert.equal((await core.pendingPayments('', account, 100)).filter((p) => p.id === o.paymentId).length, 0);
      assert.equal(await core.paymentReport('', `enc!!unknown-${randomUUID()}`), undefined);
    });

    it('executes an instant payment (Straks) when it is handed over, once', async () => {
      const o = order({ paymentProduct: 'instant-norwegian-domestic-credit-transfers-straks' });
      const report = await core.submitPayment('', o);
      assert.equal(report.transactionStatus, 'ACSC', report.statusReason);
      assert.equal((await core.submitPayment('', o)).transactionStatus, 'ACSC');
      await t.runBatch();
      const account = (await core.findAccount('', { bban: OLA_CURRENT }))!;
      assert.equal(await bookedBy(account.id, o.paymentId), 1, 'one debit');
    });

    it('reports a bulk’s entries once it executed', async () => {
      const o = order({
        paymentService: 'bulk-payments',
        initiation: { ...bulkBody(2), debtorAccount: { bban: OLA_CURRENT, currency: 'NOK' } },
      });
      assert.equal((await core.submitPayment('', o)).transactionStatus, 'ACSP');
      await t.runBatch();
      const report = (await core.paymentReport('', o.paymentId))!;
      assert.equal(report.transactionStatus, 'ACSC');
      assert.deepEqual(
        report.entries?.map((e) => [e.seq, e.status]),
        [
          [0, 'ACSC'],
          [1, 'ACSC'],
        ],
      );
    });

    it('keeps a standing order with its schedule: its next execution date, no executions yet', async () => {
      const o = order({
        paymentService: 'periodic-payments',
        initiation: periodicBody({
          debtorAccount: { bban: OLA_CURRENT, currency: 'NOK' },
          startDate: firstOfMonthAfterNext(),
        }),
      });
      const report = await core.submitPayment('', o);
      assert.equal(report.transactionStatus, 'PDNG', report.statusReason);
      assert.ok(report.nextExecutionDate! > firstOfMonthAfterNext(), report.nextExecutionDate);
      assert.deepEqual(report.executions, []);
    });

    it('rejects an order its product’s rules refuse, with the ISO 20022 reason', async () => {
      const o = order({ paymentProduct: 'no-such-product' });
      const report = await core.submitPayment('', o);
      assert.equal(report.transactionStatus, 'RJCT');
      assert.match(report.statusReason!, /^MS03 /);
      assert.equal((await core.submitPayment('', o)).transactionStatus, 'RJCT');
    });

    it('cancels a payment before it executes, and refuses after', async () => {
      const before = order();
      await core.submitPayment('', before);
      assert.deepEqual(await core.cancelPayment('', before.paymentId), { outcome: 'cancelled' });
      assert.deepEqual(await core.cancelPayment('', before.paymentId), { outcome: 'cancelled' }, 'again: the same');
      const executed = order();
      await core.submitPayment('', executed);
      await t.runBatch();
      assert.equal((await core.paymentReport('', before.paymentId))?.transactionStatus, 'CANC');
      assert.deepEqual(await core.cancelPayment('', executed.paymentId), {
        outcome: 'not-cancellable',
        transactionStatus: 'ACSC',
      });
      const account = (await core.findAccount('', { bban: OLA_CURRENT }))!;
      assert.equal(await bookedBy(account.id, before.paymentId), 0);
    });

    it('remembers a cancellation of a payment it never received: its hand-over is then CANC', async () => {
      const o = order();
      assert.deepEqual(await core.cancelPayment('', o.paymentId), { outcome: 'cancelled' });
      assert.equal((await core.submitPayment('', o)).transactionStatus, 'CANC');
      await t.runBatch();
      assert.equal((await core.paymentReport('', o.paymentId))?.transactionStatus, 'CANC');
    });

    it('feeds status changes after a cursor, oldest first', async () => {
      const read = (cursor: string | undefined) => core.statusReports('', cursor, 100);
      const start = await readFeedToEnd(read, undefined);
      const o = order();
      await core.submitPayment('', o);
      // Other payments' changes may come out too (on PostgreSQL, ones an earlier test made that a
      // transaction of another test file held back): only this payment's are asserted.
      const ofOrder = (reports: CoreReport[]) =>
        reports.filter((r) => r.paymentId === o.paymentId).map((r) => r.transactionStatus);
      const accepted = await readFeedUntil(read, start, (reports) => ofOrder(reports).length > 0);
      assert.deepEqual(ofOrder(accepted.reports), ['ACSP']);
      await t.runBatch();
      const executed = await readFeedUntil(read, accepted.cursor, (reports) => ofOrder(reports).length > 0);
      assert.deepEqual(ofOrder(executed.reports), ['ACSC']);
      assert.ok(executed.reports.every((r) => Number.isFinite(r.at.getTime())));
      // Read to the end: the empty page there answers the same cursor.
      await readFeedToEnd(read, executed.cursor);
    });
  });
}
