/**
 * Work under way, by key: while one caller's read of something runs, the callers that come for the
 * same key find it here and wait for it rather than each starting their own (docs/decisions/0370).
 * What a waiting caller does once it settles is the owner's to decide.
 */
export class UnderWay<T> {
  private readonly running = new Map<string, Promise<T>>();

  /** The work under way for the key, if any. */
  get(key: string): Promise<T> | undefined {
    return this.running.get(key);
  }

  /** Keeps the work as under way for the key until it settles (or is dropped); returns it. */
  start(key: string, work: Promise<T>): Promise<T> {
    const kept: Promise<T> = work.finally(() => {
      // Dropped meanwhile, and perhaps another begun since: that one stays.
      if (this.running.get(key) === kept) this.running.delete(key);
    });
    this.running.set(key, kept);
    return kept;
  }

  /** The callers that come from now on no longer wait for the key's work begun before. */
  drop(key: string): void {
    this.running.delete(key);
  }

  clear(): void {
    this.running.clear();
  }
}
