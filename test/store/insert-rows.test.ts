import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import {
  type Insertable,
  Kysely,
  type KyselyPlugin,
  PostgresDialect,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  SqliteDialect,
  sql,
} from 'kysely';
import pg from 'pg';
import { INSERT_CHUNK, INSERT_TEXTS_PER_ENGINE } from '../../src/domain/limits.js';
import type { Database, PeriodicExecutionTable } from '../../src/store/database.js';
import { insertRecords, insertRows } from '../../src/store/queries/insert-rows.js';
import { type TestDatabase, createTestDatabase } from '../support/postgres.js';

/**
 * Counts the queries Kysely compiles through its plugins: a statement text insertRows makes is one,
 * a text it runs again is not (a compiled query given as it is skips the plugins).
 */
class CompileCounter implements KyselyPlugin {
  compiled = 0;
  transformQuery(args: PluginTransformQueryArgs) {
    this.compiled += 1;
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs) {
    return Promise.resolve(args.result);
  }
}

interface Engine {
  name: string;
  open(counter: CompileCounter): Promise<Kysely<Database>>;
}

const databases: TestDatabase[] = [];
after(() => Promise.all(databases.map((d) => d.drop())));

const ENGINES: Engine[] = [
  {
    name: 'SQLite',
    open: async (counter) =>
      new Kysely<Database>({
        dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }),
        plugins: [counter],
      }),
  },
  {
    name: 'PostgreSQL',
    open: async (counter) => {
      const database = await createTestDatabase();
      databases.push(database);
      return new Kysely<Database>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }),
        plugins: [counter],
      });
    },
  },
];

async function withTable(engine: Engine, test: (db: Kysely<Database>, counter: CompileCounter) => Promise<void>) {
  const counter = new CompileCounter();
  const db = await engine.open(counter);
  try {
    await sql`create table t (n integer primary key, word text, amount bigint)`.execute(db);
    counter.compiled = 0;
    await test(db, counter);
  } finally {
    await db.destroy();
  }
}

async function rowsOf(db: Kysely<Database>): Promise<{ n: number; word: string | null; amount: string | null }[]> {
  const { rows } = await sql<{ n: number; word: string | null; amount: bigint | string | null }>`
    select n, word, amount from t order by n`.execute(db);
  return rows.map((r) => ({ n: Number(r.n), word: r.word, amount: r.amount === null ? null : String(r.amount) }));
}

for (const engine of ENGINES) {
  describe(`Rows inserted in chunks with a statement text made once, on ${engine.name} (issue 44)`, () => {
    it('inserts more rows than a statement takes, each with its values in the order of the columns', async () => {
      await withTable(engine, async (db) => {
        const count = 2 * INSERT_CHUNK + 3;
        const rows = Array.from({ length: count }, (_, i) => [`w${i}`, BigInt(i) * 1_000_000_007n, i + 1]);
        await insertRows(db, 't', ['word', 'amount', 'n'], rows);
        const stored = await rowsOf(db);
        assert.equal(stored.length, count);
        assert.deepEqual(stored[0], { n: 1, word: 'w0', amount: '0' });
        assert.deepEqual(stored[count - 1], {
          n: count,
          word: `w${count - 1}`,
          amount: String(BigInt(count - 1) * 1_000_000_007n),
        });
      });
    });

    it('makes the text of a table, columns and row count once, and runs it again for later rows of that shape', async () => {
      await withTable(engine, async (db, counter) => {
        // Full chunks and a last one of 3: two texts, whatever the number of full chunks.
        await insertRows(
          db,
          't',
          ['n', 'word'],
          Array.from({ length: 2 * INSERT_CHUNK + 3 }, (_, i) => [i + 1, 'a']),
        );
        assert.equal(counter.compiled, 2);
        await insertRows(
          db,
          't',
          ['n', 'word'],
          Array.from({ length: 3 }, (_, i) => [10_000 + i, 'b']),
        );
        assert.equal(counter.compiled, 2, 'the text of three rows is made again');
        await insertRows(db, 't', ['n', 'amount'], [[20_000, 5n]]);
        assert.equal(counter.compiled, 3, 'another column set is another text');
        assert.equal((await rowsOf(db)).length, 2 * INSERT_CHUNK + 3 + 3 + 1);
      });
    });

    it('keeps apart two column sets whose names, joined, read alike', async () => {
      await withTable(engine, async (db, counter) => {
        await sql`create table u ("a,b" text, a text, b text)`.execute(db);
        counter.compiled = 0;
        await insertRows(db, 'u', ['a,b'], [['one']]);
        await insertRows(db, 'u', ['a', 'b'], [['two', 'three']]);
        assert.equal(counter.compiled, 2);
        const { rows } = await sql<
          Record<string, string | null>
        >`select "a,b", a, b from u order by coalesce(a, '')`.execute(db);
        assert.deepEqual(rows, [
          { 'a,b': 'one', a: null, b: null },
          { 'a,b': null, a: 'two', b: 'three' },
        ]);
      });
    });

    it('keeps at most INSERT_TEXTS_PER_ENGINE texts, and makes a dropped one again when it is next needed', async () => {
      await withTable(engine, async (db, counter) => {
        let n = 0;
        const insertOf = (count: number) =>
          insertRows(
            db,
            't',
            ['n'],
            Array.from({ length: count }, () => [++n]),
          );
        // One text per row count, one more than are kept: the first is dropped.
        for (let count = 1; count <= INSERT_TEXTS_PER_ENGINE + 1; count++) await insertOf(count);
        assert.equal(counter.compiled, INSERT_TEXTS_PER_ENGINE + 1);
        await insertOf(INSERT_TEXTS_PER_ENGINE + 1);
        assert.equal(counter.compiled, INSERT_TEXTS_PER_ENGINE + 1, 'the newest is kept');
        await insertOf(1);
        assert.equal(counter.compiled, INSERT_TEXTS_PER_ENGINE + 2, 'the oldest was dropped, and is made again');
        assert.equal((await rowsOf(db)).length, n);
      });
    });

    it('stores a value a record leaves out as null, not as the column default', async () => {
      await withTable(engine, async (db) => {
        await sql`create table periodic_executions (payment_id text, seq integer, status text default 'ACTC', status_reason text default 'none')`.execute(
          db,
        );
        const left = { payment_id: 'p1', seq: 1 } as Insertable<PeriodicExecutionTable>;
        await insertRecords(db, 'periodic_executions', ['payment_id', 'seq', 'status', 'status_reason'], [left]);
        const { rows } = await sql<Record<string, unknown>>`select * from periodic_executions`.execute(db);
        assert.deepEqual(
          rows.map((r) => ({ ...r, seq: Number(r.seq) })),
          [{ payment_id: 'p1', seq: 1, status: null, status_reason: null }],
        );
      });
    });
  });
}
