/* The store's durability wiring through the write batch and the connection's fast path, with a flush the test completes. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/store/database.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { newPayment, requestFor } from '../support/new-payment.js';

const dir = mkdtempSync(join(tmpdir(), 'psd2-durability-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function state(promise: Promise<unknown>): Promise<string> {
  const marker = Symbol('pending');
  const outcome = await Promise.race([
    promise.then(
      () => 'resolved',
      () => 'rejected',
    ),
    new Promise((r) => setImmediate(() => setImmediate(() => r(marker)))),
  ]);
  return outcome === marker ? 'pending' : (outcome as string);
}

async function openStore(name: string) {
  const store = SqliteStore.open(join(dir, name));
  await store.migrate();
  // Let anything the migration left to flush settle with the real fdatasync first.
  await store.durable();
  const wal = (store as unknown as { durability: { wal: { flushFile: unknown; synced: number; written: number } } })
    .durability.wal;
  const pending: ((e: Error | null) => void)[] = [];
  let auto = false;
  wal.flushFile = (_fd: number, done: (e: Error | null) => void) => {
    if (auto) setTimeout(() => done(null), 2);
    else pending.push(done);
  };
  /** Whether every commit counted so far is flushed, at the moment `promise` settles. */
  const flushedWhenSettled = (promise: Promise<unknown>) =>
    promise.then(() => ({ synced: wal.synced, written: wal.written }));
  const db = (store as unknown as { db: Kysely<Database> }).db;
  return {
    store,
    db,
    pending,
    wal,
    flushedWhenSettled,
    setAuto: (a: boolean) => {
      auto = a;
    },
    completeAll: () => {
      while (pending.length > 0) pending.shift()!(null);
    },
  };
}

describe('SQLite store: nothing of the hot path is answered before the WAL flush that covers it', () => {
  it('answers a create made on the free connection only after a flush', async () => {
    const { store, pending, completeAll } = await openStore('s1.db');
    const payment = newPayment();
    const create = store.createPayment(payment, requestFor(payment), { duplicatesSince: null });
    assert.equal(await state(create), 'pending', 'waits for the flush');
    assert.ok(pending.length >= 1, 'a flush was asked for');
    completeAll();
    assert.equal(await state(create), 'resolved');
    await store.close();
  });

  it('answers a create asked for while a query-builder transaction holds the connection only once every commit counted is flushed', async () => {
    const { store, db, setAuto, flushedWhenSettled } = await openStore('s2.db');
    setAuto(true);
    const payment = newPayment();
    let create: Promise<{ synced: number; written: number }> | undefined;
    await db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      create = flushedWhenSettled(store.createPayment(payment, requestFor(payment), { duplicatesSince: null }));
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    });
    const at = await create!;
    assert.ok(at.synced >= at.written, `answered at synced ${at.synced} < written ${at.written}`);
    await store.close();
  });

  it("holds a read that sees a committed create until that create's flush", async () => {
    const { store, pending, completeAll } = await openStore('s3.db');
    const payment = newPayment();
    const create = store.createPayment(payment, requestFor(payment), { duplicatesSince: null });
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    const read = store.findPayment(payment.tppId, payment.id, '');
    assert.equal(await state(read), 'pending');
    completeAll();
    assert.equal(await state(create), 'resolved');
    assert.equal(await state(read), 'resolved');
    assert.equal(pending.length, 0);
    await store.close();
  });
});

describe('SQLite store: the write batch and a query-builder transaction', () => {
  it("commits a create asked for during another use's transaction on its own, whatever that transaction does: it rolls back, the create stays", async () => {
    const { store, db, setAuto } = await openStore('s5.db');
    setAuto(true);
    const payment = newPayment();
    let create: Promise<unknown> | undefined;
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await sql`insert into banks (bank, clock_offset_ms, created_at, updated_at) values ('zz', 1, 'x', 'x')`.execute(
          trx,
        );
        create = store.createPayment(payment, requestFor(payment), { duplicatesSince: null });
        for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.deepEqual(await create, { outcome: 'created' });
    assert.ok(await store.findPayment(payment.tppId, payment.id, ''), "the create survived the other use's rollback");
    assert.equal(
      (await sql<{ n: number }>`select count(*) as n from banks where bank = 'zz'`.execute(db)).rows[0]!.n,
      0n,
    );
    await store.close();
  });
});
