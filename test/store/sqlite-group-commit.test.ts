import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Checkpointer } from '../../src/store/sqlite/checkpointer.js';
import { StatementCache } from '../../src/store/sqlite/statement-cache.js';
import { WalSync } from '../../src/store/sqlite/wal-sync.js';

const dir = mkdtempSync(join(tmpdir(), 'psd2-wal-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const walFile = join(dir, 'db-wal');
writeFileSync(walFile, '');

/** A flush the test completes by hand, so that the order of events is the test's, not the disk's. */
function manualFlush() {
  const pending: ((error: Error | null) => void)[] = [];
  return {
    calls: () => pending.length,
    flushFile: (_fd: number, done: (error: Error | null) => void) => {
      pending.push(done);
    },
    complete: (index: number, error: Error | null = null) => pending[index]!(error),
  };
}

/** Settles the promise's state after pending callbacks: 'resolved', 'rejected' or 'pending'. */
async function state(promise: Promise<void>): Promise<string> {
  const marker = Symbol('pending');
  const outcome = await Promise.race([
    promise.then(
      () => 'resolved',
      () => 'rejected',
    ),
    new Promise((resolve) => setImmediate(() => resolve(marker))),
  ]);
  return outcome === marker ? 'pending' : (outcome as string);
}

describe('group commit (WalSync): a writer is answered only after a flush that began after its commit', () => {
  it('answers at once when nothing was written, and for an in-memory database', async () => {
    const flush = manualFlush();
    assert.equal(await state(new WalSync(walFile, flush.flushFile).durable()), 'resolved');
    const memory = new WalSync(undefined, flush.flushFile);
    memory.wrote();
    assert.equal(await state(memory.durable()), 'resolved');
    assert.equal(flush.calls(), 0);
  });

  it('holds a writer until the flush completes', async () => {
    const flush = manualFlush();
    const sync = new WalSync(walFile, flush.flushFile);
    sync.wrote();
    const writer = sync.durable();
    assert.equal(await state(writer), 'pending');
    flush.complete(0);
    assert.equal(await state(writer), 'resolved');
    await sync.close();
  });

  it('lets writers that commit during a flush share the next one, not the one under way', async () => {
    const flush = manualFlush();
    const sync = new WalSync(walFile, flush.flushFile);
    sync.wrote();
    const first = sync.durable();
    sync.wrote();
    const second = sync.durable();
    sync.wrote();
    const third = sync.durable();
    assert.equal(flush.calls(), 1, 'one flush under way');
    flush.complete(0);
    assert.equal(await state(first), 'resolved');
    assert.equal(await state(second), 'pending', 'the first flush may have begun before the second commit');
    assert.equal(flush.calls(), 2, 'the second and third share one flush');
    flush.complete(1);
    assert.deepEqual([await state(second), await state(third)], ['resolved', 'resolved']);
    await sync.close();
  });

  it('holds a reader that may have seen a commit not yet flushed', async () => {
    const flush = manualFlush();
    const sync = new WalSync(walFile, flush.flushFile);
    sync.wrote();
    const writer = sync.durable();
    const reader = sync.durable();
    assert.equal(await state(reader), 'pending');
    flush.complete(0);
    assert.deepEqual([await state(writer), await state(reader)], ['resolved', 'resolved']);
    await sync.close();
  });

  it('fails the writers when the WAL file cannot even be opened, and still flushes for the next (it held every later flush before)', async () => {
    const flush = manualFlush();
    const missing = new WalSync(join(dir, 'no-such-folder', 'db-wal'), flush.flushFile);
    missing.wrote();
    assert.equal(await state(missing.durable()), 'rejected');
    missing.wrote();
    assert.equal(await state(missing.durable()), 'rejected', 'tried again and refused again, not left pending');
    await missing.close();
    let throwOnce = true;
    const sync = new WalSync(walFile, (fd, done) => {
      if (throwOnce) {
        throwOnce = false;
        throw new Error('EIO at once');
      }
      flush.flushFile(fd, done);
    });
    sync.wrote();
    await assert.rejects(sync.durable(), /EIO at once/);
    sync.wrote();
    const next = sync.durable();
    assert.equal(flush.calls(), 1, 'a new flush began');
    flush.complete(0);
    assert.equal(await state(next), 'resolved');
    await sync.close();
  });

  it('fails the writers a failed flush covered, and flushes again for the next', async () => {
    const flush = manualFlush();
    const sync = new WalSync(walFile, flush.flushFile);
    sync.wrote();
    const writer = sync.durable();
    flush.complete(0, new Error('EIO'));
    await assert.rejects(writer, /EIO/);
    const retry = sync.durable();
    assert.equal(flush.calls(), 2, 'nothing counts as flushed after a failure');
    flush.complete(1);
    assert.equal(await state(retry), 'resolved');
    await sync.close();
  });
});

describe('statement cache', () => {
  it('prepares each SQL text once, drops the oldest beyond its limit, and notes writes', () => {
    const cache = new StatementCache(new BetterSqlite3(':memory:'), 2);
    cache.prepare('create table t (x integer)').run([]);
    assert.equal(cache.takeWrote(), true);
    assert.equal(cache.takeWrote(), false, 'taken once');
    const select = cache.prepare('select x from t');
    assert.equal(cache.prepare('select x from t'), select);
    assert.equal(cache.takeWrote(), false, 'a read is not a write');
    cache.prepare('select 1');
    cache.prepare('select 2');
    assert.notEqual(cache.prepare('select x from t'), select, 'dropped when two newer texts came');
    cache.close();
  });
});

describe('checkpointer', () => {
  it('copies committed WAL frames into the database file from its worker, and once more on close', async () => {
    const file = join(dir, 'checkpointed.db');
    const writer = new BetterSqlite3(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table t (x integer)');
    const checkpointer = new Checkpointer(file);
    checkpointer.startWorker();
    for (let i = 0; i < 100; i++) writer.prepare('insert into t (x) values (?)').run(i);
    await checkpointer.close();
    const unstarted = new Checkpointer(file);
    unstarted.started();
    await unstarted.close(); // closing before the delay ends starts no worker, and does not hang
    // The database file alone, without its WAL, holds the rows only if a checkpoint copied them.
    const copy = join(dir, 'copy.db');
    copyFileSync(file, copy);
    const alone = new BetterSqlite3(copy, { readonly: true });
    assert.equal((alone.prepare('select count(*) as n from t').get() as { n: number }).n, 100);
    alone.close();
    writer.close();
  });
});

describe('statement cache and writes that return rows', () => {
  it('counts an UPDATE … RETURNING as a write', () => {
    const cache = new StatementCache(new BetterSqlite3(':memory:'));
    cache.prepare('create table t (x integer)').run([]);
    cache.prepare('insert into t (x) values (1)').run([]);
    cache.takeWrote();
    assert.deepEqual(cache.prepare('update t set x = 2 returning x').all([]), [{ x: 2 }]);
    assert.equal(cache.takeWrote(), true);
    cache.close();
  });
});
