import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpointer copies the WAL into the database file. */
export const CHECKPOINT_INTERVAL_MS = 100;
/**
 * The worker starts this long after the first write: a start of the server (whose migrations and
 * default data write) then does not share its two cores with a second V8 isolate booting.
 */
export const CHECKPOINTER_START_DELAY_MS = 1_000;
/**
 * Pages of WAL at which the writing connection checkpoints by itself (SQLite's own default is 1 000):
 * a fallback only, for when the checkpointer cannot run; normally the WAL never grows this far.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 20_000;

// CommonJS, run by the worker (an eval'd worker has require): one connection of its own that only
// checkpoints, PASSIVE so that it never waits for, nor holds up, the writer.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('synchronous = FULL');
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage(String(error)); }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); checkpoint(); db.close(); parentPort.close(); });
`;

/**
 * Checkpoints a WAL database from a worker thread. SQLite's automatic checkpoint runs inside the
 * commit that crosses the threshold: it copies the WAL into the database file and flushes both on
 * the event loop, holding every request in flight for milliseconds, the tail of the create latency
 * (docs/decisions/0104). The worker starts a second after the first
 * write, so a start pays nothing for it.
 */
export class Checkpointer {
  private worker: Worker | undefined;
  private starting: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly onError: (message: string) => void = (message) =>
      process.emitWarning(message, 'SqliteCheckpointWarning'),
  ) {}

  /** A write was committed: from now on the WAL needs checkpointing. */
  started(): void {
    if (this.worker !== undefined || this.starting !== undefined || this.closed) return;
    this.starting = setTimeout(() => this.startWorker(), CHECKPOINTER_START_DELAY_MS);
    this.starting.unref();
  }

  /** Starts the worker now (started() does it after the delay). */
  startWorker(): void {
    if (this.closed || this.worker !== undefined) return;
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module, path: this.path, intervalMs: CHECKPOINT_INTERVAL_MS },
    });
    this.worker.unref();
    this.worker.on('message', (message: string) => this.onError(message));
    this.worker.on('error', (error) => this.onError(String(error)));
  }

  /** Runs a last checkpoint and closes the worker's connection; waits for the worker to end. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.starting);
    const worker = this.worker;
    if (worker === undefined) return;
    const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref(); // unreferenced, it would not keep the process alive until it has ended
    worker.postMessage('close');
    await ended;
  }
}
