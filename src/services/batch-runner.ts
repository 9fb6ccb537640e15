import { randomBytes } from 'node:crypto';
import { Cron } from 'croner';
import { type Clock, osloDate } from '../domain/clock.js';
import { planExecution } from '../domain/payment-execution.js';
import type { ReferenceRates } from '../domain/reference-rates.js';
import type { Store } from '../store/store.js';

/** spec, rule 6: payment batch processing is simulated five times a day (Europe/Oslo, configurable). */
export const DEFAULT_BATCH_TIMES = ['06:00', '09:00', '12:00', '15:00', '18:00'];

/**
 * Payments executed in one database transaction. A chunk costs a handful of statements whatever its
 * size (ledger-queries executePayments), and 500 take some 30 ms on SQLite: a run of 100 000 is 200
 * commits, a run killed part-way has only its one uncommitted chunk to redo, and the API waits at
 * most one chunk for its turn of the event loop. Chunks of 1 000 and 2 000 measured no faster.
 */
export const BATCH_CHUNK_SIZE = 500;

export interface BatchRunResult {
  slot: string;
  executed: number;
  partial: number;
  rejected: number;
}

/**
 * Runs the batch: every authorised payment whose execution date has come is executed once (the store
 * claims each payment in its transaction), in chunks; a slot is claimed first, so two instances on
 * one database never both run it.
 */
export class BatchRunner {
  private readonly schedules: Cron[];

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly rates: ReferenceRates,
    readonly times: readonly string[] = DEFAULT_BATCH_TIMES,
    private readonly chunkSize: number = BATCH_CHUNK_SIZE,
    /** Told after each committed chunk (the server logs it at debug level). */
    private readonly onChunk: (slot: string, outcomes: number) => void = () => undefined,
  ) {
    this.schedules = times.map((time) => {
      const [hour, minute] = time.split(':').map(Number);
      return new Cron(`0 ${minute} ${hour} * * *`, { timezone: 'Europe/Oslo', paused: true });
    });
  }

  /** The first batch slot after an instant. */
  nextSlot(after: Date): Date {
    const next = this.schedules.map((s) => s.nextRun(after)).filter((d): d is Date => d !== null);
    return new Date(Math.min(...next.map((d) => d.getTime())));
  }

  /** Runs every slot that has come since the last one run (at most a week back), in order. */
  async catchUp(): Promise<BatchRunResult[]> {
    const now = this.clock.now();
    const last = await this.store.lastBatchSlot();
    const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
    let from = last === undefined ? undefined : new Date(Math.max(Date.parse(last), weekAgo.getTime()));
    if (from === undefined) {
      // The first start of a bank runs nothing from before it existed.
      await this.store.claimBatchRun(new Date(now.getTime() - 1).toISOString(), now);
      return [];
    }
    const results: BatchRunResult[] = [];
    for (let slot = this.nextSlot(from); slot.getTime() <= now.getTime(); slot = this.nextSlot(slot)) {
      const result = await this.runSlot(slot.toISOString(), slot);
      if (result !== undefined) results.push(result);
      from = slot;
    }
    return results;
  }

  /** A run now, outside the schedule (the sandbox's "run the batch now"). */
  async runNow(): Promise<BatchRunResult> {
    const now = this.clock.now();
    return (await this.runSlot(`manual:${now.toISOString()}:${randomBytes(4).toString('hex')}`, now))!;
  }

  async runSlot(slot: string, at: Date): Promise<BatchRunResult | undefined> {
    if (!(await this.store.claimBatchRun(slot, this.clock.now()))) return undefined;
    const date = osloDate(at);
    const result: BatchRunResult = { slot, executed: 0, partial: 0, rejected: 0 };
    for (;;) {
      const due = await this.store.findDuePaymentIds(date, this.chunkSize);
      if (due.length === 0) break;
      const outcomes = await this.store.executePayments(due, date, this.clock.now(), (payment, debtor) => planExecution(payment, debtor, this.rates));
      this.onChunk(slot, outcomes.length);
      // better-sqlite3 works synchronously: without a turn of the event loop between chunks, a long
      // run would keep the server from answering requests (and from writing its log) until it ends.
      await new Promise((resolve) => setImmediate(resolve));
      for (const outcome of outcomes) {
        if (outcome.status === 'ACSC') result.executed += 1;
        else if (outcome.status === 'PART') result.partial += 1;
        else result.rejected += 1;
      }
      // Payments another instance took are skipped here: stop when nothing of this chunk was ours.
      if (outcomes.length === 0) break;
    }
    await this.store.finishBatchRun(slot, result.executed + result.partial, result.rejected, this.clock.now());
    return result;
  }
}

/** Wakes at each batch slot by the business clock; after the sandbox clock moves, it is rescheduled. */
export class BatchScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(private readonly runner: BatchRunner, private readonly clock: Clock, private readonly onError: (error: unknown) => void) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Runs the slots that have come (after the clock moved) and waits for the next one. */
  async wake(): Promise<unknown> {
    this.running = this.running.then(() => this.runner.catchUp()).catch(this.onError);
    const result = await this.running;
    this.schedule();
    return result;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const now = this.clock.now();
    const wait = Math.min(this.runner.nextSlot(now).getTime() - now.getTime() + 1, 2 ** 31 - 1);
    this.timer = setTimeout(() => void this.wake(), Math.max(wait, 0));
    this.timer.unref();
  }
}
