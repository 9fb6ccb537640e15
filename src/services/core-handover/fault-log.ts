/**
 * A fault of the bank's core logged once, not once per retry: a core down for an hour with a
 * backlog of thousands would otherwise write a line per payment per try. The fault is logged when it
 * begins or its reason changes, and its end when a call succeeds again.
 */
export class FaultLog {
  private current: string | undefined;
  private repeats = 0;

  constructor(
    private readonly what: string,
    private readonly log: (level: 'warn' | 'info', fields: Record<string, unknown>, message: string) => void,
  ) {}

  failed(error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    if (reason === this.current) {
      this.repeats += 1;
      return;
    }
    this.current = reason;
    this.repeats = 0;
    this.log('warn', { reason }, `${this.what} failed; retrying with backoff`);
  }

  recovered(): void {
    if (this.current === undefined) return;
    this.log('info', { lastReason: this.current, failuresSince: this.repeats + 1 }, `${this.what} works again`);
    this.current = undefined;
    this.repeats = 0;
  }
}
