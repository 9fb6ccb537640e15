/**
 * What an empty database is made with: the outcome of the migrations, recorded from a run of them
 * on an empty database (scripts/schema-scripts.ts writes sqlite-schema.ts and postgres-schema.ts),
 * run as one script in one transaction. Running each migration through Kysely's migrator is a
 * noticeable part of a first start on SQLite (one of them rebuilds five tables) and a round trip per
 * statement on PostgreSQL; the script is one transaction and one round trip (docs/decisions/0029).
 *
 * A database that has any migration applied is migrated step by step. A migration added
 * after the script was recorded runs through the migrator after the script, until the script is
 * recorded again (the build says when it lags behind).
 */
export interface SchemaScript {
  /** The migrations whose outcome the script is, in the order they run. */
  migrations: readonly string[];
  /** The statements, in order, without the rows of kysely_migration (written when the script runs). */
  statements: readonly string[];
}

/** Whether the script is the outcome of the first of these migrations (it is of no use when a migration it covers was renamed or removed). */
export function scriptFits(script: SchemaScript, migrationNames: readonly string[]): boolean {
  return (
    script.migrations.length <= migrationNames.length &&
    script.migrations.every((name, index) => migrationNames[index] === name)
  );
}
