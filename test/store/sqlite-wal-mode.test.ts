import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { openInWalMode } from '../../src/store/sqlite/wal-mode.js';

const require = createRequire(import.meta.url);
const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * Another connection, on a thread of its own, that reads the new file and then holds its write lock
 * for `holdMs`: the state in which a second process's switch to WAL is answered SQLITE_BUSY at once,
 * without SQLite's busy wait. Resolves once the lock is held; `released` once it is let go.
 */
async function holdWriteLock(path: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const Database = require(workerData.module);
     const db = new Database(workerData.path);
     db.prepare('create table if not exists t (x)').run();
     db.prepare('begin immediate').run();
     parentPort.postMessage('held');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
     db.prepare('commit').run();
     db.close();`,
    { eval: true, workerData: { path, holdMs, module: require.resolve('better-sqlite3') } },
  );
  await new Promise((resolve) => worker.once('message', resolve));
  return { released: new Promise((resolve) => worker.once('exit', () => resolve())) };
}

function newFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-wal-'));
  dirs.push(dir);
  return join(dir, 'shared.db');
}

describe('SQLite: switching a file to WAL while another connection holds its lock (wal-mode.ts)', () => {
  it("waits for the other connection's lock, where the switch alone is refused at once", async () => {
    const path = newFile();
    const connection = new BetterSqlite3(path);
    connection.prepare('select count(*) from sqlite_master').get();
    const holder = await holdWriteLock(path, 300);
    connection.pragma('busy_timeout = 5000');
    assert.throws(
      () => connection.pragma('journal_mode = WAL'),
      { code: 'SQLITE_BUSY' },
      'SQLite refuses without its wait',
    );
    openInWalMode(connection);
    assert.equal(connection.pragma('journal_mode', { simple: true }), 'wal');
    await holder.released;
    connection.close();
  });

  it('gives up with SQLITE_BUSY after its wait, and leaves the file as it was', async () => {
    const path = newFile();
    const connection = new BetterSqlite3(path);
    connection.prepare('select count(*) from sqlite_master').get();
    const holder = await holdWriteLock(path, 1_000);
    assert.throws(() => openInWalMode(connection, 100), { code: 'SQLITE_BUSY' });
    await holder.released;
    assert.equal(connection.pragma('journal_mode', { simple: true }), 'delete');
    connection.close();
  });
});
