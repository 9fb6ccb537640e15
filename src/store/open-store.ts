import type { Store } from './store.js';

/** Where the store is: a SQLite file, or a PostgreSQL database (the configuration reads it from DATABASE_URL). */
export type DatabaseLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** Opens the store DATABASE_URL names; each driver is loaded only when it is used. */
export async function openStore(location: DatabaseLocation): Promise<Store> {
  if (location.kind === 'sqlite') {
    const { SqliteStore } = await import('./sqlite/sqlite-store.js');
    return SqliteStore.open(location.path);
  }
  const { PostgresStore } = await import('./postgres/postgres-store.js');
  return PostgresStore.open(location.url);
}
