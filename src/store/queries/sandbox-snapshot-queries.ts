import { CompiledQuery, type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import { type BankRows, type TableRows, decodeBankRows, encodeBankRows, tableRowsOf } from '../bank-rows-codec.js';
import type { Database, SandboxSnapshotTable } from '../database.js';
import { migrations } from '../migrations/index.js';
import type {
  NewSnapshot,
  SnapshotLimits,
  SnapshotRestore,
  SnapshotSave,
  SnapshotSummary,
} from '../snapshot-records.js';
import { SNAPSHOT_TABLES } from './bank-tables.js';
import { INSERT_CHUNK } from './insert-chunk.js';
import type { RowKey } from './retention-queries.js';
import type { TransactionLock } from './transaction-lock.js';

/**
 * Sandbox snapshots (docs/sandbox.md, "Snapshots"; docs/decisions.md, "Sandbox snapshots"): a bank's
 * rows of every table in SNAPSHOT_TABLES, read in one read transaction and put back in one write
 * transaction under the bank's lock. Serialising and compressing happen outside both transactions.
 */

/** The schema a snapshot saved now is read in: rows of another do not fit the tables. */
const SCHEMA = Object.keys(migrations).at(-1)!;

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
  bank: string,
  snapshot: NewSnapshot,
  limits: SnapshotLimits,
): Promise<SnapshotSave> {
  // Checked before the read, so a bank at its limit costs no read; and again under the lock below.
  if ((await countSnapshots(db, bank)) >= limits.perBank) return { outcome: 'too-many', limit: limits.perBank };
  const read = await readBankRows(db, rowKey, bank, limits.rows);
  if (read === undefined) return { outcome: 'too-many-rows', limit: limits.rows };
  const { json, data } = await encodeBankRows(read.tables);
  if (json > limits.bytes) return { outcome: 'too-large', bytes: json, limit: limits.bytes };
  const row = {
    id: snapshot.id,
    bank,
    name: snapshot.name ?? null,
    created_at: snapshot.createdAt.toISOString(),
    clock_offset_ms: read.clockOffsetMs,
    row_count: read.rowCount,
    size_bytes: data.length,
    migration: SCHEMA,
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
 * The bank's rows of every table a snapshot holds and its clock offset, as of one instant (PostgreSQL:
 * one repeatable-read transaction; SQLite's transaction holds the database). Each table's rows in the
 * order they were written (rowid, ctid), so that a restore writes them in the same order. Undefined
 * when they are more than `maxRows`: no more than that many are read.
 */
async function readBankRows(
  db: Kysely<Database>,
  rowKey: RowKey,
  bank: string,
  maxRows: number,
): Promise<{ tables: BankRows; rowCount: number; clockOffsetMs: bigint } | undefined> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const clock = await trx.selectFrom('banks').select('clock_offset_ms').where('bank', '=', bank).executeTakeFirst();
      const tables: BankRows = {};
      let rowCount = 0;
      for (const { table, where } of SNAPSHOT_TABLES) {
        const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)} where ${where(bank)}
          order by ${sql.raw(rowKey)} limit ${maxRows - rowCount + 1}`.execute(trx);
        rowCount += rows.length;
        if (rowCount > maxRows) return undefined;
        tables[table] = tableRowsOf(rows);
      }
      return { tables, rowCount, clockOffsetMs: BigInt(clock?.clock_offset_ms ?? 0n) };
    });
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

export async function restoreSnapshot(
  db: Kysely<Database>,
  lock: TransactionLock,
  bank: string,
  id: string,
  at: Date,
): Promise<SnapshotRestore> {
  const stored = await db
    .selectFrom('sandbox_snapshots')
    .select([...SUMMARY_COLUMNS, 'migration', 'data'])
    .where('bank', '=', bank)
    .where('id', '=', id)
    .executeTakeFirst();
  if (stored === undefined) return { outcome: 'unknown' };
  if (stored.migration !== SCHEMA) return { outcome: 'stale', migration: stored.migration };
  const tables = await decodeBankRows(stored.data);
  return db.transaction().execute(async (trx) => {
    await lock(trx, `bank|${bank}`);
    // Deleted meanwhile (its DELETE, or the bank's removal): nothing is restored.
    const still = await trx.selectFrom('sandbox_snapshots').select('id').where('id', '=', id).executeTakeFirst();
    if (still === undefined) return { outcome: 'unknown' };
    // The payments a batch run may claim, locked first, as a run locks them before the accounts it
    // books on: a run and a restore at once wait for one another instead of deadlocking.
    await trx
      .updateTable('payments')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('bank', '=', bank)
      .where('status', 'in', ['ACTC', 'PDNG'])
      .execute();
    for (const { table, where } of SNAPSHOT_TABLES)
      await sql`delete from ${sql.table(table)} where ${where(bank)}`.execute(trx);
    for (const { table } of [...SNAPSHOT_TABLES].reverse()) await insertRows(trx, table, tables[table]);
    await trx
      .updateTable('banks')
      .set({ clock_offset_ms: BigInt(stored.clock_offset_ms), updated_at: at.toISOString() })
      .where('bank', '=', bank)
      .execute();
    return { outcome: 'restored', snapshot: summaryOf(stored) };
  });
}

/**
 * Inserts a table's saved rows, INSERT_CHUNK a statement. The statement's text is made once per row
 * count (Kysely's placeholders of the dialect) and run with each chunk's values: building a query
 * of 10 000 parameters for every chunk cost more than running it.
 */
async function insertRows(trx: Transaction<Database>, table: string, saved: TableRows | undefined): Promise<void> {
  if (saved === undefined || saved.rows.length === 0) return;
  const texts = new Map<number, string>();
  const textFor = (count: number): string => {
    let text = texts.get(count);
    if (text === undefined) {
      const row = sql`(${sql.join(saved.columns.map(() => null))})`;
      text = sql`insert into ${sql.table(table)} (${sql.join(saved.columns.map((c) => sql.ref(c)))}) values ${sql.join(
        Array.from({ length: count }, () => row),
      )}`.compile(trx).sql;
      texts.set(count, text);
    }
    return text;
  };
  for (let i = 0; i < saved.rows.length; i += INSERT_CHUNK) {
    const chunk = saved.rows.slice(i, i + INSERT_CHUNK);
    await trx.executeQuery(CompiledQuery.raw(textFor(chunk.length), chunk.flat()));
  }
}
