import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Kysely, type RawBuilder, type Selectable, type Transaction, sql } from 'kysely';
import { SANDBOX_BULK_SLICE_ROWS } from '../../domain/limits.js';
import { BankRowsEncoder, type TableRows, decodeBankPages } from '../bank-rows-codec.js';
import type { Database } from '../database.js';
import type { SandboxSnapshotTable } from '../sandbox-tables.js';
import { DROPPED_SNAPSHOT_COLUMNS, MIGRATIONS_OUTSIDE_SNAPSHOTS, migrations } from '../migrations/index.js';
import type {
  NewSnapshot,
  SnapshotLimits,
  SnapshotRestore,
  SnapshotSave,
  SnapshotSummary,
} from '../snapshot-records.js';
import { SNAPSHOT_TABLES } from './bank-tables.js';
import { insertRows } from './insert-rows.js';
import { type RowKey, deleteBankRowsChunk } from './retention-queries.js';
import type { RowReader } from './row-reader.js';
import type { TransactionLock } from './transaction-lock.js';

/**
 * Sandbox snapshots (docs/sandbox.md, "Snapshots"; docs/decisions/0277 and docs/decisions/0315): a bank's
 * rows of every table in SNAPSHOT_TABLES, read and put back
 * a slice of SANDBOX_BULK_SLICE_ROWS rows at a time, each encoded or decoded on its own, so that no
 * other bank's request waits for more than a slice.
 */

/** The schema a snapshot saved now is read in: rows of another do not fit the tables. */
const SNAPSHOT_SCHEMA = Object.keys(migrations)
  .filter((name) => !MIGRATIONS_OUTSIDE_SNAPSHOTS.has(name))
  .at(-1)!;

const SUMMARY_COLUMNS = ['id', 'name', 'created_at', 'clock_offset_ms', 'row_count', 'size_bytes'] as const;

type SummaryRow = Pick<Selectable<SandboxSnapshotTable>, (typeof SUMMARY_COLUMNS)[number]>;

function summaryOf(row: SummaryRow): SnapshotSummary {
  return {
    id: row.id,
    name: row.name ?? undefined,
    createdAt: row.created_at,
    clockOffsetMs: BigInt(row.clock_offset_ms),
    rowCount: Number(row.row_count),
    sizeBytes: Number(row.size_bytes),
  };
}

