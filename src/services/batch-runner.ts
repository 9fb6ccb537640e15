import type { LedgerStore } from '../store/ledger-store.js';
import { randomBytes } from 'node:crypto';
import { type Clock, addDays, osloDate, startOfOsloDay } from '../domain/clock.js';
import { osloInstantOf } from '../domain/oslo-offset.js';
import type { ReferenceRates } from '../domain/reference-rates.js';
import type { Planner } from '../store/ledger-records.js';
import type { BankClock, Banks } from './banks.js';
import { executionPlanner } from './execution-planner.js';
import { PeriodicRunner } from './periodic-runner.js';
import type { BatchRunResult } from './batch-run-result.js';

/** spec, rule 6: payment batch processing is simulated five times a day (Europe/Oslo, configurable). */
export const DEFAULT_BATCH_TIMES = ['06:00', '09:00', '12:00', '15:00', '18:00'];

/**
 * Payments executed in one database transaction. A chunk costs a handful of statements whatever its
 * size (ledger-queries executePayments), and 500 are tens of milliseconds on SQLite: a run of 100 000
 * is 200 commits, a run killed part-way has only its one uncommitted chunk to redo, and the API waits
 * at most one chunk for its turn of the event loop. Larger chunks run no faster (docs/decisions/0077).
 */
export const BATCH_CHUNK_SIZE = 500;

interface TimeOfDay {
  hour: number;
  minute: number;
}

const MIDNIGHT: TimeOfDay = { hour: 0, minute: 0 };

/** The first instant after `after` at which Norway's clocks show a time of day. */
function nextOsloTimeOfDay(after: Date, { hour, minute }: TimeOfDay): number {
  const today = osloDate(after);
  const instant = osloInstantOf(today, hour, minute);
  return instant > after.getTime() ? instant : osloInstantOf(addDays(today, 1), hour, minute);
}

/**
 * Runs the batch: every authorised payment whose execution date has come is executed once (the store
 * claims each payment in its transaction), in chunks; a slot is claimed first, so two instances on
 * one database never both run it. Each bank runs on its own: its slots come by its own business
 * clock and a run executes its payments only, against its accounts (docs/batch.md, "One bank per TPP").
 */
export class BatchRunner {
  /** The batch times as hours and minutes of Norway's clock. */
  private readonly schedules: readonly TimeOfDay[];
  private readonly periodic: PeriodicRunner;
  private readonly plan: Planner;
  /** The sandbox's armed payment scenarios apply (docs/scenarios.md); production has none. */
  private readonly scenarios: boolean;

  constructor(
    private readonly store: LedgerStore,
    private readonly banks: Banks,
    rates: ReferenceRates,
    readonly times: readonly string[] = DEFAULT_BATCH_TIMES,
    private readonly chunkSize: number = BATCH_CHUNK_SIZE,
    /** Told after each committed chunk (the server logs it at debug level). */
    private readonly onChunk: (slot: string, outcomes: number) => void = () => undefined,
    /** Told after each run with what it did and how long it took (the metrics count it). */
    private readonly onRun: (result: BatchRunResult, seconds: number) => void = () => undefined,
  ) {
    this.plan = executionPlanner(rates, banks.mode);
    this.scenarios = banks.mode === 'sandbox';
    this.periodic = new PeriodicRunner(store, this.plan, chunkSize);
    this.schedules = times.map((time) => {
      const [hour, minute] = time.split(':').map(Number);
      return { hour: hour!, minute: minute! };
    });
  }

  /** The first batch slot after an instant. */
  nextSlot(after: Date): Date {
    return new Date(Math.min(...this.schedules.map((time) => nextOsloTimeOfDay(after, time))));
  }

  /** The next instant the scheduler wakes at: a batch slot, or the start of a day, when the day's standing orders execute (rule 6). */
  nextWake(after: Date): Date {
    return new Date(Math.min(this.nextSlot(after).getTime(), nextOsloTimeOfDay(after, MIDNIGHT)));
  }

  /** How long until the next slot or start of a day of any bank, by each bank's clock. */
  async untilNextSlotMs(): Promise<number> {
    let wait = Number.POSITIVE_INFINITY;
    // One computation per distinct clock offset, not per bank: 10 000 banks at the wall clock are one.
    for (const clock of await this.banks.distinctClocks()) {
      const now = clock.now();
      wait = Math.min(wait, this.nextWake(now).getTime() - now.getTime());
    }
    return wait === Number.POSITIVE_INFINITY ? this.nextWake(new Date()).getTime() - Date.now() : wait;
  }

