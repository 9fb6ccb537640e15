import BetterSqlite3 from 'better-sqlite3';
import type { RowReader } from '../queries/row-reader.js';
import { SQLITE_BUSY_WAIT_MS } from '../../domain/limits.js';

/**
 * A save's reads on SQLite (docs/decisions/0315): a read-only
 * connection of its own to the same file, in one read transaction (WAL gives it one state of the
 * database while the main connection goes on writing), each table's rows taken from a statement's
 * iterator a page at a time. The main connection, which every other request uses, is never held.
 * Undefined for a database in memory: no second connection can see it.
 */
export function openSnapshotReader(main: BetterSqlite3.Database): RowReader | undefined {
  if (main.memory) return undefined;
  const reader = new BetterSqlite3(main.name, { readonly: true, fileMustExist: true });
  reader.pragma(`busy_timeout = ${SQLITE_BUSY_WAIT_MS}`);
  reader.defaultSafeIntegers(true);
  reader.prepare('begin').run();
  return {
    rows: (text, parameters) =>
      reader.prepare(text).iterate(...(parameters as unknown[])) as IterableIterator<Record<string, unknown>>,
    close: () => {
      reader.prepare('rollback').run();
      reader.close();
    },
  };
}
