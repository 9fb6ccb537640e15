import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

/**
 * How a snapshot holds a bank's rows (docs/decisions/0277 and docs/decisions/0315). Format 2:
 * newline-delimited JSON, a header line and then one small document per
 * page of one table's rows (its columns once, then each row's values in their order), gzipped. Pages
 * are encoded as they are read and decoded one by one, with a turn of the event loop between them, so
 * no JSON.parse or stringify of megabytes holds other requests; the byte limit is checked as each page
 * is encoded. Format 1, one document of every table, is still read.
 *
 * Integers that come back as bigint (every SQLite integer, PostgreSQL's int8) are written as decimal
 * strings: each engine turns them back into integers of the column they are inserted into (SQLite's
 * integer affinity, PostgreSQL's parameter types), and JSON numbers cannot hold every int8 exactly.
 * Compression at its fastest level, off the event loop: the rows of a bank repeat their names,
 * accounts and dates, and shrink some sevenfold.
 */

/** One table's rows as read: the columns once, then each row's values in the columns' order. */
export interface TableRows {
  columns: string[];
  rows: RowValue[][];
}

/** A column's value as a snapshot holds it. */
export type RowValue = string | number | null;

/** One page of a table's rows: what a restore inserts at once. */
export interface TablePage extends TableRows {
  table: string;
}

const FORMAT = 2;
const NEWLINE = 0x0a;

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

/**
 * A snapshot written page by page. `add` answers false once the rows serialised pass `maxBytes`:
 * the caller stops reading there, so a bank over the limit costs no more than the limit's worth.
 */
export class BankRowsEncoder {
  private readonly lines: Buffer[] = [Buffer.from(`${JSON.stringify({ format: FORMAT })}\n`, 'utf8')];
  /** The rows serialised so far (what the byte limit counts), header and line breaks included. */
  bytes = this.lines[0]!.length;

  constructor(private readonly maxBytes: number) {}

  add(table: string, objects: readonly Record<string, unknown>[]): boolean {
    if (objects.length === 0) return this.bytes <= this.maxBytes;
    const line = Buffer.from(`${JSON.stringify({ table, ...tableRowsOf(objects) })}\n`, 'utf8');
    this.bytes += line.length;
    if (this.bytes > this.maxBytes) return false;
    this.lines.push(line);
    return true;
  }

  async finish(): Promise<Buffer> {
    return gzipAsync(Buffer.concat(this.lines), { level: 1 });
  }
}

/**
 * The snapshot's pages, in the order they were written (parents before the rows that point to them,
 * as a restore inserts), with a turn of the event loop before each. A format 1 snapshot is one
 * document: it is parsed at once and handed out in pages of `pageRows`, in `tableOrder`.
 */
export async function* decodeBankPages(
  data: Buffer,
  tableOrder: readonly string[],
  pageRows: number,
): AsyncGenerator<TablePage> {
  // Each line is made a string on its own: never one string of the whole snapshot's megabytes.
  const bytes = await gunzipAsync(data);
  let end = bytes.indexOf(NEWLINE);
  const header = JSON.parse(bytes.toString('utf8', 0, end === -1 ? bytes.length : end)) as {
    format?: unknown;
    tables?: unknown;
  };
  if (header.format === 1) {
    yield* formatOnePages(header.tables, tableOrder, pageRows);
    return;
  }
  // Written by BankRowsEncoder only: another shape is a broken row, not a TPP's mistake.
  if (header.format !== FORMAT) throw new Error(`a snapshot of format ${String(header.format)}, not ${FORMAT}`);
  while (end !== -1 && end + 1 < bytes.length) {
    const start = end + 1;
    end = bytes.indexOf(NEWLINE, start);
    await nextTurn();
    yield JSON.parse(bytes.toString('utf8', start, end === -1 ? bytes.length : end)) as TablePage;
  }
}

async function* formatOnePages(
  tables: unknown,
  tableOrder: readonly string[],
  pageRows: number,
): AsyncGenerator<TablePage> {
  if (typeof tables !== 'object' || tables === null) throw new Error('a snapshot of format 1 without its tables');
  const byTable = tables as Record<string, TableRows>;
  for (const table of tableOrder) {
    const saved = byTable[table];
    if (saved === undefined) continue;
    for (let i = 0; i < saved.rows.length; i += pageRows) {
      await nextTurn();
      yield { table, columns: saved.columns, rows: saved.rows.slice(i, i + pageRows) };
    }
  }
}

/** A format 1 snapshot of these rows: what servers before format 2 wrote, for the tests that they still restore. */
export async function encodeFormatOne(tables: Record<string, TableRows>): Promise<Buffer> {
  return gzipAsync(Buffer.from(JSON.stringify({ format: 1, tables }), 'utf8'), { level: 1 });
}
