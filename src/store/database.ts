/**
 * Table types of the database, as Kysely sees them. One schema serves both SQLite and PostgreSQL:
 * amounts are integer minor units (bigint), instants are ISO 8601 text in UTC, ids are text.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Database {}
