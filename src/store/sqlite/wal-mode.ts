import type BetterSqlite3 from 'better-sqlite3';
import { SQLITE_BUSY_WAIT_MS } from '../../domain/limits.js';

/** What Atomics.wait sleeps on between tries: nothing ever wakes it. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));
const RETRY_MS = 10;

/**
 * Sets the wait for another process's lock, then switches the file to WAL. Two processes starting on
 * one new file switch it at once; SQLite answers one of them SQLITE_BUSY at once, without its busy
 * wait, since each holds the shared lock the other's switch must see released. That start was
 * refused (exit code 3): it tries again within the same wait instead, by then finding the file in
 * WAL. A start only, before the server listens: the sleep between tries holds nothing else up.
 */
export function openInWalMode(connection: BetterSqlite3.Database, waitMs = SQLITE_BUSY_WAIT_MS): void {
  connection.pragma(`busy_timeout = ${waitMs}`);
  const giveUpAt = Date.now() + waitMs;
  for (;;) {
    try {
      connection.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= giveUpAt) throw error;
      Atomics.wait(PAUSE, 0, 0, RETRY_MS);
    }
  }
}
