import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely's SQLite connection prepares every statement anew on each query, and preparing is a large
 * part of a signed create (bench/README.md, "Figures behind the source's reasons"). This keeps each
 * distinct SQL text's prepared statement (up to `limit`, the oldest dropped first: multi-row
 * inserts make one text per row count) and notes whether a statement that changes the database ran
 * since the last `takeWrote()`, so the driver knows which uses of the connection must wait for
 * durability.
 */
export class StatementCache implements SqliteDatabase {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private readonly rawStatements = new Map<string, BetterSqlite3.Statement>();
  private wrote = false;

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly limit = 500,
  ) {}

  prepare(sql: string): SqliteStatement {
    return this.statement(sql) as SqliteStatement;
  }

  /** The prepared statement of `sql`, for code that runs it on the connection directly (sqlite-hot-path.ts). */
  statement(sql: string): BetterSqlite3.Statement {
    const statement = this.cached(this.statements, sql, false);
    // `readonly`, not `reader`: an UPDATE … RETURNING returns rows and writes.
    if (!statement.readonly) this.wrote = true;
    return statement;
  }

  /** A writing statement this cache handed out before is run again (insert-statements.ts keeps some at hand). */
  noteWrite(): void {
    this.wrote = true;
  }

  /** The prepared statement of a read of `sql` that returns its rows as arrays, kept apart from the one returning objects. */
  rawStatement(sql: string): BetterSqlite3.Statement {
    return this.cached(this.rawStatements, sql, true);
  }

  /** The statement of `sql` kept in `statements`, prepared on its first use; the oldest goes past the limit. */
  private cached(statements: Map<string, BetterSqlite3.Statement>, sql: string, raw: boolean): BetterSqlite3.Statement {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = raw ? this.database.prepare(sql).raw(true) : this.database.prepare(sql);
      if (statements.size >= this.limit) statements.delete(statements.keys().next().value!);
      statements.set(sql, statement);
    }
    return statement;
  }

  /** Whether a transaction begun outside Kysely (the migration's) is still open. */
  get inTransaction(): boolean {
    return this.database.inTransaction;
  }

  /** Whether a writing statement ran since the last call. */
  takeWrote(): boolean {
    const wrote = this.wrote;
    this.wrote = false;
    return wrote;
  }

  close(): void {
    this.statements.clear();
    this.rawStatements.clear();
    this.database.close();
  }
}
