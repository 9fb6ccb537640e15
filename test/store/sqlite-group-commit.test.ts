import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
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
    flushFile: (_fd: number, done: (error: Error | null) => void) => { pending.push(done); },
    complete: (index: number, error: Error | null = null) => pending[index]!(error),
  };
}

/** Settles the promise's state after pending callbacks: 'resolved', 'rejected' or 'pending'. */
async function state(promise: Promise<void>): Promise<string> {
  const marker = Symbol('pending');
  const outcome = await Promise.race([promise.then(() => 'resolved', () => 'rejected'), new Promise((resolve) => setImmediate(() => resolve(marker)))]);
  return outcome === marker ? 'pending' : outcome as string;
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
