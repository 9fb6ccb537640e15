import { ApiError } from '../../domain/api-error.js';
import { osloDate } from '../../domain/clock.js';
import { SANDBOX_CLOCK_LATEST, SANDBOX_CLOCK_MAX_ADVANCE_SECONDS } from '../../domain/limits.js';
import type { BankClock, Banks } from '../banks.js';
import type { BatchRunner, BatchScheduler } from '../batch-runner.js';
import type { BatchRunResult } from '../batch-run-result.js';
import { isStandingOrderRun } from '../periodic-runner.js';
import type { ConsentExpiry } from '../consent-expiry.js';

/** A bank's business clock as the sandbox shows it. */
export interface ClockReading {
  now: Date;
  /** The business date in Norway. */
  today: string;
  /** How far the bank's clock is ahead of the wall clock. */
  offsetSeconds: number;
  batchTimes: readonly string[];
  nextBatchRun: Date;
}

/** A move of the clock: forward by a number of seconds, or to an instant; exactly one of the two. */
export interface ClockMove {
  advanceSeconds?: number;
  to?: string;
}

/** The clock after a move, and what the move ran on its way. */
export interface ClockMoved {
  clock: ClockReading;
  /** The batch runs whose slots the move passed. */
  batchRuns: BatchRunResult[];
  /** The standing orders' executions the move passed, per day (not batch runs: booked when the day begins). */
  standingOrders: BatchRunResult[];
}

/**
 * The sandbox's business clock and batch runs (docs/batch.md, "The sandbox's clock"): each TPP reads
 * its bank's clock, moves it forward (the batch slots passed on the way run, for its bank only), or
 * runs its bank's batch now. The clock routes and the console both act through it.
 */
export class SandboxClock {
  constructor(
    private readonly banks: Banks,
    private readonly runner: BatchRunner,
    private readonly scheduler: BatchScheduler,
    private readonly consents: Pick<ConsentExpiry, 'expireBank'>,
  ) {}

  async read(tppId: string): Promise<ClockReading> {
    return this.readingOf(await this.banks.clockOf(tppId));
  }

  /** Moves the TPP's bank's clock forward; every batch slot and day the move passes runs, in order. */
  async move(tppId: string, move: ClockMove): Promise<ClockMoved> {
    if (move.advanceSeconds !== undefined && move.to !== undefined) {
      throw new ApiError('FORMAT_ERROR', 'give either advanceSeconds or to, not both', [
        { code: 'FORMAT_ERROR', path: '$', text: 'give either advanceSeconds or to, not both' },
      ]);
    }
    const before = await this.banks.storedClockOf(tppId);
    const target = clockTarget(move, before);
    const movedFrom = before.now();
    await this.banks.advance(tppId, target);
    // The slots the move passes run for this TPP's bank only, every one of them however far it goes.
    const runs = await this.scheduler.wake(this.banks.of(tppId), movedFrom);
    // Consents whose SCA the move made 180 days old expire now, and their TPPs are told at once.
    await this.consents.expireBank(this.banks.of(tppId));
    const results = Array.isArray(runs) ? (runs as BatchRunResult[]) : [];
    return {
      clock: await this.read(tppId),
      // The move's answer lists the slots it passed; a slot from before it that the wake caught up
      // on (one no run had claimed yet) ran too, but was not the move's doing.
      batchRuns: results.filter((r) => !isStandingOrderRun(r) && Date.parse(r.slot) > movedFrom.getTime()),
      standingOrders: results.filter((r) => isStandingOrderRun(r)),
    };
  }

  /**
   * Runs the TPP's bank's batch slots that have come by its clock, and reschedules: after a snapshot's
   * restore (its route and the console's), whose clock may be behind the one before and whose payments
   * may wait for a slot.
   */
  async catchUp(tppId: string): Promise<void> {
    await this.scheduler.wake(this.banks.of(tppId));
  }

  /** A batch run of the TPP's bank now, outside the schedule: every authorised payment that is due. */
  runNow(tppId: string): Promise<BatchRunResult> {
    return this.runner.runNow(this.banks.of(tppId));
  }

  private readingOf(clock: BankClock): ClockReading {
    const now = clock.now();
    return {
      now,
      today: osloDate(now),
      offsetSeconds: Math.round(clock.offsetMs / 1000),
      batchTimes: this.runner.times,
      nextBatchRun: this.runner.nextSlot(now),
    };
  }
}

/** The instant a move of one form asks for, refused when the clock cannot go there in one move. */
function clockTarget(move: ClockMove, clock: BankClock): Date {
  const target =
    move.to !== undefined ? new Date(move.to) : new Date(clock.now().getTime() + (move.advanceSeconds ?? 0) * 1000);
  // RFC 3339 allows second 60 (a leap second), which JavaScript's Date, and so this clock, cannot hold.
  if (Number.isNaN(target.getTime())) {
    const text = `$.to ${move.to} is a leap second or another time the clock cannot show; give an instant such as ${String(move.to).replace(/:60(?=\D|$)/, ':59')}`;
    throw new ApiError('FORMAT_ERROR', text, [{ code: 'FORMAT_ERROR', path: '$.to', text }]);
  }
  if (target.getTime() - clock.now().getTime() > SANDBOX_CLOCK_MAX_ADVANCE_SECONDS * 1000) {
    const path = move.to !== undefined ? '$.to' : '$.advanceSeconds';
    const text = `the clock moves at most ${SANDBOX_CLOCK_MAX_ADVANCE_SECONDS} seconds (ten years) at a time`;
    throw new ApiError(
      'FORMAT_ERROR',
      `the clock moves at most ${SANDBOX_CLOCK_MAX_ADVANCE_SECONDS} seconds at a time`,
      [{ code: 'FORMAT_ERROR', path, text }],
    );
  }
  if (target.getTime() > SANDBOX_CLOCK_LATEST.getTime()) {
    const path = move.to !== undefined ? '$.to' : '$.advanceSeconds';
    const text = `${path} would move the clock to ${target.toISOString()}; the sandbox clock goes no further than ${SANDBOX_CLOCK_LATEST.toISOString()}, where its batch schedule ends`;
    throw new ApiError('FORMAT_ERROR', text, [{ code: 'FORMAT_ERROR', path, text }]);
  }
  return target;
}
