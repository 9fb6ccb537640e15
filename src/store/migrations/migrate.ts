import { type Kysely, Migrator, sql } from 'kysely';
import type { Database } from '../database.js';
import { migrations } from './index.js';
import { type SchemaScript, scriptFits } from './schema-script.js';

/**
 * Brings the schema to the latest version; safe on every start and from several instances. An empty
 * database is made with the engine's schema script, which `runScript` runs (false when another
 * instance made the database first); any other is migrated step by step. Whether this call changed
 * the schema: false when it found every migration applied.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  script: SchemaScript,
  runScript: (script: SchemaScript) => Promise<boolean>,
): Promise<boolean> {
  // Every start but the first finds the schema current: one read instead of the migrator's
  // lock table, lock and introspection.
  const applied = await appliedMigrationNames(db);
  const names = Object.keys(migrations);
  if (applied !== undefined && names.every((name) => applied.has(name))) return false;
  // An empty database is made with one script (migrations/schema-script.ts); a database another
  // instance made meanwhile, or one at an earlier version, is migrated step by step.
  if (
    applied === undefined &&
    scriptFits(script, names) &&
    (await runScript(script)) &&
    script.migrations.length === names.length
  )
    return true;
  const { error, results } = await migrator(db).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`database migration ${failed ?? ''} failed: ${(error as Error).message ?? String(error)}`);
  }
  return true;
}

/** Names of the migrations applied, oldest first. */
export async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  return (await migrator(db).getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
}

/** The names of the migrations applied; undefined when the database has no migration table (it is empty). */
async function appliedMigrationNames(db: Kysely<Database>): Promise<Set<string> | undefined> {
  try {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    return new Set(rows.rows.map((r) => r.name));
  } catch {
    return undefined; // no migration table yet: an empty database
  }
}

function migrator(db: Kysely<Database>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}
