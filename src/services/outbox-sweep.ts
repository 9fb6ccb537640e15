/**
 * The loop of an outbox's sender (the hand-over relay, the notification relay): runs turns until a
 * turn says nothing more is due, when started, whenever nudged (after a write here that put rows in
 * the outbox), and every `sweepMs` (retries come due, another instance left rows). One run at a time:
 * a nudge during a run asks for one more run after it.
 */
export class OutboxSweep {
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    /** One turn; whether more may be due at once (a full batch). */
    private readonly turn: () => Promise<boolean>,
    private readonly sweepMs: number,
    /** A turn that failed (the database itself): the next sweep tries again. */
    private readonly failed: (error: unknown) => void,
  ) {}

  /** Sweeps every `sweepMs` (the timer does not hold the process open), and runs now. */
  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.nudge(), this.sweepMs);
    this.timer.unref();
    this.nudge();
  }

  /** Runs what is due now, without waiting for the sweep. */
  nudge(): void {
    if (this.stopped) return;
    if (this.draining !== undefined) {
      this.again = true;
      return;
    }
    this.draining = this.run().finally(() => {
      this.draining = undefined;
    });
  }

  /** Runs everything due now, and resolves once nothing is left (tests; the shutdown). */
  async drain(): Promise<void> {
    this.nudge();
    while (this.draining !== undefined) await this.draining;
  }

  /** Stops sweeping and waits for the run under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.draining;
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        while (!this.stopped && (await this.turn()));
      } catch (error) {
        this.failed(error);
      }
    } while (this.again && !this.stopped);
  }
}
