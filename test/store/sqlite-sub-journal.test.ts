import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { SqliteWriteBatch } from '../../src/store/sqlite/write-batch.js';

const dir = mkdtempSync(join(tmpdir(), 'psd2-subjournal-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("SQLite's sub-journal (docs/decisions/0364): a create's savepoint copies pages in memory, not to a temporary file", () => {
  it('opens the connection with temp_store = MEMORY, and still undoes a failing write alone past the 64 KiB a file would take over at', async () => {
    const store = SqliteStore.open(join(dir, 'store.db'));
    try {
      const connection = store.connection;
      // 2 is MEMORY; the default, 0, lets SQLite spill the sub-journal to a file.
      assert.equal(connection.pragma('temp_store', { simple: true }), 2n);
      connection.exec('create table pages (id integer primary key, filler blob not null)');
      const fill = connection.prepare('insert into pages (id, filler) values (?, randomblob(3000))');
      const batch = new SqliteWriteBatch(connection, async (work) => work());
      const fillers = () =>
        (connection.prepare('select group_concat(hex(filler)) as h from pages where id <= 60').get() as { h: string })
          .h;
      let written = '';
      // The first write dirties 60 pages; the second rewrites them all (about 240 KiB of copies) and then fails.
      const first = batch.run(() => {
        for (let id = 1; id <= 60; id++) fill.run(id);
        written = fillers();
      });
      const second = batch.run(() => {
        connection.prepare('update pages set filler = randomblob(3000)').run();
        throw new Error('the write fails after its changes');
      });
      const third = batch.run(() => connection.prepare("insert into pages (id, filler) values (61, x'00')").run());
      await first;
      await assert.rejects(second, /the write fails after its changes/);
      await third;
      assert.equal((connection.prepare('select count(*) as n from pages').get() as { n: bigint }).n, 61n);
      // The failed write's update is undone: every page holds what the first write stored.
      assert.equal(written.length, 60 * 6000 + 59);
      assert.equal(fillers(), written);
    } finally {
      await store.close();
    }
  });
});