  /**
   * Runs, for every bank that has work (Banks.withWork: payments waiting for a batch run, a standing
   * order due), each slot that has come by its clock since its last one run. A bank without work is
   * not visited: the work grows with the banks that have something due, not with all banks; its
   * slots passed meanwhile execute nothing later, as a run executes only payments authorised before
   * its slot (findDuePaymentIds). A turn of the event loop after each bank keeps the API answering.
   */
  async catchUp(): Promise<BatchRunResult[]> {
    const results: BatchRunResult[] = [];
    for (const { bank, clock } of await this.banks.withWork()) {
      // A bank a bulk operation is changing is run once it is done, never half restored.
      const release = await this.banks.gate.read(bank);
      try {
        results.push(...(await this.catchUpBank(bank, clock)));
      } finally {
        release();
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    return results;
  }

  /**
   * Runs every slot of one bank that has come since its last one run, in order, and the standing
   * orders' executions of each day before its first slot (rule 6), and of today. Slots missed while no
   * server ran are run at most a week back; a clock move (`movedFrom`, the bank's time before it) runs
   * every slot it passes, however far it goes, as a bank's days would have run them. Slots before the
   * earliest date anything is due are skipped, since they would find nothing: a move of years costs
   * the days with something to execute, not five runs a day.
   */
  async catchUpBank(bank: string, known?: BankClock, movedFrom?: Date): Promise<BatchRunResult[]> {
    const clock = known ?? (await this.banks.clockOfBank(bank));
    const now = clock.now();
    const last = await this.store.lastBatchSlot(bank);
    if (last === undefined) {
      // The first start of a bank runs nothing from before it existed.
      await this.store.claimBatchRun(bank, new Date(now.getTime() - 1).toISOString(), now);
      return [];
    }
    const weekBefore = (movedFrom ?? now).getTime() - 7 * 86_400_000;
    const from = new Date(Math.max(Date.parse(last), weekBefore));
    const results: BatchRunResult[] = [];
    // A day's standing orders are booked as its first batch slot comes (rule 6), so a clock move of
    // days books each day's at that day's time, not at the time of the move.
    const periodic = async (date: string, at: () => Date) => {
      const result = await this.periodic.runDue(bank, date, at);
      if (result !== undefined) results.push(result);
    };
    for (let slot = this.nextSlot(from); slot.getTime() <= now.getTime(); slot = this.nextSlot(slot)) {
      const due = await this.store.earliestDueDate(bank);
      if (due === undefined || due > osloDate(slot)) {
        const skipTo = due === undefined ? now : startOfOsloDay(due);
        if (skipTo.getTime() > slot.getTime()) {
          // Nothing is due before `skipTo`: the loop goes on at its first slot.
          if (skipTo.getTime() > now.getTime()) break;
          slot = this.nextSlot(new Date(skipTo.getTime() - 1));
          if (slot.getTime() > now.getTime()) break;
        }
      }
      await periodic(osloDate(slot), () => slot);
      const result = await this.runSlot(bank, slot.toISOString(), slot, clock);
      if (result !== undefined) results.push(result);
    }
    await periodic(osloDate(now), () => clock.now());
    return results;
  }

  /** A run of one bank now, outside the schedule (the sandbox's "run the batch now"). */
  async runNow(bank: string): Promise<BatchRunResult> {
    const clock = await this.banks.clockOfBank(bank);
    const now = clock.now();
    return (await this.runSlot(bank, `manual:${now.toISOString()}:${randomBytes(4).toString('hex')}`, now, clock))!;
  }

  async runSlot(bank: string, slot: string, at: Date, clock: Clock): Promise<BatchRunResult | undefined> {
    if (!(await this.store.claimBatchRun(bank, slot, clock.now()))) return undefined;
    const started = performance.now();
    const date = osloDate(at);
    const result: BatchRunResult = { slot, executed: 0, partial: 0, rejected: 0 };
    for (;;) {
      const due = await this.store.findDuePaymentIds(bank, date, this.chunkSize, at);
      if (due.length === 0) break;
      // At the slot's instant, not the clock's now: a clock move runs the slots it passes after the
      // move, and each payment is booked (and its status changed) at the business time of its slot.
      const outcomes = await this.store.executePayments(bank, due, date, at, this.plan, this.scenarios);
      this.onChunk(slot, outcomes.length);
      // better-sqlite3 works synchronously: without a turn of the event loop between chunks, a long
      // run would keep the server from answering requests (and from writing its log) until it ends.
      await new Promise((resolve) => setImmediate(resolve));
      for (const outcome of outcomes) {
        if (outcome.status === 'ACSC') result.executed += 1;
        else if (outcome.status === 'PART') result.partial += 1;
        // A payment a sandbox scenario holds (PDNG, ACSP) is neither: a later run settles it.
        else if (outcome.status === 'RJCT') result.rejected += 1;
      }
      // Payments another instance took are skipped here: stop when nothing of this chunk was ours.
      if (outcomes.length === 0) break;
    }
    await this.store.finishBatchRun(bank, slot, result.executed + result.partial, result.rejected, clock.now());
    this.onRun(result, (performance.now() - started) / 1000);
    return result;
  }
}

/** Wakes at the next batch slot of any bank by its clock; after a bank's clock moves, it is rescheduled. */
export class BatchScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly runner: BatchRunner,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.stopped = false;
    void this.schedule();
  }

  /** Runs the slots that have come, of every bank or of one (after its clock moved), and waits for the next one. */
  /** Runs what is due: of every bank, or of one bank whose clock moved forward from `movedFrom`. */
  async wake(bank?: string, movedFrom?: Date): Promise<unknown> {
    const run = this.running.then(() =>
      bank === undefined ? this.runner.catchUp() : this.runner.catchUpBank(bank, undefined, movedFrom),
    );
    this.running = run.catch(this.onError);
    const result = bank === undefined ? await this.running : await run;
    await this.schedule();
    return result;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.running;
  }

  private async schedule(): Promise<void> {
    if (this.stopped) return;
    const wait = Math.min((await this.runner.untilNextSlotMs()) + 1, 2 ** 31 - 1);
    if (this.stopped) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.wake(), Math.max(wait, 0));
    this.timer.unref();
  }
}
