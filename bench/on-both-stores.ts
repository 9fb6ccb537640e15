import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { createTestDatabase } from '../test/support/postgres.js';

/**
 * Runs a store benchmark's `measure` on a new SQLite store in a temporary folder and then on a new
 * PostgreSQL database of PG_TEST_URL's server, each removed afterwards, so the figures of both
 * engines start from an empty store; the results by engine, in that order.
 */
export async function onBothStores<T>(
  name: string,
  measure: (store: Store) => Promise<T>,
): Promise<{ engine: 'SQLite' | 'PostgreSQL'; result: T }[]> {
  const results: { engine: 'SQLite' | 'PostgreSQL'; result: T }[] = [];
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  try {
    const sqlite = SqliteStore.open(join(dir, 'psd2.db'));
    try {
      results.push({ engine: 'SQLite', result: await measure(sqlite) });
    } finally {
      await sqlite.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const database = await createTestDatabase();
  try {
    const postgres = PostgresStore.open(database.url);
    try {
      results.push({ engine: 'PostgreSQL', result: await measure(postgres) });
    } finally {
      await postgres.close();
    }
  } finally {
    await database.drop();
  }
  return results;
}
