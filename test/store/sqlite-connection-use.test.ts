import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/store/database.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'psd2-connection-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("SQLite store: the hot path's uses of the one connection", () => {
  it('never runs inside a transaction of the query builder in progress: a read waits for it, and sees only what it committed', async () => {
    const store = SqliteStore.open(join(dir, 'store.db'));
    await store.migrate();
    const db = (store as unknown as { db: Kysely<Database> }).db;
    const at = new Date().toISOString();
    await sql`insert into banks (bank, clock_offset_ms, created_at, updated_at) values ('b', 1, ${at}, ${at})`.execute(
      db,
    );
    let readDuring: Promise<bigint> | undefined;
    let readSettledDuring = false;
    await db.transaction().execute(async (trx) => {
      await sql`update banks set clock_offset_ms = 2 where bank = 'b'`.execute(trx);
      readDuring = store.readClockOffset('b');
      void readDuring.then(() => {
        readSettledDuring = true;
      });
      // Turns of the event loop while the transaction holds the connection, uncommitted.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(readSettledDuring, false, 'the read waited for the transaction');
      await sql`update banks set clock_offset_ms = 3 where bank = 'b'`.execute(trx);
    });
    assert.equal(await readDuring, 3n, 'it read what the transaction committed, not its first uncommitted write');
    assert.equal(await store.readClockOffset('b'), 3n);
    await store.close();
  });
});
