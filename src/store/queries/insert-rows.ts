import { CompiledQuery, type Insertable, type Kysely, sql } from 'kysely';
import { INSERT_CHUNK, INSERT_TEXTS_PER_ENGINE } from '../../domain/limits.js';
import type { Database } from '../database.js';

/** Made statement texts of one engine, by table, columns and row count; the oldest is dropped past the bound. */
const textsByAdapter = new WeakMap<object, Map<string, string>>();

/**
 * Inserts rows of the same columns, INSERT_CHUNK a statement, each row its values in the order of
 * `columns`. The statement's text, in the placeholders of the engine's dialect, is made once per
 * table, columns and row count and kept; a chunk runs it with its values. Kysely's insert builder,
 * given the rows as objects, makes a node per value and compiles them all for every chunk: for a
 * batch run's bookings that cost more than SQLite's work of storing them (docs/decisions/0363).
 */
export async function insertRows(
  trx: Kysely<Database>,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const chunk = rows.slice(start, start + INSERT_CHUNK);
    await trx.executeQuery(CompiledQuery.raw(insertText(trx, table, columns, chunk.length), chunk.flat()));
  }
}

/**
 * Inserts records of a table, each given every one of `columns` (a missing value is stored as null,
 * never as the column's default), through insertRows.
 */
export function insertRecords<T extends keyof Database & string>(
  trx: Kysely<Database>,
  table: T,
  columns: readonly (keyof Insertable<Database[T]> & string)[],
  records: readonly Insertable<Database[T]>[],
): Promise<void> {
  return insertRows(
    trx,
    table,
    columns,
    records.map((record) => columns.map((column) => record[column] ?? null)),
  );
}

function insertText(trx: Kysely<Database>, table: string, columns: readonly string[], count: number): string {
  const adapter = trx.getExecutor().adapter;
  let texts = textsByAdapter.get(adapter);
  if (texts === undefined) textsByAdapter.set(adapter, (texts = new Map()));
  // JSON, so that no two shapes share a key, whatever characters their names hold.
  const key = JSON.stringify([table, count, columns]);
  let text = texts.get(key);
  if (text === undefined) {
    const row = sql`(${sql.join(columns.map(() => null))})`;
    text = sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${sql.join(
      Array.from({ length: count }, () => row),
    )}`.compile(trx).sql;
    if (texts.size >= INSERT_TEXTS_PER_ENGINE) texts.delete(texts.keys().next().value!);
    texts.set(key, text);
  }
  return text;
}
