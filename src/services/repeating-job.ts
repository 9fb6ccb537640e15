/**
 * Runs `work` on this process every `everyMs`, and once at start unless told not to. A run is never
 * overlapped: a tick that comes while one is under way is skipped, so a slow database makes runs
 * fewer, never a queue of them. The timer keeps no process alive; stop waits for the run under way.
 */
export class RepeatingJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly everyMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(runNow = true): void {
    this.timer = setInterval(() => this.tick(), this.everyMs);
    this.timer.unref();
    if (runNow) this.tick();
  }

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.running;
  }

  private tick(): void {
    this.running ??= this.work()
      .then(() => undefined, this.onError)
      .finally(() => (this.running = undefined));
  }
}
