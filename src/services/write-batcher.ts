/**
 * Writes items in batches: each `add` resolves once its item is written, and the items added while a
 * write runs go together in the next one. Many concurrent answers then cost one transaction (one
 * commit, one fsync) rather than one each, and a write never waits for a timer.
 */
export class WriteBatcher<T> {
  private queue: { item: T; done: (error?: unknown) => void }[] = [];
  private running: Promise<void> | undefined;

  constructor(private readonly write: (items: T[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, done: (error) => (error === undefined ? resolve() : reject(error)) });
      this.running ??= this.writeAll().finally(() => {
        this.running = undefined;
      });
    });
  }

  private async writeAll(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      try {
        await this.write(batch.map((b) => b.item));
        for (const b of batch) b.done();
      } catch (error) {
        for (const b of batch) b.done(error ?? new Error('the write failed'));
      }
    }
  }
}
