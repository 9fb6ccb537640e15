import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import { BatchRunner } from '../../src/services/batch-runner.js';
import { Banks } from '../../src/services/banks.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { wrapStoreMethods } from '../../src/store/store-wrapper.js';
import { newPayment, requestFor } from '../support/new-payment.js';

/** 08:00 in Oslo (winter): the banks are made before the 09:00 slot. */
const MADE = new Date('2026-11-20T07:00:00.000Z');
/** 12:30 in Oslo: the 09:00 and 12:00 slots have come. */
const NOW = new Date('2026-11-20T11:30:00.000Z');
const IDLE_BANKS = 10_000;
const BUSY = ['PSDNO-FSA-BUSY-1', 'PSDNO-FSA-BUSY-2', 'PSDNO-FSA-BUSY-3'];

/**
 * Issue 31, point 2: with 10 000 banks, the scheduler's work grows with the banks that have something
 * due, not with all banks, and it yields to the event loop as it goes. Counted, not timed: the banks
 * the run visits and the store calls it makes (the delay of /health is a figure of
 * bench/scheduler-banks.ts, bench/README.md).
 */
describe('the scheduler with 10 000 sandbox banks', () => {
  let dir: string;
  let store: Store;
  const calls = new Map<string, string[]>();
  let counting = false;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'psd2-scale-'));
    const file = join(dir, 'scale.db');
    const own = SqliteStore.open(file);
    await own.migrate();
    // 10 000 banks that have nothing due, written at once (openBank per bank would take a minute).
    const db = new Database(file);
    db.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${IDLE_BANKS})
       insert into banks (bank, clock_offset_ms, created_at, updated_at, used_at)
       select printf('PSDNO-FSA-IDLE-%05d', i), 0, ?, ?, ? from n`,
    ).run(MADE.toISOString(), MADE.toISOString(), MADE.toISOString());
    db.close();
    // Three banks with a payment authorised at 08:30, waiting for the 09:00 run.
    const quiet = (at: Date) => ({ ...defaultDataSet(at), standingOrders: [] });
    for (const bank of BUSY) {
      await own.openBank(bank, MADE, quiet);
      const payment = newPayment({ tppId: bank, debtor: { bban: '15061012351', iban: undefined, currency: 'NOK' } });
      await own.createPayment(payment, requestFor(payment), { duplicatesSince: null, bank });
      await own.decidePayments(
        [{ paymentId: payment.id, status: 'ACTC', reason: undefined }],
        undefined,
        new Date(MADE.getTime() + 30 * 60_000),
      );
    }
    store = wrapStoreMethods(own, (name, call) => (...args: unknown[]) => {
      if (counting) calls.set(name, [...(calls.get(name) ?? []), String(args[0])]);
      return call(args);
    });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('visits only the three banks with a payment due, executes their payments at the 09:00 slot, and yields after each', async () => {
    const banks = new Banks(store, 'sandbox', { now: () => NOW });
    const runner = new BatchRunner(store, banks, new ReferenceRates(SANDBOX_REFERENCE_RATES));
    // Turns of the event loop while the run goes: a setImmediate that schedules itself again.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    counting = true;
    const results = await runner.catchUp();
    const wait = await runner.untilNextSlotMs();
    counting = false;
    ticking = false;

    assert.deepEqual([...new Set(calls.get('lastBatchSlot'))].sort(), BUSY, 'the banks visited');
    const executed = results.filter((r) => r.executed > 0);
    assert.deepEqual(
      executed.map((r) => [r.slot, r.executed]),
      BUSY.map(() => ['2026-11-20T08:00:00.000Z', 1]),
      'each payment at the first slot after its authorisation',
    );
    const total = [...calls.values()].reduce((n, c) => n + c.length, 0);
    assert.ok(total < 20 * BUSY.length, `store calls grow with the banks visited: ${total} for ${BUSY.length} banks`);
    assert.equal(calls.get('listBankClocks'), undefined, 'no read of every bank');
    assert.equal(calls.get('listClockOffsets')?.length, 1, 'the next wake from the distinct clock offsets');
    assert.equal(wait, Date.parse('2026-11-20T14:00:00.000Z') - NOW.getTime(), 'the 15:00 slot');
    assert.ok(turns >= BUSY.length, `the event loop turned ${turns} times during the run, at least once per bank`);
  });

  it('runs nothing for a bank whose payment was authorised after the slots it missed: a late catch-up takes it at the next slot', async () => {
    // A bank made three days before, idle since (no slot claimed), whose payment is authorised today at 11:30.
    const bank = 'PSDNO-FSA-LATE';
    const made = new Date(MADE.getTime() - 3 * 86_400_000);
    const late = new Date('2026-11-20T10:30:00.000Z');
    await store.openBank(bank, made, (at) => ({ ...defaultDataSet(at), standingOrders: [] }));
    const payment = newPayment({ tppId: bank, debtor: { bban: '15061012351', iban: undefined, currency: 'NOK' } });
    await store.createPayment(payment, requestFor(payment), { duplicatesSince: null, bank });
    await store.decidePayments([{ paymentId: payment.id, status: 'ACTC', reason: undefined }], undefined, late);
    const runner = new BatchRunner(
      store,
      new Banks(store, 'sandbox', { now: () => NOW }),
      new ReferenceRates(SANDBOX_REFERENCE_RATES),
    );
    const results = await runner.catchUpBank(bank);
    assert.deepEqual(
      results.filter((r) => r.executed + r.rejected > 0).map((r) => r.slot),
      ['2026-11-20T11:00:00.000Z'],
      "executed at today's 12:00 slot, not at a slot of the days it was idle",
    );
  });
});
