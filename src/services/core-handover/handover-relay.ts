import type { BankCore } from '../../core/bank-core.js';
import type { Clock } from '../../domain/clock.js';
import {
  HANDOVER_BATCH_SIZE,
  HANDOVER_CLAIM_MS,
  HANDOVER_CONCURRENCY,
  HANDOVER_RETRY_BASE_MS,
  HANDOVER_RETRY_MAX_MS,
  HANDOVER_SWEEP_MS,
} from '../../domain/limits.js';
import type { ClaimedHandover, HandoverStore } from '../../store/handover-store.js';
import type { CoreReport, PaymentOrder } from '../../store/core-records.js';
import { OutboxSweep } from '../outbox-sweep.js';
import { FaultLog } from './fault-log.js';
import { backoffMs } from '../../domain/backoff.js';

/**
 * Hands each authorised payment to a bank's own core exactly once (docs/core.md, "Exactly once").
 * Its row was written with the payment's authorisation (the outbox); an instance claims rows for
 * HANDOVER_CLAIM_MS, so no two send one payment at once, and sends each with its paymentId as the
 * idempotency key, so a send repeated after a crash or a lapsed claim executes nothing twice. A
 * failed send is tried again with exponential backoff and jitter, after a restart too: the row
 * stays until the core acknowledged it. The core's answer is applied in the transaction that
 * closes the row.
 */
export class HandoverRelay {
  private readonly sweep: OutboxSweep;
  private readonly faults: FaultLog;

  constructor(
    private readonly store: Pick<
      HandoverStore,
      'claimHandovers' | 'handoverOrders' | 'completeHandovers' | 'deferHandover'
    >,
    private readonly core: Pick<BankCore, 'submitPayment'>,
    /** This process's name in claims: another instance's claim is left alone while it holds. */
    private readonly instance: string,
    private readonly clock: Clock,
    log: (level: 'warn' | 'info', fields: Record<string, unknown>, message: string) => void,
    /** Told of each payment the core acknowledged, with the delay from its authorisation (the metrics). */
    private readonly onHanded: (delayMs: number) => void = () => undefined,
  ) {
    this.faults = new FaultLog('handing payments to the core', log);
    this.sweep = new OutboxSweep(
      () => this.turn().then((claimed) => claimed === HANDOVER_BATCH_SIZE),
      HANDOVER_SWEEP_MS,
      (error) => this.faults.failed(error),
    );
  }

  /** Sweeps for due rows every HANDOVER_SWEEP_MS: retries, and rows another instance left (outbox-sweep.ts). */
  start(): void {
    this.sweep.start();
  }

  /** Sends what is due now, at once (after a write here), without waiting for the sweep. */
  nudge(): void {
    this.sweep.nudge();
  }

  /** Sends everything due now, and resolves once nothing due is left (tests; the shutdown). */
  drain(): Promise<void> {
    return this.sweep.drain();
  }

  /** Stops sweeping and waits for the sends under way. */
  stop(): Promise<void> {
    return this.sweep.stop();
  }

  /** One batch: claims what is due, sends each (HANDOVER_CONCURRENCY at a time), and returns how many it claimed. */
  async turn(): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.store.claimHandovers(
      this.instance,
      now,
      new Date(now.getTime() + HANDOVER_CLAIM_MS),
      HANDOVER_BATCH_SIZE,
    );
    if (claimed.length === 0) return 0;
    const orders = new Map(
      (await this.store.handoverOrders(claimed.map((c) => c.paymentId))).map((o) => [o.paymentId, o]),
    );
    for (let start = 0; start < claimed.length; start += HANDOVER_CONCURRENCY) {
      const slice = claimed.slice(start, start + HANDOVER_CONCURRENCY);
      const answers = await Promise.all(slice.map((c) => this.send(c, orders)));
      // The answers of a slice close their rows in one transaction: one commit, not one per payment.
      const reports = answers.flatMap((a) => (a === undefined ? [] : [a]));
      const at = this.clock.now();
      await this.store.completeHandovers(reports, at);
      for (const report of reports) this.onHanded(at.getTime() - orders.get(report.paymentId)!.authorisedAt.getTime());
    }
    return claimed.length;
  }

  /** Sends one payment; its report when the core acknowledged it, undefined when the send failed (deferred). */
  private async send(handover: ClaimedHandover, orders: Map<string, PaymentOrder>): Promise<CoreReport | undefined> {
    const order = orders.get(handover.paymentId);
    if (order === undefined) return undefined;
    try {
      const report = await this.core.submitPayment(handover.bank, order);
      this.faults.recovered();
      return report;
    } catch (error) {
      this.faults.failed(error);
      const next = new Date(this.clock.now().getTime() + retryDelayMs(handover.attempts));
      await this.store.deferHandover(handover.paymentId, this.instance, next, reasonOf(error));
      return undefined;
    }
  }
}

/** How long after its `attempts`-th failure a hand-over is tried again: from HANDOVER_RETRY_BASE_MS up to HANDOVER_RETRY_MAX_MS. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  return backoffMs(attempts, HANDOVER_RETRY_BASE_MS, HANDOVER_RETRY_MAX_MS, random);
}

function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}
