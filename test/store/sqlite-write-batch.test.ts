import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteWriteBatch } from '../../src/store/sqlite/write-batch.js';

/** A database with one table, and a batch whose hold counts its uses and can be held back by the test. */
function setUp() {
  const db = new BetterSqlite3(':memory:');
  db.exec('create table t (x integer primary key)');
  let holds = 0;
  let release: (() => void) | undefined;
  let holdBack = false;
  const batch = new SqliteWriteBatch(db, async (work) => {
    holds += 1;
    work();
    if (holdBack)
      await new Promise<void>((resolve) => {
        release = resolve;
      });
  });
  const insert = (x: number) => () => db.prepare('insert into t (x) values (?)').run(x).changes;
  const rows = () => (db.prepare('select x from t order by x').all() as { x: number }[]).map((r) => r.x);
  return {
    db,
    batch,
    insert,
    rows,
    holds: () => holds,
    holdBack: () => {
      holdBack = true;
    },
    release: () => release?.(),
  };
}

/** The promise's state once pending callbacks ran: 'resolved', 'rejected' or 'pending'. */
async function state(promise: Promise<unknown>): Promise<string> {
  const marker = Symbol('pending');
  const outcome = await Promise.race([
    promise.then(
      () => 'resolved',
      () => 'rejected',
    ),
    new Promise((resolve) => setImmediate(() => setImmediate(() => resolve(marker)))),
  ]);
  return outcome === marker ? 'pending' : (outcome as string);
}

describe('write batch (SqliteWriteBatch): the hot writes of one turn commit together', () => {
  it('runs the writes asked for in one turn in one use of the connection, in order, each seeing the ones before it', async () => {
    const { db, batch, insert, rows, holds } = setUp();
    const seen: number[] = [];
    const answers = await Promise.all([
      batch.run(insert(1)),
      batch.run(() => {
        seen.push((db.prepare('select count(*) as n from t').get() as { n: number }).n);
        return 'read';
      }),
      batch.run(insert(2)),
    ]);
    assert.deepEqual(answers, [1, 'read', 1]);
    assert.deepEqual(seen, [1], 'the second write saw the first');
    assert.equal(holds(), 1, 'one transaction for the three');
    assert.deepEqual(rows(), [1, 2]);
    await batch.run(insert(3));
    assert.equal(holds(), 2, 'a write of a later turn is a batch of its own');
  });

  it('undoes a failing write alone: its own earlier statements too; the others are committed and answered', async () => {
    const { batch, insert, rows, db } = setUp();
    const first = batch.run(insert(1));
    const failing = batch.run(() => {
      insert(10)();
      db.prepare('insert into t (x) values (?)').run(1); // taken by the first write of the batch
    });
    const results = await Promise.allSettled([first, failing, batch.run(insert(2)), batch.run(insert(3))]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE constraint failed/);
    assert.deepEqual(rows(), [1, 2, 3], "the failed write's row 10 was rolled back with it");
  });

  it('answers the callers only once the connection is released (when the commit counts for the next WAL flush)', async () => {
    const { batch, insert, holdBack, release } = setUp();
    holdBack();
    const write = batch.run(insert(1));
    assert.equal(await state(write), 'pending', 'committed, but the connection is not released yet');
    release();
    assert.equal(await state(write), 'resolved');
  });

  it("fails every write of a batch whose transaction a write ended, with that write's own error, and commits none of it", async () => {
    const { batch, insert, rows, db } = setUp();
    const results = await Promise.allSettled([
      batch.run(insert(1)),
      batch.run(() => {
        db.exec('rollback');
        throw new Error('SQLITE_FULL: database or disk is full');
      }),
      batch.run(insert(2)),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected', 'rejected'],
    );
    for (const result of results)
      assert.match(String((result as PromiseRejectedResult).reason), /SQLITE_FULL/, 'the cause, not "cannot commit"');
    assert.deepEqual(rows(), []);
    await batch.run(insert(3));
    assert.deepEqual(rows(), [3], 'the next batch runs as usual');
  });

  it("does not run inside another transaction on its connection (the migration's): its writes fail, none is committed with it", async () => {
    const { batch, insert, rows, db } = setUp();
    db.exec('begin immediate');
    const results = await Promise.allSettled([batch.run(insert(1))]);
    db.exec('rollback');
    assert.match(String((results[0] as PromiseRejectedResult).reason), /inside another transaction/);
    assert.deepEqual(rows(), []);
    await batch.run(insert(2));
    assert.deepEqual(rows(), [2]);
  });
});
