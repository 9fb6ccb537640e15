import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EmbeddedCore } from '../../src/core/embedded/embedded-core.js';
import type { EmbeddedPayments } from '../../src/core/embedded/embedded-payments.js';
import type { Clock } from '../../src/domain/clock.js';
import { HANDOVER_RETRY_MAX_MS } from '../../src/domain/limits.js';
import { HandoverRelay, retryDelayMs } from '../../src/services/core-handover/handover-relay.js';
import { PaymentCancellation } from '../../src/services/core-handover/payment-cancellation.js';
import { CoreReportPoller } from '../../src/services/core-handover/report-poller.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { newPayment, requestFor } from '../support/new-payment.js';
import { type TestDatabase, createMigratedTestDatabase } from '../support/postgres.js';
import { RecordingCore, report } from '../support/recording-core.js';

/** A clock the test moves: retries come due when it says so, not after real waits. */
class MovableClock implements Clock {
  private at = Date.parse('2026-11-29T10:00:00Z');
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

const silent = () => undefined;

/** `count` payments authorised in production's bank, each with its hand-over (as the SCA writes them). */
async function authorised(store: Store, count: number, at: Date): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const payment = newPayment({ psuKey: `psu:${i}`, createdAt: at });
    const created = await store.createPayment(payment, requestFor(payment), { duplicatesSince: null, bank: '' });
    assert.equal(created.outcome, 'created');
    ids.push(payment.id);
  }
  const decided = await store.decidePayments(
    ids.map((paymentId) => ({ paymentId, status: 'ACTC' as const, reason: undefined })),
    undefined,
    at,
    true,
  );
  assert.equal(decided.length, count);
  return ids;
}

