import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { NewAuthorisation } from '../../src/store/sca-records.js';
import type { Store } from '../../src/store/store.js';
import type { RequestBinding } from '../../src/domain/request-binding.js';
import { migrations } from '../../src/store/migrations/index.js';
import { BankLimitReached } from '../../src/domain/bank.js';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import { duplicateKeyOf, newPayment, requestFor } from '../support/new-payment.js';
import { LOGICAL_DUPLICATE_WINDOW_HOURS } from '../../src/domain/limits.js';
import { periodicContract } from './periodic-contract.js';
import { scenarioContract } from './scenario-contract.js';
import { unattendedReadContract } from './unattended-read-contract.js';
import { upkeepContract } from './upkeep-contract.js';
import { snapshotContract } from './snapshot-contract.js';
import { bankOverviewContract } from './bank-overview-contract.js';
import { consoleSessionContract } from './console-session-contract.js';
import { notificationContract } from './notification-contract.js';
import { notificationOutboxContract } from './notification-outbox-contract.js';
import type { StoreUnderTest } from './store-under-test.js';
import { newAuthorisation } from '../support/new-authorisation.js';

export type { StoreUnderTest } from './store-under-test.js';

/** The start of the logical-duplicate window, as the service gives it to the store. */
const windowStart = () => new Date(Date.now() - LOGICAL_DUPLICATE_WINDOW_HOURS * 3_600_000);

/**
 * `open` gives a fresh store on an empty database; asked for 'migrated', it may give one already at
 * the latest schema (a copy of PostgreSQL's template, test/support/postgres.ts), for the tests of what
 * runs on a migrated store rather than of the migration: their migrate() then finds nothing to do.
 */