async function countSnapshots(db: Kysely<Database> | Transaction<Database>, bank: string): Promise<number> {
  const row = await db
    .selectFrom('sandbox_snapshots')
    .select((eb) => eb.fn.countAll<number | bigint | string>().as('n'))
    .where('bank', '=', bank)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function saveSnapshot(
  db: Kysely<Database>,
  lock: TransactionLock,
  rowKey: RowKey,
  openReader: () => RowReader | undefined,
  bank: string,
  snapshot: NewSnapshot,
  limits: SnapshotLimits,
): Promise<SnapshotSave> {
  // Checked before the read, so a bank at its limit costs no read; and again under the lock below.
  if ((await countSnapshots(db, bank)) >= limits.perBank) return { outcome: 'too-many', limit: limits.perBank };
  // Counted, at most one past the limit, before a row is read: a bank over it costs a few index scans.
  const rowCount = await countBankRows(db, bank, limits.rows);
  if (rowCount > limits.rows) return { outcome: 'too-many-rows', limit: limits.rows };
  const encoder = new BankRowsEncoder(limits.bytes);
  const read = await readBankPages(db, rowKey, bank, openReader(), (table, rows) => encoder.add(table, rows));
  if (read === undefined) return { outcome: 'too-large', bytes: encoder.bytes, limit: limits.bytes };
  const data = await encoder.finish();
  const row = {
    id: snapshot.id,
    bank,
    name: snapshot.name ?? null,
    created_at: snapshot.createdAt.toISOString(),
    clock_offset_ms: read.clockOffsetMs,
    row_count: read.rowCount,
    size_bytes: data.length,
    migration: SNAPSHOT_SCHEMA,
    data,
  };
  return db.transaction().execute(async (trx) => {
    await lock(trx, `bank|${bank}`);
    if ((await countSnapshots(trx, bank)) >= limits.perBank) return { outcome: 'too-many', limit: limits.perBank };
    await trx.insertInto('sandbox_snapshots').values(row).execute();
    return { outcome: 'saved', snapshot: summaryOf(row) };
  });
}

/**
 * The bank's rows of the tables a snapshot holds, counted up to `max + 1` in all: one bounded index
 * scan per table, no row read. More than `max` means over.
 */
async function countBankRows(db: Kysely<Database>, bank: string, max: number): Promise<number> {
  let total = 0;
  for (const { table, where } of SNAPSHOT_TABLES) {
    const { rows } = await sql<{ n: number | bigint | string }>`select count(*) as n from (select 1 from ${sql.table(
      table,
    )} where ${where(bank)} limit ${max - total + 1}) as bounded`.execute(db);
    total += Number(rows[0]?.n ?? 0);
    if (total > max) return total;
  }
  return total;
}

/**
 * Reads the bank's rows of every table a snapshot holds, parents first (the order a restore inserts
 * them in), each table's in the order they were written (rowid, ctid), handing them to `take` a page
 * of SANDBOX_BULK_SLICE_ROWS at a time until it answers false (undefined then), with a turn of the
 * event loop between pages (SQLite: in the order of the bank's index, which needs no sort). Each table is read by one statement, never again per page: PostgreSQL
 * through a cursor in one repeatable-read transaction (which blocks no other bank); SQLite through
 * `reader`, a read-only connection of its own in one read transaction, so the connection every other
 * request uses is not held. A database in memory has no second connection: each table is read by one
 * statement on the store's (tests' databases, a few rows), and the bank's gate keeps its own writers
 * out meanwhile (services/bank-gate.ts).
 */
async function readBankPages(
  db: Kysely<Database>,
  rowKey: RowKey,
  bank: string,
  reader: RowReader | undefined,
  take: (table: string, rows: Record<string, unknown>[]) => boolean,
): Promise<{ rowCount: number; clockOffsetMs: bigint } | undefined> {
  const read = async (
    q: Kysely<Database>,
    pagesOf: (query: RawBuilder<unknown>) => AsyncIterable<Record<string, unknown>[]>,
  ) => {
    const clock = await q.selectFrom('banks').select('clock_offset_ms').where('bank', '=', bank).executeTakeFirst();
    let rowCount = 0;
    for (const { table, where } of [...SNAPSHOT_TABLES].reverse()) {
      // SQLite's iterator takes its first row only once the whole order is sorted, synchronously (some
      // hundreds of ms for 50 000 rows): it reads in the order of the bank's index instead, which
      // streams. PostgreSQL's server sorts, off this process.
      const order = rowKey === 'ctid' ? sql`order by ctid` : sql``;
      const query = sql`select * from ${sql.table(table)} where ${where(bank)} ${order}`;
      for await (const rows of pagesOf(query)) {
        rowCount += rows.length;
        if (!take(table, rows)) return undefined;
        await nextTurn();
      }
    }
    return { rowCount, clockOffsetMs: BigInt(clock?.clock_offset_ms ?? 0n) };
  };
  if (rowKey === 'ctid')
    return db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => read(trx, (query) => cursorPages(trx, query)));
  if (reader === undefined) return read(db, (query) => wholePages(db, query));
  try {
    return await read(db, (query) => readerPages(db, reader, query));
  } finally {
    reader.close();
  }
}

/** PostgreSQL: the query's rows through a cursor of the transaction, a page per FETCH. */
async function* cursorPages(
  trx: Transaction<Database>,
  query: RawBuilder<unknown>,
): AsyncGenerator<Record<string, unknown>[]> {
  await sql`declare snapshot_rows no scroll cursor for ${query}`.execute(trx);
  try {
    for (;;) {
      const { rows } = await sql<
        Record<string, unknown>
      >`fetch forward ${sql.raw(String(SANDBOX_BULK_SLICE_ROWS))} from snapshot_rows`.execute(trx);
      if (rows.length === 0) return;
      yield rows;
    }
  } finally {
    await sql`close snapshot_rows`.execute(trx);
  }
}

