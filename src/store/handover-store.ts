import type { CoreReport, PaymentOrder } from './core-records.js';

/** A hand-over an instance has claimed: the payment, and how often it was tried before. */
export interface ClaimedHandover {
  paymentId: string;
  bank: string;
  attempts: number;
}

/** What became of a cancellation asked for a payment meant for a bank's own core. */
export type UnsentCancellation = 'cancelled' | 'in-core' | 'not-cancellable';

/**
 * The hand-over of authorised payments to a bank's own core (docs/core.md, "Exactly once"): the
 * outbox each payment's row is written to when the PSU authorises it (decidePayments with
 * `handOver`), claimed by one instance at a time, and the status reports the core sends back.
 */
export interface HandoverStore {
  /**
   * Claims hand-overs due at `now` for `instance` until `until`, oldest due first, at most `limit`:
   * rows not handed over, not cancelled, and not claimed by another instance whose claim still holds.
   */
  claimHandovers(instance: string, now: Date, until: Date, limit: number): Promise<ClaimedHandover[]>;
  /** The orders of these payments as they were authorised, in the order asked (those gone are left out). */
  handoverOrders(paymentIds: readonly string[]): Promise<PaymentOrder[]>;
  /** The core acknowledged these payments: their rows are done, and its answers applied, in one transaction. */
  completeHandovers(reports: readonly CoreReport[], at: Date): Promise<void>;
  /** The send failed: tried again at `nextAttemptAt`, the claim released. */
  deferHandover(paymentId: string, instance: string, nextAttemptAt: Date, error: string): Promise<void>;
  /**
   * A cancellation the PSU approved, for a payment meant for a bank's own core: cancelled here, in
   * one transaction with its hand-over, while no instance holds the hand-over and it was never sent
   * ('cancelled'); 'in-core' when it was sent (or is being sent): the core must be asked.
   */
  cancelUnsentHandover(tppId: string, paymentId: string, at: Date, requestId: string): Promise<UnsentCancellation>;
  /**
   * Applies the core's status reports to the payments: each only forward (never back to RCVD or
   * ACTC, never over a final status), with a bulk's entries and a standing order's executions;
   * a report of a payment this server does not have is left. Returns the ids that changed.
   */
  applyCoreReports(reports: readonly CoreReport[], at: Date): Promise<string[]>;
  /** Takes the turn to poll the core for status reports until `until`, unless another instance has it: its cursor then. */
  claimReportPoll(
    name: string,
    instance: string,
    now: Date,
    until: Date,
  ): Promise<{ cursor: string | undefined } | undefined>;
  saveReportCursor(name: string, instance: string, cursor: string | undefined, at: Date): Promise<void>;
  /** Hand-overs not yet acknowledged by the core (the metrics' gauge; tests). */
  countPendingHandovers(): Promise<number>;
}