export function storeContract(
  kind: 'sqlite' | 'postgres',
  open: (schema?: 'migrated') => Promise<StoreUnderTest>,
): void {
  const openMigrated = () => open('migrated');
  /** Runs a test on a fresh, migrated store and closes it whatever happens. */
  async function withMigratedStore(test: (store: Store) => Promise<void>): Promise<void> {
    const { store } = await openMigrated();
    try {
      await store.migrate();
      await test(store);
    } finally {
      await store.close();
    }
  }

  describe(`Store contract: ${kind}`, () => {
    it('reports its kind', async () => {
      const { store } = await open();
      try {
        assert.equal(store.kind, kind);
      } finally {
        await store.close();
      }
    });

    it('migrates to the latest version, and running it again changes nothing', async () => {
      const { store } = await open();
      try {
        await store.migrate();
        const first = await store.appliedMigrations();
        assert.deepEqual(first, Object.keys(migrations).sort());
        await store.migrate();
        assert.deepEqual(await store.appliedMigrations(), first);
      } finally {
        await store.close();
      }
    });

    it('migrates from two instances at once without conflict', async () => {
      const { store, openAnother } = await open();
      const another = await openAnother();
      try {
        await Promise.all([store.migrate(), another.migrate()]);
        assert.deepEqual(await another.appliedMigrations(), await store.appliedMigrations());
      } finally {
        await another.close();
        await store.close();
      }
    });

    it('answers a ping while open and rejects one after close', async () => {
      const { store } = await open();
      await store.ping();
      await store.close();
      await assert.rejects(store.ping());
    });

    describe('request bindings (X-Request-ID bound to the request it was signed for)', () => {
      const binding = (requestId: string, changes: Partial<RequestBinding> = {}): RequestBinding => ({
        tppId: 'PSDNO-FSA-1',
        requestId,
        method: 'GET',
        target: '/v1/x',
        bodySha256: 'e3b0',
        scope: 'strict',
        expiresAt: new Date('2030-01-01T00:00:00Z'),
        ...changes,
      });
      const now = new Date('2026-11-22T12:00:00Z');

      it('binds on first use and returns the earlier binding on the next, writing nothing', () =>
        withMigratedStore(async (store) => {
          assert.equal(await store.bindRequest(binding('a'), now), undefined);
          const earlier = await store.bindRequest(binding('a', { method: 'DELETE', target: '/v1/y' }), now);
          assert.deepEqual(earlier, binding('a'));
          assert.deepEqual(await store.bindRequest(binding('a', { scope: 'test-data' }), now), binding('a'));
          assert.equal(
            await store.bindRequest(binding('a', { tppId: 'PSDNO-FSA-2' }), now),
            undefined,
            "another TPP's X-Request-IDs are its own",
          );
        }));

      it('binds once when many requests race with one X-Request-ID', () =>
        withMigratedStore(async (store) => {
          const results = await Promise.all(
            Array.from({ length: 20 }, (_, i) => store.bindRequest(binding('race', { target: `/v1/x/${i}` }), now)),
          );
          assert.equal(results.filter((r) => r === undefined).length, 1);
        }));

      it('replaces a binding whose signature can no longer be accepted, and purges such bindings', () =>
        withMigratedStore(async (store) => {
          await store.bindRequest(binding('old', { expiresAt: new Date('2026-11-22T11:00:00Z') }), now);
          await store.bindRequest(binding('gone', { expiresAt: new Date('2026-11-22T11:59:59Z') }), now);
          await store.bindRequest(binding('kept'), now);
          assert.equal(
            await store.bindRequest(binding('old', { method: 'POST' }), now),
            undefined,
            'rebound after expiry',
          );
          assert.equal(await store.purgeRequestBindings(now), 1);
          assert.equal(await store.bindRequest(binding('gone', { method: 'POST' }), now), undefined);
          assert.deepEqual(await store.bindRequest(binding('kept', { method: 'POST' }), now), binding('kept'));
        }));
    });

    describe('payments', () => {
      it('stores a payment with its request and reads both back, amounts exact', () =>
        withMigratedStore(async (store) => {
          const payment = newPayment({ amountMinor: 123_456_789_012_345_678n });
          const request = requestFor(payment);
          assert.deepEqual(await store.createPayment(payment, request, { duplicatesSince: null }), {
            outcome: 'created',
          });
          const stored = await store.findPayment(payment.tppId, payment.id, '');
          assert.equal(stored?.status, 'RCVD');
          assert.equal(stored?.service, 'payments');
          assert.deepEqual(stored?.body, payment.body);
          assert.equal(stored?.fundsAvailable, undefined);
          const earlier = await store.findTppRequest(payment.tppId, request.requestId);
          assert.deepEqual(earlier, {
            operation: request.operation,
            bodySha256: request.bodySha256,
            responseStatus: 201,
            responseBody: request.responseBody,
            responseHeaders: undefined,
          });
        }));

      it('keeps payments of one TPP from another', () =>
        withMigratedStore(async (store) => {
          const payment = newPayment();
          await store.createPayment(payment, requestFor(payment), { duplicatesSince: null });
          assert.equal(await store.findPayment('PSDNO-FSA-999999999', payment.id, ''), undefined);
          assert.deepEqual(await store.cancelPayment('PSDNO-FSA-999999999', payment.id, new Date(), 'delete-1'), {
            outcome: 'unknown',
          });
          assert.equal(await store.findTppRequest('PSDNO-FSA-999999999', 'x'), undefined);
        }));

      it('answers a second create with the same X-Request-ID with the first request and writes nothing', () =>
        withMigratedStore(async (store) => {
          const first = newPayment();
          const request = requestFor(first, 'same-id');
          await store.createPayment(first, request, { duplicatesSince: null });
          const second = newPayment();
          const result = await store.createPayment(
            second,
            { ...requestFor(second, 'same-id'), responseBody: 'other' },
            { duplicatesSince: null },
          );
          assert.equal(result.outcome, 'replayed');
          assert.equal(result.outcome === 'replayed' && result.request.responseBody, request.responseBody);
          assert.equal(await store.findPayment(second.tppId, second.id, ''), undefined);
        }));

      it('creates exactly one payment from 50 concurrent creates with one X-Request-ID', async () => {
        const { store, openAnother } = await openMigrated();
        const another = await openAnother();
        try {
          await store.migrate();
          const payments = Array.from({ length: 50 }, () => newPayment());
          const results = await Promise.all(
            payments.map((p, i) =>
              (i % 2 === 0 ? store : another).createPayment(p, requestFor(p, 'concurrent'), { duplicatesSince: null }),
            ),
          );
          assert.equal(results.filter((r) => r.outcome === 'created').length, 1);
          assert.equal(results.filter((r) => r.outcome === 'replayed').length, 49);
          const found = await Promise.all(payments.map((p) => store.findPayment(p.tppId, p.id, '')));
          assert.equal(found.filter((f) => f !== undefined).length, 1);
        } finally {
          await another.close();
          await store.close();
        }
      });

      it('finds a logical duplicate of the same PSU within the window, and not outside it or for another PSU', () =>
        withMigratedStore(async (store) => {
          const first = newPayment();
          await store.createPayment(first, requestFor(first), { duplicatesSince: null });
          const twin = newPayment({ transfers: first.transfers });
          const result = await store.createPayment(twin, requestFor(twin), {
            duplicatesSince: new Date(Date.now() - 60_000),
          });
          assert.deepEqual(result, {
            outcome: 'duplicate',
            duplicates: [{ path: '$', paymentId: first.id, createdAt: first.createdAt.toISOString() }],
          });
          assert.equal(await store.findPayment(twin.tppId, twin.id, ''), undefined);
          assert.equal(
            (await store.createPayment(twin, requestFor(twin), { duplicatesSince: new Date(Date.now() + 60_000) }))
              .outcome,
            'created',
          );
          const otherPsu = newPayment({ transfers: first.transfers, psuKey: 'psu:two' });
          assert.equal(
            (await store.createPayment(otherPsu, requestFor(otherPsu), { duplicatesSince: windowStart() })).outcome,
            'created',
          );
        }));

      it('finds a logical duplicate across midnight, and one stored by an instance whose clock runs ahead across midnight (E3-18)', () =>
        withMigratedStore(async (store) => {
          const at = (iso: string, psuKey: string, transfers?: ReturnType<typeof newPayment>['transfers']) =>
            newPayment({ createdAt: new Date(iso), psuKey, ...(transfers ? { transfers } : {}) });
          const windowBefore = (payment: ReturnType<typeof newPayment>) => ({
            duplicatesSince: new Date(payment.createdAt.getTime() - LOGICAL_DUPLICATE_WINDOW_HOURS * 3_600_000),
          });
          const lastNight = at('2026-11-24T23:59:30.000Z', 'psu:midnight');
          await store.createPayment(lastNight, requestFor(lastNight), { duplicatesSince: null });
          const thisMorning = at('2026-11-25T00:00:30.000Z', 'psu:midnight', lastNight.transfers);
          assert.deepEqual(await store.createPayment(thisMorning, requestFor(thisMorning), windowBefore(thisMorning)), {
            outcome: 'duplicate',
            duplicates: [{ path: '$', paymentId: lastNight.id, createdAt: lastNight.createdAt.toISOString() }],
          });

          const ahead = at('2026-11-26T00:00:01.000Z', 'psu:ahead');
          await store.createPayment(ahead, requestFor(ahead), { duplicatesSince: null });
          const behind = at('2026-11-25T23:59:59.000Z', 'psu:ahead', ahead.transfers);
          const found = await store.createPayment(behind, requestFor(behind), windowBefore(behind));
          assert.deepEqual(found.outcome === 'duplicate' ? found.duplicates.map((d) => d.paymentId) : found.outcome, [
            ahead.id,
          ]);

          const dayBefore = at('2026-11-23T23:00:00.000Z', 'psu:old');
          await store.createPayment(dayBefore, requestFor(dayBefore), { duplicatesSince: null });
          const later = at('2026-11-25T00:30:00.000Z', 'psu:old', dayBefore.transfers);
          assert.equal(
            (await store.createPayment(later, requestFor(later), windowBefore(later))).outcome,
            'created',
            'beyond the window',
          );
        }));

      it('does not count a cancelled payment as a duplicate', () =>
        withMigratedStore(async (store) => {
          const first = newPayment({ psuKey: 'psu:cancel' });
          await store.createPayment(first, requestFor(first), { duplicatesSince: null });
          assert.deepEqual(await store.cancelPayment(first.tppId, first.id, new Date(), 'delete-1'), {
            outcome: 'cancelled',
          });
          const again = newPayment({ transfers: first.transfers, psuKey: 'psu:cancel' });
          assert.equal(
            (await store.createPayment(again, requestFor(again), { duplicatesSince: windowStart() })).outcome,
            'created',
          );
        }));

      it('does not count a rejected payment as a duplicate (the lifecycle ends it without execution)', () =>
        withMigratedStore(async (store) => {
          const first = newPayment({ psuKey: 'psu:rejected' });
          await store.createPayment(first, requestFor(first), { duplicatesSince: null });
          await store.decidePayments(
            [{ paymentId: first.id, status: 'RJCT', reason: 'declined by the PSU' }],
            undefined,
            new Date(),
          );
          const again = newPayment({ transfers: first.transfers, psuKey: 'psu:rejected' });
          assert.equal(
            (await store.createPayment(again, requestFor(again), { duplicatesSince: windowStart() })).outcome,
            'created',
          );
        }));

      it('cancels a payment once, then says it is no longer cancellable, except to the request that cancelled it', () =>
        withMigratedStore(async (store) => {
          const payment = newPayment();
          await store.createPayment(payment, requestFor(payment), { duplicatesSince: null });
          assert.deepEqual(await store.cancelPayment(payment.tppId, payment.id, new Date(), 'delete-1'), {
            outcome: 'cancelled',
          });
          assert.equal((await store.findPayment(payment.tppId, payment.id, ''))?.status, 'CANC');
          assert.deepEqual(await store.cancelPayment(payment.tppId, payment.id, new Date(), 'delete-2'), {
            outcome: 'not-cancellable',
            status: 'CANC',
          });
          assert.deepEqual(await store.cancelPayment(payment.tppId, payment.id, new Date(), 'delete-1'), {
            outcome: 'cancelled',
          });
          assert.deepEqual(await store.cancelPayment(payment.tppId, 'enc!!nothing', new Date(), 'delete-1'), {
            outcome: 'unknown',
          });
        }));

      it('cancels once when copies of one DELETE run at once: every copy is told cancelled', () =>
        withMigratedStore(async (store) => {
          const payment = newPayment();
          await store.createPayment(payment, requestFor(payment), { duplicatesSince: null });
          const outcomes = await Promise.all(
            [1, 2, 3, 4].map(() => store.cancelPayment(payment.tppId, payment.id, new Date(), 'delete-same')),
          );
          assert.deepEqual(
            outcomes,
            [1, 2, 3, 4].map(() => ({ outcome: 'cancelled' })),
          );
          assert.equal((await store.findPayment(payment.tppId, payment.id, ''))?.status, 'CANC');
        }));

      it('stores a bulk payment of 1 000 transfers in one create', () =>
        withMigratedStore(async (store) => {
          const base = newPayment();
          const transfers = Array.from({ length: 1000 }, (_, i) => ({
            ...base.transfers[0]!,
            duplicateKey: duplicateKeyOf(`key-${i}`),
            path: `$.payments[${i}]`,
          }));
          const bulk = newPayment({
            service: 'bulk-payments',
            product: 'norwegian-domestic-credit-transfers',
            transfers,
          });
          assert.equal(
            (await store.createPayment(bulk, requestFor(bulk), { duplicatesSince: windowStart() })).outcome,
            'created',
          );
          const twin = newPayment({ transfers: transfers.slice(500, 502) });
          const result = await store.createPayment(twin, requestFor(twin), { duplicatesSince: windowStart() });
          assert.equal(result.outcome, 'duplicate');
          assert.deepEqual(result.outcome === 'duplicate' && result.duplicates.map((d) => d.path), [
            '$.payments[500]',
            '$.payments[501]',
          ]);
        }));
    });

    describe('one-time code attempts per PSU', () => {
      const since = (at: Date, minutes: number) => new Date(at.getTime() - minutes * 60_000);

      it('counts attempts per PSU key within the window, across instances, the highest of the keys, this one included', async () => {
        const { store, openAnother } = await openMigrated();
        const another = await openAnother();
        try {
          await store.migrate();
          const at = new Date('2026-05-04T10:00:00.000Z');
          assert.equal(await store.reserveCodeAttempt('a1', ['ola', 'named'], at, since(at, 60)), 1);
          assert.equal(await another.reserveCodeAttempt('a2', ['ola'], at, since(at, 60)), 2);
          assert.equal(
            await store.reserveCodeAttempt('a3', ['kari', 'named'], at, since(at, 60)),
            2,
            'named has two, kari one',
          );
          assert.equal(await another.reserveCodeAttempt('a4', ['kari'], at, since(at, 60)), 2);
          assert.equal(
            await store.reserveCodeAttempt('a5', ['ola', 'ola'], at, since(at, 60)),
            3,
            'a key named twice counts once',
          );
        } finally {
          await another.close();
          await store.close();
        }
      });

      it('forgets attempts older than the window, and a released attempt counts for nothing', () =>
        withMigratedStore(async (store) => {
          const at = new Date('2026-05-04T10:00:00.000Z');
          await store.reserveCodeAttempt('old', ['ola'], at, since(at, 60));
          const later = new Date(at.getTime() + 61 * 60_000);
          assert.equal(await store.reserveCodeAttempt('new', ['ola'], later, since(later, 60)), 1);
          assert.equal(await store.reserveCodeAttempt('right-code', ['ola'], later, since(later, 60)), 2);
          await store.releaseCodeAttempt('right-code');
          assert.equal(await store.reserveCodeAttempt('next', ['ola'], later, since(later, 60)), 2);
        }));

      it('lets no more than the limit through when 40 attempts for one PSU arrive at once on two instances', async () => {
        const { store, openAnother } = await openMigrated();
        const another = await openAnother();
        try {
          await store.migrate();
          const at = new Date('2026-05-04T10:00:00.000Z');
          const counts = await Promise.all(
            Array.from({ length: 40 }, (_, i) =>
              (i % 2 === 0 ? store : another).reserveCodeAttempt(`c${i}`, ['ola'], at, since(at, 60)),
            ),
          );
          // Each attempt counts at least every one written before it: for any limit N, at most N attempts see N or fewer.
          const sorted = [...counts].sort((a, b) => a - b);
          assert.ok(
            sorted.every((count, i) => count >= i + 1 && count <= 40),
            `counts ${sorted.join(',')}`,
          );
        } finally {
          await another.close();
          await store.close();
        }
      });
    });

    describe('banks (one per TPP in the sandbox)', () => {
      const at = new Date('2026-11-20T10:00:00.000Z');

      it("lists every bank with its clock's offset in one read", () =>
        withMigratedStore(async (store) => {
          await store.openBank('TPP-B', at, defaultDataSet);
          await store.openBank('TPP-A', at, defaultDataSet);
          await store.writeClockOffset('TPP-B', 7_200_000n, at);
          assert.deepEqual(await store.listBankClocks(), [
            { bank: 'TPP-A', clockOffsetMs: 0n },
            { bank: 'TPP-B', clockOffsetMs: 7_200_000n },
          ]);
        }));

      it("moves a bank's clock offset only forward: of two moves, the later instant stays whichever is written last", () =>
        withMigratedStore(async (store) => {
          await store.openBank('TPP-A', at, defaultDataSet);
          assert.equal(await store.writeClockOffset('TPP-A', 3_600_000n, at), true);
          assert.equal(await store.writeClockOffset('TPP-A', 1_000n, at), false, 'a move that another overtook');
          assert.equal(await store.writeClockOffset('TPP-A', 3_600_000n, at), false, 'to the instant it shows already');
          assert.equal(await store.readClockOffset('TPP-A'), 3_600_000n);
          const both = await Promise.all([
            store.writeClockOffset('TPP-A', 7_200_000n, at),
            store.writeClockOffset('TPP-A', 5_400_000n, at),
          ]);
          assert.equal(
            await store.readClockOffset('TPP-A'),
            7_200_000n,
            `the later of two moves at once: ${JSON.stringify(both)}`,
          );
          assert.equal(both[0], true);
          assert.equal(await store.writeClockOffset('TPP-NEW', 60_000n, at), true, "a bank's first move");
        }));

      it('reads a payment with the clock offset of the bank the read names, and 0 for a bank without a clock', () =>
        withMigratedStore(async (store) => {
          await store.openBank('TPP-A', at, defaultDataSet);
          await store.openBank('TPP-B', at, defaultDataSet);
          await store.writeClockOffset('TPP-A', 5_400_000n, at);
          await store.writeClockOffset('TPP-B', 9_000_000n, at);
          const payment = newPayment({ tppId: 'TPP-A' });
          await store.createPayment(payment, requestFor(payment), { duplicatesSince: null, bank: 'TPP-A' });
          assert.equal((await store.findPayment('TPP-A', payment.id, 'TPP-A'))?.bankClockOffsetMs, 5_400_000n);
          assert.equal((await store.findPayment('TPP-A', payment.id, 'TPP-B'))?.bankClockOffsetMs, 9_000_000n);
          assert.equal((await store.findPayment('TPP-A', payment.id, 'no-such-bank'))?.bankClockOffsetMs, 0n);
          assert.equal(
            await store.findPayment('TPP-B', payment.id, 'TPP-B'),
            undefined,
            'the bank named does not widen the read to another TPP',
          );
        }));

      it('makes no bank beyond a limit, two instances at once included, and finds one made whatever the count', async () => {
        const { store, openAnother } = await openMigrated();
        const another = await openAnother();
        try {
          await store.migrate();
          const tries = await Promise.allSettled([
            store.openBank('TPP-A', at, defaultDataSet, 2),
            another.openBank('TPP-B', at, defaultDataSet, 2),
            store.openBank('TPP-C', at, defaultDataSet, 2),
          ]);
          assert.equal(tries.filter((r) => r.status === 'fulfilled' && r.value).length, 2);
          assert.equal(tries.filter((r) => r.status === 'rejected' && r.reason instanceof BankLimitReached).length, 1);
          assert.equal((await store.listBanks()).length, 2);
          const [made] = await store.listBanks();
          assert.equal(await store.openBank(made!, at, defaultDataSet, 2), false);
          await assert.rejects(store.openBank('TPP-D', at, defaultDataSet, 2), BankLimitReached);
        } finally {
          await another.close();
          await store.close();
        }
      });

      it('makes a bank once, even when two instances make it at once, with its own copy of the data', async () => {
        const { store, openAnother } = await openMigrated();
        const another = await openAnother();
        try {
          await store.migrate();
          const made = await Promise.all([
            store.openBank('TPP-A', at, defaultDataSet),
            another.openBank('TPP-A', at, defaultDataSet),
            store.openBank('TPP-B', at, defaultDataSet),
          ]);
          assert.deepEqual(made.map(Boolean).filter(Boolean).length, 2, 'A once, B once');
          assert.equal(await store.openBank('TPP-A', at, defaultDataSet), false);
          assert.deepEqual(await store.listBanks(), ['TPP-A', 'TPP-B']);
          const olaA = await store.findCustomer('TPP-A', { customerNumber: '13039319955' });
          const olaB = await store.findCustomer('TPP-B', { customerNumber: '13039319955' });
          assert.ok(olaA !== undefined && olaB !== undefined && olaA.id !== olaB.id);
          assert.equal(
            await store.findCustomer('TPP-A', { id: olaB.id }),
            undefined,
            'a bank knows only its own customers',
          );
          assert.equal((await store.findAccount('TPP-B', { bban: '15061012343' }))?.customerId, olaB.id);
          assert.ok(await store.findAgreement('TPP-A', 'AGR-18129215603'));
          assert.ok(await store.findAgreement('TPP-B', 'AGR-18129215603'), 'agreement ids are per bank');
          assert.equal(await store.findAgreement('TPP-C', 'AGR-18129215603'), undefined);
          assert.equal(
            await store.lastBatchSlot('TPP-A'),
            new Date(at.getTime() - 1).toISOString(),
            'its batch runs start from its making',
          );
        } finally {
          await another.close();
          await store.close();
        }
      });

      it('keeps numbers unique within one bank only, and masked card numbers not at all', () =>
        withMigratedStore(async (store) => {
          const customer = (bank: string, id: string) =>
            store.createSandboxCustomer(bank, {
              id,
              customerNumber: '01078900497',
              name: 'Test',
              type: 'PRIVATE',
              tppId: bank,
              paymentLimitMinor: undefined,
              createdAt: at,
            });
          assert.equal(await customer('TPP-A', 'c-a'), true);
          assert.equal(await customer('TPP-B', 'c-b'), true);
          assert.equal(await customer('TPP-A', 'c-a2'), false);
          const account = (bank: string, id: string, customerId: string) =>
            store.createSandboxAccount(bank, {
              id,
              customerId,
              bban: '90412263056',
              iban: 'NO2390412263056',
              currency: 'NOK',
              name: 'Brukskonto',
              product: 'Brukskonto',
              cashAccountType: 'CACC',
              creditLineMinor: 0n,
              balanceMinor: 0n,
              status: 'enabled',
              createdAt: at,
            });
          assert.equal(await account('TPP-A', 'a-a', 'c-a'), true);
          assert.equal(await account('TPP-B', 'a-b', 'c-b'), true);
          assert.equal(await account('TPP-A', 'a-a2', 'c-a'), false);
          const card = (bank: string, id: string, customerId: string) =>
            store.createSandboxCardAccount(bank, {
              id,
              customerId,
              maskedPan: '1234xxxxxxxx4321',
              name: 'Visa',
              product: 'Basic',
              currency: 'NOK',
              creditLimitMinor: 0n,
              balanceMinor: 0n,
              body: {},
              createdAt: at,
            });
          assert.equal(await card('TPP-A', 'k1', 'c-a'), true);
          assert.equal(await card('TPP-A', 'k2', 'c-a'), true);
          assert.equal(await card('TPP-B', 'k3', 'c-b'), true);
          assert.equal(await store.findSandboxCardAccount('TPP-B', 'k1'), undefined);
          assert.equal(await store.deleteSandboxCustomer('TPP-B', 'c-a'), false, 'not from another bank');
          assert.equal(await store.deleteSandboxCustomer('TPP-A', 'c-a'), true);
          assert.ok(await store.findSandboxAccount('TPP-B', 'a-b'));
        }));

      it('keeps a clock, batch slots and due payments per bank, and initializes one bank alone', () =>
        withMigratedStore(async (store) => {
          await store.openBank('TPP-A', at, defaultDataSet);
          await store.openBank('TPP-B', at, defaultDataSet);
          await store.writeClockOffset('TPP-B', 7_200_000n, at);
          assert.equal(await store.readClockOffset('TPP-A'), 0n);
          assert.equal(await store.readClockOffset('TPP-B'), 7_200_000n);
          assert.equal(await store.claimBatchRun('TPP-A', '2026-11-20T08:00:00.000Z', at), true);
          assert.equal(await store.claimBatchRun('TPP-B', '2026-11-20T08:00:00.000Z', at), true, 'a slot per bank');
          assert.equal(await store.claimBatchRun('TPP-A', '2026-11-20T08:00:00.000Z', at), false);
          const payment = newPayment();
          await store.createPayment(payment, requestFor(payment), { duplicatesSince: null, bank: 'TPP-A' });
          await store.decidePayments([{ paymentId: payment.id, status: 'ACTC', reason: undefined }], undefined, at);
          assert.deepEqual(await store.findDuePaymentIds('TPP-B', '2099-01-01', 10), []);
          assert.deepEqual(await store.findDuePaymentIds('TPP-A', '2099-01-01', 10), [payment.id]);
          assert.deepEqual(
            await store.executePayments('TPP-B', [payment.id], '2026-11-20', at, () => {
              throw new Error("not this bank's");
            }),
            [],
          );
          const olaB = (await store.findCustomer('TPP-B', { customerNumber: '13039319955' }))!;
          await store.initializeSandbox('TPP-A', defaultDataSet(at));
          assert.equal(
            (await store.findCustomer('TPP-B', { customerNumber: '13039319955' }))?.id,
            olaB.id,
            'B is untouched',
          );
          assert.notEqual((await store.findCustomer('TPP-A', { customerNumber: '13039319955' }))?.id, undefined);
        }));
    });

    describe('keys kept outside the database', () => {
      it('records the first fingerprint of a key and answers it to every later claim, from any instance', async () => {
        const { store, openAnother } = await openMigrated();
        const another = await openAnother();
        try {
          await store.migrate();
          const [first, second] = await Promise.all([
            store.claimKeyFingerprint('psu-identity', 'f1', new Date()),
            another.claimKeyFingerprint('psu-identity', 'f2', new Date()),
          ]);
          assert.equal(first, second, 'two instances starting together agree on one fingerprint');
          assert.equal(await store.claimKeyFingerprint('psu-identity', 'f3', new Date()), first);
          assert.equal(await another.claimKeyFingerprint('other-key', 'g1', new Date()), 'g1');
        } finally {
          await another.close();
          await store.close();
        }
      });
    });

    describe('authorisations a TPP starts (POST …/authorisations)', () => {
      it('stores one of 10 concurrent starts with one X-Request-ID, from two instances, with its answer; the others get that answer and write nothing', async () => {
        const { store, openAnother } = await openMigrated();
        const another = await openAnother();
        try {
          await store.migrate();
          const payment = newPayment();
          await store.createPayment(payment, requestFor(payment), { duplicatesSince: null });
          const starts = Array.from({ length: 10 }, (_, i) => ({
            authorisation: { ...basketAuthorisation(payment.id, payment.tppId), kind: 'payment' as const },
            request: {
              tppId: payment.tppId,
              requestId: 'one-start',
              operation: `POST /v1/payments/x/${payment.id}/authorisations`,
              bodySha256: 'e'.repeat(64),
              responseStatus: 201,
              responseBody: JSON.stringify({ start: i }),
            },
          }));
          const results = await Promise.all(
            starts.map((start, i) =>
              (i % 2 === 0 ? store : another).startAuthorisation(start.authorisation, start.request),
            ),
          );
          const stored = starts.filter((_, i) => results[i] === undefined);
          assert.equal(stored.length, 1, JSON.stringify(results));
          for (const result of results)
            assert.equal(result === undefined || result.responseBody === stored[0]!.request.responseBody, true);
          const found = await Promise.all(starts.map((s) => store.findAuthorisation(s.authorisation.tokenHash)));
          assert.deepEqual(
            found.map((f) => f !== undefined),
            results.map((r) => r === undefined),
            'only the start that was stored has its authorisation',
          );
          assert.equal(
            (await store.findTppRequest(payment.tppId, 'one-start'))?.responseBody,
            stored[0]!.request.responseBody,
          );
        } finally {
          await another.close();
          await store.close();
        }
      });
    });

    describe('authorisation lists (GET …/authorisations)', () => {
      it("lists one resource's authorisations of one kind, oldest first, the TPP's only, at most the limit", () =>
        withMigratedStore(async (store) => {
          const payment = newPayment();
          await store.createPayment(payment, requestFor(payment), { duplicatesSince: null });
          const at = (second: number) => new Date(Date.parse('2026-11-26T10:00:00Z') + second * 1000);
          const made = (kind: 'payment' | 'cancellation', second: number, tppId = payment.tppId) => ({
            ...basketAuthorisation(payment.id, tppId),
            kind,
            createdAt: at(second),
          });
          // Stored out of order: the list is ordered by the time each was started.
          const later = made('payment', 2);
          const earlier = made('payment', 1);
          const cancellation = made('cancellation', 3);
          for (const a of [later, earlier, cancellation, made('payment', 0, 'PSDNO-FSA-999999999')])
            await store.createAuthorisation(a);
          const payments = await store.listAuthorisations(payment.tppId, 'payment', payment.id, 10);
          assert.deepEqual(
            payments.map((a) => a.id),
            [earlier.id, later.id],
          );
          assert.equal(payments[0]!.stage, 'link');
          assert.equal(payments[0]!.status, 'started');
          assert.equal(payments[0]!.expiresAt.getTime(), earlier.expiresAt.getTime());
          assert.deepEqual(
            (await store.listAuthorisations(payment.tppId, 'cancellation', payment.id, 10)).map((a) => a.id),
            [cancellation.id],
          );
          assert.deepEqual(
            (await store.listAuthorisations(payment.tppId, 'payment', payment.id, 1)).map((a) => a.id),
            [earlier.id],
          );
          assert.deepEqual(await store.listAuthorisations(payment.tppId, 'basket', payment.id, 10), []);
        }));
    });

    describe('signing baskets', () => {
      it('puts a payment in one basket of 20 concurrent creates naming it, from two instances; the others are told it is taken', async () => {
        const { store, openAnother } = await openMigrated();
        const another = await openAnother();
        try {
          await store.migrate();
          const payments = [newPayment(), newPayment(), newPayment()];
          for (const payment of payments)
            await store.createPayment(payment, requestFor(payment), { duplicatesSince: null });
          const ids = payments.map((p) => p.id);
          const attempts = Array.from({ length: 20 }, (_, i) => {
            const basket = {
              id: `basket-${i}-${randomUUID()}`,
              tppId: payments[0]!.tppId,
              psuKey: 'psu:one',
              requestBody: '{}',
              createdAt: new Date(),
            };
            // Each names the same payments in another order: the store must not deadlock on them.
            const named = i % 2 === 0 ? ids : [...ids].reverse();
            const request = {
              tppId: basket.tppId,
              requestId: randomUUID(),
              operation: 'POST /v1/signing-baskets',
              bodySha256: 'b'.repeat(64),
              responseStatus: 201,
              responseBody: '{}',
            };
            return (i % 2 === 0 ? store : another).createBasket(
              basket,
              named,
              request,
              basketAuthorisation(basket.id, basket.tppId),
            );
          });
          const results = await Promise.all(attempts);
          assert.equal(results.filter((r) => r.outcome === 'created').length, 1, JSON.stringify(results));
          assert.equal(results.filter((r) => r.outcome === 'payment-in-basket').length, 19);
          const basketIds = new Set(await Promise.all(ids.map((id) => store.findBasketOfPayment(id))));
          assert.equal(basketIds.size, 1, 'every payment is in the one basket created');
        } finally {
          await another.close();
          await store.close();
        }
      });
    });

    periodicContract(openMigrated);
    scenarioContract(openMigrated);
    unattendedReadContract(openMigrated);
    upkeepContract(openMigrated);
    snapshotContract(openMigrated);
    bankOverviewContract(openMigrated);
    consoleSessionContract(openMigrated);
    notificationContract(openMigrated);
    notificationOutboxContract(openMigrated);
  });
}

function basketAuthorisation(basketId: string, tppId: string): NewAuthorisation {
  return newAuthorisation('basket', basketId, tppId);
}
