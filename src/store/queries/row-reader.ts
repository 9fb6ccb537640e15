/**
 * Rows read a page at a time outside the store's connection (SQLite's second connection for a save,
 * sqlite/snapshot-reader.ts): a statement's text and parameters as Kysely compiled them, and its rows
 * as they come; `close` ends the read.
 */
export interface RowReader {
  rows(text: string, parameters: readonly unknown[]): Iterator<Record<string, unknown>>;
  close(): void;
}
