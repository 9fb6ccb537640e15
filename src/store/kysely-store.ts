import { type Kysely, Migrator, sql } from 'kysely';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';
import type { Store } from './store.js';

/**
 * What both implementations share: the queries are Kysely's and run unchanged on either dialect.
 * The subclasses open the connection and supply what differs between the engines.
 */
export abstract class KyselyStore implements Store {
  abstract readonly kind: 'sqlite' | 'postgres';

  protected constructor(protected readonly db: Kysely<Database>) {}

  async migrate(): Promise<void> {
    const migrator = new Migrator({ db: this.db, provider: { getMigrations: async () => migrations } });
    const { error, results } = await migrator.migrateToLatest();
    if (error !== undefined) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName;
      throw new Error(`database migration ${failed ?? ''} failed: ${(error as Error).message ?? String(error)}`);
    }
  }

  async appliedMigrations(): Promise<string[]> {
    const migrator = new Migrator({ db: this.db, provider: { getMigrations: async () => migrations } });
    return (await migrator.getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
