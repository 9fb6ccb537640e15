import type BetterSqlite3 from 'better-sqlite3';
import { INSERT_SHAPES_PER_TABLE } from '../../domain/limits.js';
import type { StatementCache } from './statement-cache.js';

/** An insert statement, and the columns and conflict clause it was made for. */
interface InsertShape {
  readonly columns: readonly string[];
  readonly suffix: string;
  readonly statement: BetterSqlite3.Statement;
}

/**
 * The insert statement of a row of named columns, found by its table and columns without making its
 * SQL text. Made anew on each insert, the text (a column list and a parameter list, joined) and the
 * hashing of it for the statement cache's look-up took about a twentieth of a create's instructions
 * (docs/decisions/0358). A row's column names are property keys, which V8 keeps as unique strings,
 * so comparing two lists compares pointers.
 */
export class InsertStatements {
  private readonly byTable = new Map<string, InsertShape[]>();

  constructor(private readonly statements: StatementCache) {}

  /** The statement inserting rows with the columns of `row` into `table`, followed by `suffix` (a conflict clause). */
  of(table: string, row: Record<string, unknown>, suffix = ''): BetterSqlite3.Statement {
    const columns = Object.keys(row);
    let shapes = this.byTable.get(table);
    if (shapes === undefined) {
      shapes = [];
      this.byTable.set(table, shapes);
    }
    for (const shape of shapes) {
      if (shape.suffix === suffix && sameColumns(shape.columns, columns)) {
        // As the statement cache notes it when it hands out a writing statement: the driver waits for durability.
        this.statements.noteWrite();
        return shape.statement;
      }
    }
    const statement = this.statements.statement(
      `insert into ${table} (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})${suffix}`,
    );
    if (shapes.length >= INSERT_SHAPES_PER_TABLE) shapes.shift();
    shapes.push({ columns, suffix, statement });
    return statement;
  }
}

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
