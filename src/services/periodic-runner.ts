import type { LedgerStore } from '../store/ledger-store.js';
import { BANK_TRANSACTION_CODES, type ExecutionPlan, type PaymentToExecute } from '../domain/payment-execution.js';
import { STANDING_ORDER_DEBIT, scheduleOf } from '../domain/payments/periodic-payment.js';
import { nextExecution } from '../domain/periodic/schedule.js';
import type { Account } from '../domain/bank.js';
import type { Planner } from '../store/ledger-records.js';
import type { BatchRunResult } from './batch-run-result.js';

/** The slot a day's standing order executions are reported under. */
const SLOT_PREFIX = 'periodic:';

/** A run of a day's standing order executions, not a batch run. */
export function isStandingOrderRun(result: BatchRunResult): boolean {
  return result.slot.startsWith(SLOT_PREFIX);
}

/**
 * spec, rule 6: the batch runs (five a day) execute every payment but periodic ones. A standing
 * order's executions are booked on their own dates instead: the bank's scheduler runs them when the
 * bank's day begins, before its first batch run, and whenever it wakes later that day (an order
 * authorised after midnight for today), each execution once, claimed in the store's transaction.
 */
export class PeriodicRunner {
  constructor(
    private readonly store: LedgerStore,
    /** The bank's planning of every payment it executes (execution-planner.ts). */
    private readonly planPayment: Planner,
    private readonly chunkSize: number,
  ) {}

  /**
   * Books every execution of the bank due on or before `date` (by its business clock), in chunks.
   * Reported as a run of the slot `periodic:<date>` when it booked or rejected anything.
   */
  async runDue(bank: string, date: string, at: () => Date): Promise<BatchRunResult | undefined> {
    const result: BatchRunResult = { slot: `${SLOT_PREFIX}${date}`, executed: 0, partial: 0, rejected: 0 };
    for (;;) {
      const due = await this.store.findDuePeriodicPayments(bank, date, this.chunkSize);
      if (due.length === 0) break;
      const outcomes = await this.store.executePeriodicPayments(
        bank,
        due,
        date,
        at(),
        (payment, debtor, creditorOf) => this.plan(payment, debtor, creditorOf),
        (body, afterSeq) => nextExecution(scheduleOf(body), afterSeq),
      );
      for (const outcome of outcomes) {
        if (outcome.status === 'ACSC') result.executed += 1;
        else result.rejected += 1;
      }
      // Another instance took this chunk: it books the rest of the day's executions too.
      if (outcomes.length === 0) break;
      // better-sqlite3 works synchronously: the API gets its turn of the event loop between chunks.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return result.executed + result.rejected > 0 ? result : undefined;
  }

  /** Planned as a payment of the product, and booked with the standing order's own transaction code. */
  private plan(
    payment: PaymentToExecute,
    debtor: Account | undefined,
    creditorOf: (creditorAccount: string) => Account | undefined,
  ): ExecutionPlan {
    const planned = this.planPayment(payment, debtor, creditorOf);
    if (!planned.ok) return planned;
    return {
      ok: true,
      transfers: planned.transfers.map((t) =>
        t.bankTransactionCode === BANK_TRANSACTION_CODES.domesticDebit
          ? { ...t, bankTransactionCode: STANDING_ORDER_DEBIT }
          : t,
      ),
    };
  }
}