function coreOver(store: Store): RecordingCore {
  return new RecordingCore(new EmbeddedCore(store, {} as EmbeddedPayments));
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`handing authorised payments to a bank's own core (${engine})`, () => {
    let store: Store;
    let dir: string | undefined;
    let database: TestDatabase | undefined;
    before(async () => {
      if (engine === 'sqlite') {
        dir = mkdtempSync(join(tmpdir(), 'psd2-handover-'));
        store = SqliteStore.open(join(dir, 'test.db'));
      } else {
        database = await createMigratedTestDatabase();
        store = PostgresStore.open(database.url);
      }
      await store.migrate();
    });
    after(async () => {
      await store.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      await database?.drop();
    });

    it('hands each authorised payment over once, with its order as initiated, and applies the answer', async () => {
      const clock = new MovableClock();
      const core = coreOver(store);
      const [id] = await authorised(store, 1, clock.now());
      const relay = new HandoverRelay(store, core, 'one', clock, silent);
      await relay.drain();
      await relay.drain();
      assert.equal(core.received.get(id!), 1);
      const order = core.orders.get(id!)!;
      assert.equal(order.paymentService, 'payments');
      assert.deepEqual(order.initiation, { instructedAmount: { amount: '15000.00', currency: 'NOK' } });
      assert.deepEqual(order.transactionFees, { amountMinor: 10_000n, currency: 'NOK' });
      assert.equal((await store.findPayment('PSDNO-FSA-111111111', id!, ''))?.status, 'ACSP');
      assert.equal(await store.countPendingHandovers(), 0);
    });

    // Issue 38, 5: the core down while 200 payments are authorised; each reaches it afterwards, none twice.
    it('keeps every payment while the core is down, retries with backoff, and hands each over once when it is back', async () => {
      const clock = new MovableClock();
      const core = coreOver(store);
      const ids = await authorised(store, 200, clock.now());
      const lines: string[] = [];
      const relay = new HandoverRelay(store, core, 'one', clock, (level, _fields, message) =>
        lines.push(`${level} ${message}`),
      );
      core.down = true;
      for (let minute = 0; minute < 3; minute++) {
        await relay.drain();
        clock.advance(20_000);
      }
      assert.equal(core.received.size, 0);
      assert.equal(await store.countPendingHandovers(), 200);
      core.down = false;
      // Not yet due: a retry waits its backoff.
      await relay.drain();
      clock.advance(HANDOVER_RETRY_MAX_MS);
      await relay.drain();
      assert.equal(core.received.size, 200);
      assert.ok(
        ids.every((id) => core.received.get(id) === 1),
        'no payment handed over twice',
      );
      assert.equal(await store.countPendingHandovers(), 0);
      // 600 failed sends: one line for the fault, one for its end.
      assert.deepEqual(lines, [
        'warn handing payments to the core failed; retrying with backoff',
        'info handing payments to the core works again',
      ]);
    });

    it('applies status reports forward only, from a poll and again from a callback, and never back', async () => {
      const clock = new MovableClock();
      const core = coreOver(store);
      const [a, b] = await authorised(store, 2, clock.now());
      await new HandoverRelay(store, core, 'one', clock, silent).drain();
      core.feed.push(report(a!, 'ACSC'), report(b!, 'RJCT', 'AM04 insufficient funds'), report(a!, 'ACSP'));
      const poller = new CoreReportPoller(store, core, 'one', clock, 10_000, silent);
      await poller.poll();
      const read = (id: string) => store.findPayment('PSDNO-FSA-111111111', id, '');
      assert.equal((await read(a!))?.status, 'ACSC');
      assert.deepEqual([(await read(b!))?.status, (await read(b!))?.statusReason], ['RJCT', 'AM04 insufficient funds']);
      // Read again (a callback of the same reports): nothing changes.
      assert.deepEqual(await store.applyCoreReports([report(a!, 'ACSP'), report(b!, 'ACSC')], clock.now()), []);
      // Another instance does not poll while this one's turn holds.
      assert.equal(
        await store.claimReportPoll('core', 'two', clock.now(), new Date(clock.now().getTime() + 1000)),
        undefined,
      );
    });

    it("applies no report a single payment cannot have: a bulk's PART, entries, an entry beyond its count, executions (decision 0374)", async () => {
      const clock = new MovableClock();
      const core = coreOver(store);
      const [a] = await authorised(store, 1, clock.now());
      await new HandoverRelay(store, core, 'one', clock, silent).drain();
      const read = async () => (await store.findPayment('PSDNO-FSA-111111111', a!, ''))?.status;
      const before = await read();
      const misfits = [
        report(a!, 'PART'),
        { ...report(a!, 'ACSC'), entries: [{ seq: 999_999, status: 'RJCT' as const, statusReason: 'AC01' }] },
        { ...report(a!, 'ACSC'), entries: [{ seq: 0, status: 'ACSC' as const, statusReason: undefined }] },
        {
          ...report(a!, 'ACSC'),
          executions: [{ seq: 1, executionDate: '2026-11-30', status: 'ACSC' as const, statusReason: undefined }],
        },
      ];
      for (const misfit of misfits) {
        assert.deepEqual(await store.applyCoreReports([misfit], clock.now()), [], JSON.stringify(misfit));
        assert.equal(await read(), before);
      }
      assert.deepEqual(await store.applyCoreReports([report(a!, 'ACSC')], clock.now()), [a]);
      assert.equal(await read(), 'ACSC');
    });

    // Issue 38, 5: two server instances on one database: each payment is handed over once.
    it('never sends one payment from two instances at once', async () => {
      const clock = new MovableClock();
      const core = coreOver(store);
      core.delayMs = 2;
      const ids = await authorised(store, 200, clock.now());
      const other = engine === 'postgres' ? PostgresStore.open(database!.url) : store;
      try {
        await Promise.all([
          new HandoverRelay(store, core, 'one', clock, silent).drain(),
          new HandoverRelay(other, core, 'two', clock, silent).drain(),
        ]);
      } finally {
        if (other !== store) await other.close();
      }
      assert.ok(
        ids.every((id) => core.received.get(id) === 1),
        'each payment received once',
      );
    });

    it('cancels a payment not yet sent here, so it is never sent; one sent already, at the core', async () => {
      const clock = new MovableClock();
      const core = coreOver(store);
      const cancellation = new PaymentCancellation(store, core);
      const [unsent] = await authorised(store, 1, clock.now());
      assert.deepEqual(await cancellation.cancel('', 'PSDNO-FSA-111111111', unsent!, clock.now(), 'r1'), {
        outcome: 'cancelled',
      });
      const [sent] = await authorised(store, 1, clock.now());
      await new HandoverRelay(store, core, 'one', clock, silent).drain();
      assert.equal(core.received.get(unsent!), undefined, 'the cancelled payment was never handed over');
      assert.deepEqual(await cancellation.cancel('', 'PSDNO-FSA-111111111', sent!, clock.now(), 'r2'), {
        outcome: 'cancelled',
      });
      assert.ok(core.cancelled.has(sent!));
      assert.equal((await store.findPayment('PSDNO-FSA-111111111', sent!, ''))?.status, 'CANC');
      core.down = true;
      const [third] = await authorised(store, 1, clock.now());
      core.down = false;
      await new HandoverRelay(store, core, 'one', clock, silent).drain();
      core.down = true;
      assert.deepEqual(await cancellation.cancel('', 'PSDNO-FSA-111111111', third!, clock.now(), 'r3'), {
        outcome: 'core-unavailable',
      });
      assert.equal((await store.findPayment('PSDNO-FSA-111111111', third!, ''))?.status, 'ACSP');
    });
  });
}

describe('the hand-over retry schedule', () => {
  it('doubles from a second up to five minutes, each wait a random half to whole of its step', () => {
    assert.equal(
      retryDelayMs(0, () => 0),
      500,
    );
    assert.equal(
      retryDelayMs(0, () => 1),
      1000,
    );
    assert.equal(
      retryDelayMs(3, () => 1),
      8000,
    );
    assert.equal(
      retryDelayMs(40, () => 1),
      HANDOVER_RETRY_MAX_MS,
    );
    assert.equal(
      retryDelayMs(40, () => 0),
      HANDOVER_RETRY_MAX_MS / 2,
    );
  });
});
