import { type Kysely, type Migration, SqliteAdapter } from 'kysely';

/**
 * Sandbox snapshots (docs/sandbox.md, "Snapshots"): a TPP saves its bank's state and restores it
 * between tests. Each row holds the bank's rows, compressed, with the clock offset and the row count
 * the list shows without reading them; `migration` names the schema the rows were read in. Rows are
 * looked up by bank (the list, the count a save is limited by, the bank's removal), newest last.
 */
export const sandboxSnapshotsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const binary = db.getExecutor().adapter instanceof SqliteAdapter ? 'blob' : 'bytea';
    await db.schema
      .createTable('sandbox_snapshots')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bank', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('clock_offset_ms', 'bigint', (c) => c.notNull())
      .addColumn('row_count', 'integer', (c) => c.notNull())
      .addColumn('size_bytes', 'integer', (c) => c.notNull())
      .addColumn('migration', 'text', (c) => c.notNull())
      .addColumn('data', binary, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('sandbox_snapshots_bank')
      .on('sandbox_snapshots')
      .columns(['bank', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('sandbox_snapshots_bank').execute();
    await db.schema.dropTable('sandbox_snapshots').execute();
  },
};
