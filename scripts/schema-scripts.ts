import { writeFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { type CompiledQuery, Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrations } from '../src/store/migrations/index.js';
import { createTestDatabase } from '../test/support/postgres.js';

/**
 * `node dist/scripts/schema-scripts.js` (after a build, with PostgreSQL at PG_TEST_URL or the local
 * one) records the schema scripts an empty database is made with (src/store/migrations/schema-script.ts)
 * by running every migration on an empty database, and writes src/store/migrations/sqlite-schema.ts
 * and postgres-schema.ts. Run it after adding a migration, then build again.
 * - SQLite: the schema as the migrations left it (sqlite_master: tables, then indexes, views and
 *   triggers) and the rows they wrote. Its five tables rebuilt by migration 008 are made once, in their last form.
 * - PostgreSQL: every statement the migrations ran, in order, with its parameters written in, after
 *   the statements with which Kysely's migrator makes its own tables.
 */
const names = Object.keys(migrations);

/** A value as an SQL literal. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Buffer.isBuffer(value)) return `X'${value.toString('hex')}'`;
  throw new Error(`no SQL literal for ${typeof value}`);
}

function insertOf(table: string, row: Record<string, unknown>): string {
  const columns = Object.keys(row);
  return `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map((c) => literal(row[c])).join(', ')})`;
}

async function sqliteStatements(): Promise<string[]> {
  const connection = new BetterSqlite3(':memory:');
  // As SqliteStore.migrate runs them: SQLite rebuilds a table to change its constraints.
  connection.pragma('foreign_keys = OFF');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: connection }) });
  try {
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    if (error !== undefined) throw error;
    const objects = connection
      .prepare(
        `select type, name, sql from sqlite_master where sql is not null and name not like 'sqlite_%'
      order by case type when 'table' then 0 when 'index' then 1 when 'view' then 2 else 3 end, rowid`,
      )
      .all() as { type: string; name: string; sql: string }[];
    const rows = objects
      .filter((o) => o.type === 'table' && o.name !== 'kysely_migration')
      .flatMap((o) =>
        (connection.prepare(`select * from "${o.name}"`).all() as Record<string, unknown>[]).map((row) =>
          insertOf(o.name, row),
        ),
      );
    return [...objects.map((o) => o.sql), ...rows];
  } finally {
    await db.destroy();
  }
}

/** Kysely's PostgreSQL placeholders ($1, $2, …) replaced by the values. */
function inlined(query: CompiledQuery): string {
  return query.sql.replace(/\$(\d+)/g, (_match, index: string) => literal(query.parameters[Number(index) - 1]));
}

async function postgresStatements(): Promise<string[]> {
  const database = await createTestDatabase();
  let recorded: string[] = [];
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }),
    log: (event) => {
      if (event.level === 'query') recorded.push(inlined(event.query));
    },
  });
  try {
    // The migrator with no migrations makes its tables and lock row and nothing else; its reads are left out.
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => ({}) } }).migrateToLatest();
    if (error !== undefined) throw error;
    const bookkeeping = recorded.filter(
      (s) => /^create table /i.test(s) || /^insert into "kysely_migration_lock"/i.test(s),
    );
    recorded = [];
    for (const migration of Object.values(migrations)) await migration.up(db);
    return [...bookkeeping, ...recorded];
  } finally {
    await db.destroy();
    await database.drop();
  }
}

function write(file: string, exportName: string, statements: readonly string[], dialect: string): void {
  const text = `import type { SchemaScript } from './schema-script.js';

/** The ${dialect} schema script (schema-script.ts). Written by scripts/schema-scripts.ts: do not edit, run it again. */
export const ${exportName}: SchemaScript = {
  migrations: ${JSON.stringify(names)},
  statements: [
${statements.map((s) => `    ${JSON.stringify(s)},`).join('\n')}
  ],
};
`;
  writeFileSync(file, text);
}

write('src/store/migrations/sqlite-schema.ts', 'sqliteSchema', await sqliteStatements(), 'SQLite');
write('src/store/migrations/postgres-schema.ts', 'postgresSchema', await postgresStatements(), 'PostgreSQL');
process.stdout.write(`schema scripts written for ${names.length} migrations (${names.at(-1)})\n`);
