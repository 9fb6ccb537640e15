import { closeSync, fdatasync, openSync } from 'node:fs';

/**
 * Group commit for SQLite in WAL mode. Commits run with synchronous=NORMAL (written to the WAL, not
 * flushed); before a writer is answered, the WAL file is flushed once more (fdatasync, as SQLite's
 * own sync does on Linux) on Node's thread pool, by a flush that covers every commit made before it
 * began. Requests that commit while a flush runs share the
 * next one, so durability costs one flush per group rather than one per request, and the flush does
 * not block the event loop as synchronous=FULL's does inside better-sqlite3.
 *
 * A reader waits too when it may have seen a commit not yet flushed: nothing is ever answered from
 * data that a power loss could still take away.
 */
export class WalSync {
  /** Uses of the connection that wrote, so far. */
  private written = 0;
  /** Of those, how many are known flushed. */
  private synced = 0;
  private waiters: { upTo: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  private flushing: Promise<void> | undefined;
  private fd: number | undefined;

  /** `walPath` undefined: an in-memory database, where there is nothing to flush. */
  constructor(
    private readonly walPath: string | undefined,
    private readonly flushFile: (fd: number, done: (error: Error | null) => void) => void = fdatasync,
  ) {}

  /** A use of the connection that wrote has ended (its commit is done). */
  wrote(): void {
    this.written += 1;
  }

  /** Resolves once every commit made so far is on disk. */
  durable(): Promise<void> {
    if (this.walPath === undefined || this.synced >= this.written) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ upTo: this.written, resolve, reject });
      this.flush();
    });
  }

  /** Waits for a flush under way, then closes the file (before the database closes and removes the WAL). */
  async close(): Promise<void> {
    await this.flushing;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private flush(): void {
    if (this.flushing !== undefined || this.waiters.length === 0) return;
    const upTo = this.written;
    let done!: () => void;
    // Set before the flush starts: a flush that fails at once (the file cannot be opened) clears it
    // in `finish`, which must come after, or a settled promise would stay here and hold every later flush.
    this.flushing = new Promise<void>((resolve) => {
      done = resolve;
    });
    const finish = (error: Error | null) => {
      if (error === null) this.synced = Math.max(this.synced, upTo);
      const covered = this.waiters.filter((w) => w.upTo <= upTo);
      this.waiters = this.waiters.filter((w) => w.upTo > upTo);
      for (const waiter of covered) {
        if (error === null) waiter.resolve();
        else waiter.reject(error);
      }
      this.flushing = undefined;
      done();
      this.flush();
    };
    try {
      // Opened once and kept: closing a descriptor would drop POSIX locks the process holds on the file.
      this.fd ??= openSync(this.walPath!, 'r');
      this.flushFile(this.fd, finish);
    } catch (error) {
      finish(error as Error);
    }
  }
}