/** SQLite's second connection: the statement's iterator, a page at a time. */
async function* readerPages(
  db: Kysely<Database>,
  reader: RowReader,
  query: RawBuilder<unknown>,
): AsyncGenerator<Record<string, unknown>[]> {
  const compiled = query.compile(db);
  const rows = reader.rows(compiled.sql, compiled.parameters);
  for (;;) {
    const page: Record<string, unknown>[] = [];
    for (let next = rows.next(); ; next = rows.next()) {
      if (next.done === true) {
        if (page.length > 0) yield page;
        return;
      }
      page.push(next.value);
      if (page.length === SANDBOX_BULK_SLICE_ROWS) break;
    }
    yield page;
  }
}

/** A database in memory: the query's rows at once, handed out a page at a time. */
async function* wholePages(
  db: Kysely<Database>,
  query: RawBuilder<unknown>,
): AsyncGenerator<Record<string, unknown>[]> {
  const { rows } = await (query as RawBuilder<Record<string, unknown>>).execute(db);
  for (let i = 0; i < rows.length; i += SANDBOX_BULK_SLICE_ROWS) yield rows.slice(i, i + SANDBOX_BULK_SLICE_ROWS);
}

export async function listSnapshots(db: Kysely<Database>, bank: string): Promise<SnapshotSummary[]> {
  const rows = await db
    .selectFrom('sandbox_snapshots')
    .select(SUMMARY_COLUMNS)
    .where('bank', '=', bank)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(summaryOf);
}

export async function findSnapshot(
  db: Kysely<Database>,
  bank: string,
  id: string,
): Promise<SnapshotSummary | undefined> {
  const row = await db
    .selectFrom('sandbox_snapshots')
    .select(SUMMARY_COLUMNS)
    .where('bank', '=', bank)
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? undefined : summaryOf(row);
}

export async function deleteSnapshot(db: Kysely<Database>, bank: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sandbox_snapshots')
    .where('bank', '=', bank)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Puts the snapshot's rows back. PostgreSQL: in one write transaction under the bank's lock (other
 * banks are not blocked by it). SQLite (`sliced`): the bank is marked as restoring this snapshot
 * (banks.restoring) and then restored in short transactions of a slice of rows each, so other banks'
 * requests use the one connection in between; the caller holds the bank's gate meanwhile, and a crash
 * leaves the mark, which finishRestores acts on at the next start.
 */
export async function restoreSnapshot(
  db: Kysely<Database>,
  lock: TransactionLock,
  rowKey: RowKey,
  bank: string,
  id: string,
  at: Date,
): Promise<SnapshotRestore> {
  const stored = await db
    .selectFrom('sandbox_snapshots')
    .select(SUMMARY_COLUMNS)
    .select('migration')
    .where('bank', '=', bank)
    .where('id', '=', id)
    .executeTakeFirst();
  if (stored === undefined) return { outcome: 'unknown' };
  if (stored.migration !== SNAPSHOT_SCHEMA) return { outcome: 'stale', migration: stored.migration };
  const restored = { outcome: 'restored', snapshot: summaryOf(stored) } as const;
  if (rowKey === 'ctid')
    return db.transaction().execute(async (trx) => {
      await lock(trx, `bank|${bank}`);
      return (await putBack(rowKey, bank, id, at, (work) => work(trx))) ? restored : { outcome: 'unknown' };
    });
  const marked = await db
    .updateTable('banks')
    .set({ restoring: id })
    .where('bank', '=', bank)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('sandbox_snapshots').select('id').where('id', '=', id).where('bank', '=', bank)),
    )
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) !== 1) return { outcome: 'unknown' };
  return (await putBack(rowKey, bank, id, at, (work) => db.transaction().execute(work)))
    ? restored
    : { outcome: 'unknown' };
}

