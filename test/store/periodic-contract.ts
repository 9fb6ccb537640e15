import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planExecution } from '../../src/domain/payment-execution.js';
import { scheduleOf } from '../../src/domain/payments/periodic-payment.js';
import { nextExecution } from '../../src/domain/periodic/schedule.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import type { NewPayment } from '../../src/domain/payments/payment.js';
import type { Store } from '../../src/store/store.js';
import { requestFor } from '../support/new-payment.js';
import { newStandingOrder } from '../support/periodic-requests.js';
import type { StoreUnderTest } from './store-under-test.js';

const BANK = 'PSDNO-FSA-222222222';
/** The TPP of the orders (test/support/new-payment.ts). */
const TPP = 'PSDNO-FSA-111111111';
const OLA_CURRENT = '15061012343';
const rates = new ReferenceRates(SANDBOX_REFERENCE_RATES);
const plan = (payment: Parameters<typeof planExecution>[0], debtor: Parameters<typeof planExecution>[1]) =>
  planExecution(payment, debtor, rates);
const next = (body: unknown, afterSeq: number | undefined) => nextExecution(scheduleOf(body), afterSeq);

/** Standing orders' executions: what every Store must do (run by store-contract.ts on both databases). */
export function periodicContract(open: () => Promise<StoreUnderTest>): void {
  async function withBank(test: (store: Store, another: Store) => Promise<void>): Promise<void> {
    const { store, openAnother } = await open();
    const another = await openAnother();
    try {
      await store.migrate();
      // Without the data set's own standing order: these tests count executions of theirs only.
      await store.openBank(BANK, new Date(), (at) => ({ ...defaultDataSet(at), standingOrders: [] }));
      await test(store, another);
    } finally {
      await another.close();
      await store.close();
    }
  }

  /** Stores the orders and authorises them. */
  async function authorised(store: Store, orders: NewPayment[]): Promise<string[]> {
    for (const order of orders)
      await store.createPayment(order, requestFor(order), { duplicatesSince: null, bank: BANK });
    const ids = orders.map((o) => o.id);
    await store.decidePayments(
      ids.map((paymentId) => ({ paymentId, status: 'ACTC', reason: undefined })),
      undefined,
      new Date(),
    );
    return ids;
  }

  /** Executes everything due on or before `date`, chunk by chunk, as the runner does. */
  async function runDue(store: Store, date: string, chunk = 100): Promise<number> {
    let executed = 0;
    for (;;) {
      const due = await store.findDuePeriodicPayments(BANK, date, chunk);
      if (due.length === 0) return executed;
      const outcomes = await store.executePeriodicPayments(BANK, due, date, new Date(), plan, next);
      if (outcomes.length === 0) return executed;
      executed += outcomes.length;
    }
  }

  async function balance(store: Store): Promise<bigint> {
    return (await store.findAccount(BANK, { bban: OLA_CURRENT }))!.balanceMinor;
  }

  describe('standing orders (periodic executions)', () => {
    it('tells each execution of a subscribed order, and its status changes, to its subscription of PROCESS, in order', () =>
      withBank(async (store) => {
        const order = newStandingOrder({ startDate: '2026-12-01', endDate: '2027-01-31', dayOfExecution: '15' });
        const subscription = {
          resource: { kind: 'payment' as const, id: order.id },
          uri: 'https://hooks.tpp.example/n',
          content: ['PROCESS' as const],
        };
        await store.createPayment(order, { ...requestFor(order), subscription }, { duplicatesSince: null, bank: BANK });
        await store.decidePayments([{ paymentId: order.id, status: 'ACTC', reason: undefined }], undefined, new Date());
        assert.equal(await runDue(store, '2027-02-01'), 2);
        const told = (await store.listNotifications(TPP, 10)).reverse();
        assert.deepEqual(
          told.map((e) => [e.subject.kind, e.subject.id, e.status, e.last]),
          [
            ['payment', order.id, 'ACTC', false],
            ['execution', `${order.id}/0`, 'ACSC', false],
            ['execution', `${order.id}/1`, 'ACSC', false],
            ['payment', order.id, 'ACSC', true],
          ],
        );
      }));

    it('lists the standing orders running from an account (listStandingOrders), none of another account', () =>
      withBank(async (store) => {
        const [id] = await authorised(store, [newStandingOrder({ startDate: '2026-12-01', dayOfExecution: '15' })]);
        const account = (await store.findAccount(BANK, { bban: OLA_CURRENT }))!;
        const listed = await store.listStandingOrders(BANK, account, 10);
        assert.deepEqual(
          listed.map((o) => [o.paymentId, o.status, o.nextExecutionDate]),
          [[id, 'ACTC', '2026-12-15']],
        );
        assert.equal((listed[0]?.body as { frequency?: string }).frequency, 'Monthly');
        assert.deepEqual(await store.listStandingOrders(BANK, { bban: '12345678903', iban: '' }, 10), []);
      }));

    it('books each execution once on its date, moves the order to the next, ends it after the last, and leaves batch runs alone', () =>
      withBank(async (store) => {
        const [id] = await authorised(store, [
          newStandingOrder({ startDate: '2026-12-01', endDate: '2027-02-28', dayOfExecution: '15' }),
        ]);
        const before = await balance(store);
        assert.deepEqual(await store.findDuePaymentIds(BANK, '2099-01-01', 10), [], 'not a payment of the batch runs');
        assert.deepEqual(await store.findDuePeriodicPayments(BANK, '2026-12-14', 10), []);
        assert.deepEqual(await store.findPeriodicOrder(id!), { nextExecutionDate: '2026-12-15', executions: [] });
        assert.equal(await runDue(store, '2026-12-15'), 1);
        assert.equal(await runDue(store, '2026-12-15'), 0, 'once');
        assert.equal((await store.findPeriodicOrder(id!))?.nextExecutionDate, '2027-01-15');
        assert.equal(await runDue(store, '2027-03-01'), 2, 'January and February, in one catch-up');
        const order = (await store.findPeriodicOrder(id!))!;
        assert.equal(order.nextExecutionDate, undefined);
        assert.deepEqual(
          order.executions.map((e) => [e.seq, e.executionDate, e.status]),
          [
            [2, '2027-02-15', 'ACSC'],
            [1, '2027-01-15', 'ACSC'],
            [0, '2026-12-15', 'ACSC'],
          ],
        );
        assert.equal((await store.findPayment(TPP, id!, BANK))?.status, 'ACSC', 'ended by its schedule');
        assert.equal(await balance(store), before - 30_000n);
        const account = (await store.findAccount(BANK, { bban: OLA_CURRENT }))!;
        const booked = await store.aisTransactions(account.id, {
          dateFrom: undefined,
          dateTo: undefined,
          after: undefined,
          limit: 10,
        });
        assert.deepEqual(
          booked.map((b) => [b.bookingDate, b.bankTransactionCode]),
          [
            ['2026-12-15', 'PMNT-ICDT-DMCT'],
            ['2027-01-15', 'PMNT-ICDT-DMCT'],
            ['2027-02-15', 'PMNT-ICDT-DMCT'],
          ],
        );
      }));

    it('rejects an execution the account cannot cover and keeps the order running', () =>
      withBank(async (store) => {
        const [id] = await authorised(store, [
          newStandingOrder({ startDate: '2026-12-01', dayOfExecution: '15' }, { amountMinor: 100_000_000n }),
        ]);
        const before = await balance(store);
        assert.equal(await runDue(store, '2026-12-15'), 1);
        const order = (await store.findPeriodicOrder(id!))!;
        assert.deepEqual(
          order.executions.map((e) => [e.executionDate, e.status]),
          [['2026-12-15', 'RJCT']],
        );
        assert.match(order.executions[0]!.statusReason ?? '', /insufficient funds/);
        assert.equal(order.nextExecutionDate, '2027-01-15');
        assert.equal(await balance(store), before);
      }));

    it('stops executing an order cancelled (the cancellation ends it); the executions made stay', () =>
      withBank(async (store) => {
        const order = newStandingOrder({ startDate: '2026-12-01', dayOfExecution: '15' });
        const [id] = await authorised(store, [order]);
        assert.equal(await runDue(store, '2026-12-15'), 1);
        assert.deepEqual(await store.cancelPayment(TPP, id!, new Date(), 'cancel-1'), { outcome: 'cancelled' });
        assert.equal(await runDue(store, '2027-06-30'), 0);
        assert.deepEqual(
          (await store.findPeriodicOrder(id!))?.executions.map((e) => e.executionDate),
          ['2026-12-15'],
        );
        assert.equal((await store.findPeriodicOrder(id!))?.nextExecutionDate, undefined);
      }));

    it('books every execution once when two instances execute the same orders at once, each many times', () =>
      withBank(async (store, another) => {
        const orders = Array.from({ length: 40 }, () =>
          newStandingOrder(
            { startDate: '2026-12-01', endDate: '2027-02-28', dayOfExecution: '15' },
            { amountMinor: 100n },
          ),
        );
        const ids = await authorised(store, orders);
        const before = await balance(store);
        const runs = await Promise.all([
          runDue(store, '2027-03-01', 7),
          runDue(another, '2027-03-01', 7),
          runDue(store, '2027-03-01', 13),
          runDue(another, '2027-03-01', 13),
        ]);
        assert.equal(
          runs.reduce((a, b) => a + b, 0),
          120,
          `three executions of 40 orders, each booked by one run: ${JSON.stringify(runs)}`,
        );
        assert.equal(await balance(store), before - 120n * 100n);
        for (const id of ids) assert.equal((await store.findPeriodicOrder(id))?.executions.length, 3);
      }));
  });
}
