/**
 * The storage the services use. Two implementations stand side by side behind it, sqlite/ (the
 * embedded default) and postgres/ (several server instances on one database), and one contract test
 * suite runs against both.
 */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Brings the schema to the latest version; safe to run on every start and from several instances. */
  migrate(): Promise<void>;
  /** Names of the migrations applied, oldest first. */
  appliedMigrations(): Promise<string[]>;
  /** Round trip to the database; rejects when it cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