/**
 * Finishes every restore a crash left half done (banks.restoring): each such bank is emptied and given
 * its snapshot's rows again, as the restore would have. The banks finished.
 */
export async function finishRestores(db: Kysely<Database>, rowKey: RowKey, at: Date): Promise<string[]> {
  const marked = await db
    .selectFrom('banks')
    .select(['bank', 'restoring'])
    .where('restoring', 'is not', null)
    .execute();
  for (const { bank, restoring } of marked)
    await putBack(rowKey, bank, restoring!, at, (work) => db.transaction().execute(work));
  return marked.map((m) => m.bank);
}

/**
 * Empties the bank's tables a snapshot holds and inserts the snapshot's rows, a slice at a time, each
 * slice run by `slice` (one transaction each on SQLite; within the caller's one on PostgreSQL), then
 * sets the bank's clock and clears its mark. Run again, it ends the same: what a crash interrupted is
 * finished by running it once more. False when the snapshot is gone (deleted, or its bank removed).
 */
async function putBack(
  rowKey: RowKey,
  bank: string,
  id: string,
  at: Date,
  slice: <T>(work: (q: Transaction<Database>) => Promise<T>) => Promise<T>,
): Promise<boolean> {
  const stored = await slice((q) =>
    q
      .selectFrom('sandbox_snapshots')
      .select(['clock_offset_ms', 'data'])
      .where('bank', '=', bank)
      .where('id', '=', id)
      .executeTakeFirst(),
  );
  if (stored === undefined) {
    await slice((q) => q.updateTable('banks').set({ restoring: null }).where('bank', '=', bank).execute());
    return false;
  }
  // The payments a batch run may claim, locked first, as a run locks them before the accounts it
  // books on: a run and a restore at once wait for one another instead of deadlocking.
  await slice((q) =>
    q
      .updateTable('payments')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('bank', '=', bank)
      .where('status', 'in', ['ACTC', 'PDNG'])
      .execute(),
  );
  // PostgreSQL deletes in the server, within the one transaction, blocking no other bank: a statement
  // a table. SQLite's one connection is everyone's: a chunk a slice.
  if (rowKey === 'ctid')
    for (const { table, where } of SNAPSHOT_TABLES)
      await slice((q) => sql`delete from ${sql.table(table)} where ${where(bank)}`.execute(q));
  else
    while ((await slice((q) => deleteBankRowsChunk(q, rowKey, SNAPSHOT_TABLES, bank, SANDBOX_BULK_SLICE_ROWS))) > 0)
      await nextTurn();
  const parentsFirst = [...SNAPSHOT_TABLES].reverse().map((t) => t.table);
  for await (const page of decodeBankPages(stored.data, parentsFirst, SANDBOX_BULK_SLICE_ROWS))
    await slice((q) => {
      const saved = withoutDroppedColumns(page.table, page);
      return insertRows(q, page.table, saved.columns, saved.rows);
    });
  await slice((q) =>
    q
      .updateTable('banks')
      .set({ clock_offset_ms: BigInt(stored.clock_offset_ms), updated_at: at.toISOString(), restoring: null })
      .where('bank', '=', bank)
      .execute(),
  );
  return true;
}

/** A table's saved rows without the columns a migration since dropped (DROPPED_SNAPSHOT_COLUMNS). */
function withoutDroppedColumns(table: string, saved: TableRows): TableRows {
  const dropped = DROPPED_SNAPSHOT_COLUMNS[table];
  if (dropped === undefined || !saved.columns.some((c) => dropped.includes(c))) return saved;
  const kept = saved.columns.flatMap((c, i) => (dropped.includes(c) ? [] : [i]));
  return {
    columns: kept.map((i) => saved.columns[i]!),
    rows: saved.rows.map((row) => kept.map((i) => row[i] ?? null)),
  };
}
