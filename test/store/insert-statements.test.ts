import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { INSERT_SHAPES_PER_TABLE } from '../../src/domain/limits.js';
import { InsertStatements } from '../../src/store/sqlite/insert-statements.js';
import { StatementCache } from '../../src/store/sqlite/statement-cache.js';

/** A statement cache that counts the texts it is asked for: each is an insert whose text was made. */
class CountingCache extends StatementCache {
  texts: string[] = [];
  override statement(sql: string) {
    this.texts.push(sql);
    return super.statement(sql);
  }
}

function fixture() {
  const database = new Database(':memory:');
  // Columns enough for a column set per kept statement, and one more.
  const more = Array.from({ length: INSERT_SHAPES_PER_TABLE + 1 }, (_, i) => `x${i}`).join(', ');
  database.exec(`create table t (a, b, c, ${more}, unique (a))`);
  const cache = new CountingCache(database);
  return { database, cache, inserts: new InsertStatements(cache) };
}

describe('SQLite hot path: insert statements found by their table and columns (issue 44)', () => {
  it('makes the text of a table and column set once, and finds its statement again for every later row of that set', () => {
    const { database, cache, inserts } = fixture();
    const first = inserts.of('t', { a: 1, b: 2 });
    first.run({ a: 1, b: 2 });
    const again = inserts.of('t', { a: 3, b: 4 });
    again.run({ a: 3, b: 4 });
    assert.equal(again, first);
    assert.deepEqual(cache.texts, ['insert into t (a, b) values (@a, @b)']);
    assert.deepEqual(database.prepare('select a, b, c from t order by a').all(), [
      { a: 1, b: 2, c: null },
      { a: 3, b: 4, c: null },
    ]);
  });

  it('tells apart another column set, another order of the columns, and another conflict clause', () => {
    const { cache, inserts } = fixture();
    const plain = inserts.of('t', { a: 1, b: 2 });
    const reordered = inserts.of('t', { b: 2, a: 1 });
    const wider = inserts.of('t', { a: 1, b: 2, c: 3 });
    const ignoring = inserts.of('t', { a: 1, b: 2 }, ' on conflict (a) do nothing');
    assert.equal(new Set([plain, reordered, wider, ignoring]).size, 4);
    assert.deepEqual(cache.texts, [
      'insert into t (a, b) values (@a, @b)',
      'insert into t (b, a) values (@b, @a)',
      'insert into t (a, b, c) values (@a, @b, @c)',
      'insert into t (a, b) values (@a, @b) on conflict (a) do nothing',
    ]);
    assert.equal(inserts.of('t', { a: 5, b: 6 }, ' on conflict (a) do nothing'), ignoring);
  });

  it('notes a write each time it hands out a statement it kept, so that the answer waits for durability', () => {
    const { cache, inserts } = fixture();
    inserts.of('t', { a: 1 }).run({ a: 1 });
    assert.equal(cache.takeWrote(), true);
    assert.equal(cache.takeWrote(), false);
    inserts.of('t', { a: 2 }).run({ a: 2 });
    assert.equal(cache.takeWrote(), true, 'the kept statement was handed out without asking the cache for its text');
  });

  it(`keeps at most INSERT_SHAPES_PER_TABLE (${INSERT_SHAPES_PER_TABLE}) column sets of a table, dropping the oldest`, () => {
    const { cache, inserts } = fixture();
    const rowOf = (i: number) => ({ a: i, [`x${i}`]: i });
    for (let i = 0; i <= INSERT_SHAPES_PER_TABLE; i++) inserts.of('t', rowOf(i));
    assert.equal(cache.texts.length, INSERT_SHAPES_PER_TABLE + 1);
    inserts.of('t', rowOf(INSERT_SHAPES_PER_TABLE));
    assert.equal(cache.texts.length, INSERT_SHAPES_PER_TABLE + 1, 'the newest set is kept');
    inserts.of('t', rowOf(0));
    assert.equal(cache.texts.length, INSERT_SHAPES_PER_TABLE + 2, 'the oldest was dropped: its text is made again');
  });
});
