import type { DatabaseLocation } from '../config/config.js';
import type { Store } from './store.js';

/** Opens the store DATABASE_URL names; each driver is loaded only when it is used. */
export async function openStore(location: DatabaseLocation): Promise<Store> {
  if (location.kind === 'sqlite') {
    const { SqliteStore } = await import('./sqlite/sqlite-store.js');
    return SqliteStore.open(location.path);
  }
  const { PostgresStore } = await import('./postgres/postgres-store.js');
  return PostgresStore.open(location.url);
}
