import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

/**
 * How a snapshot holds a bank's rows (docs/decisions.md, "Sandbox snapshots"): JSON, each table's
 * columns once and then each row's values in their order, gzipped. Integers that come back as
 * bigint (every SQLite integer, PostgreSQL's int8) are written as decimal strings: each engine turns
 * them back into integers of the column they are inserted into (SQLite's integer affinity,
 * PostgreSQL's parameter types), and JSON numbers cannot hold every int8 exactly. Compression at its
 * fastest level: the rows of a bank repeat their names, accounts and dates, and shrink some sevenfold
 * for a few milliseconds a megabyte, off the event loop.
 */

/** One table's rows as read: the columns once, then each row's values in the columns' order. */
export interface TableRows {
  columns: string[];
  rows: RowValue[][];
}

/** A column's value as a snapshot holds it. */
export type RowValue = string | number | null;

/** The rows of a bank by table. */
export type BankRows = Record<string, TableRows>;

/** Version of the format: a reader meets only what it knows (src/store/migrations name the schema apart). */
const FORMAT = 1;

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The rows of one table as the database returned them (objects by column), in the snapshot's form. */
export function tableRowsOf(objects: readonly Record<string, unknown>[]): TableRows {
  const columns = objects.length === 0 ? [] : Object.keys(objects[0]!);
  return { columns, rows: objects.map((row) => columns.map((column) => valueOf(row[column], column))) };
}

function valueOf(value: unknown, column: string): RowValue {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return value.toString();
  // Every column of a bank's tables is text or an integer: anything else is a column this form cannot hold.
  throw new Error(`a snapshot holds text and integers; column ${column} gave ${typeof value}`);
}

/** The rows serialised (its length is what the byte limit counts) and compressed. */
export async function encodeBankRows(tables: BankRows): Promise<{ json: number; data: Buffer }> {
  const json = Buffer.from(JSON.stringify({ format: FORMAT, tables }), 'utf8');
  return { json: json.length, data: await gzipAsync(json, { level: 1 }) };
}

export async function decodeBankRows(data: Buffer): Promise<BankRows> {
  const parsed = JSON.parse((await gunzipAsync(data)).toString('utf8')) as { format?: unknown; tables?: unknown };
  // Written by encodeBankRows only: another shape is a broken row, not a TPP's mistake.
  if (parsed.format !== FORMAT || typeof parsed.tables !== 'object' || parsed.tables === null)
    throw new Error(`a snapshot of format ${String(parsed.format)}, not ${FORMAT}`);
  return parsed.tables as BankRows;
}
