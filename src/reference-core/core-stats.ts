/**
 * What the reference core counts for tests of exactly-once (GET /admin/stats): the hand-overs it
 * received, the distinct payments they carried, and how many times the ledger executed each payment
 * (and each execution of a standing order).
 * A payment executed twice is the one thing the server's relay must never cause.
 */
export class CoreStats {
  private handOvers = 0;
  private readonly payments = new Set<string>();
  private readonly executions = new Map<string, number>();
  /** A standing order's executions, by payment and the execution's number. */
  private readonly periodic = new Map<string, Map<number, number>>();
  private pushedReports = 0;
  private droppedReports = 0;

  handedOver(paymentId: string): void {
    this.handOvers += 1;
    this.payments.add(paymentId);
  }

  executed(paymentIds: readonly string[]): void {
    for (const id of paymentIds) this.executions.set(id, (this.executions.get(id) ?? 0) + 1);
  }

  executedPeriodic(executions: readonly { paymentId: string; seq: number }[]): void {
    for (const { paymentId, seq } of executions) {
      const order = this.periodic.get(paymentId) ?? new Map<number, number>();
      order.set(seq, (order.get(seq) ?? 0) + 1);
      this.periodic.set(paymentId, order);
    }
  }

  pushed(reports: number): void {
    this.pushedReports += reports;
  }

  dropped(reports: number): void {
    this.droppedReports += reports;
  }

  toJSON(): Record<string, unknown> {
    return {
      handOvers: this.handOvers,
      distinctPayments: this.payments.size,
      executions: Object.fromEntries(this.executions),
      standingOrderExecutions: Object.fromEntries(
        [...this.periodic].map(([id, order]) => [id, Object.fromEntries(order)]),
      ),
      executedTwice: [
        ...[...this.executions].filter(([, n]) => n > 1).map(([id]) => id),
        ...[...this.periodic].filter(([, order]) => [...order.values()].some((n) => n > 1)).map(([id]) => id),
      ],
      pushedReports: this.pushedReports,
      droppedReports: this.droppedReports,
    };
  }
}
