import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The sandbox console lists a bank's payments, newest first (docs/console.md). Without an index that
 * leads with the bank, the read walks and sorts every payment of every bank: on SQLite, whose reads
 * hold the event loop, a shared sandbox's whole table. The index is partial, of sandbox banks only
 * (production's one bank is ''), so production's creates write nothing more; the console's read names
 * the predicate as written here, which both engines need to take a partial index.
 */
export const bankPaymentsIndexMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('payments_bank_created')
      .on('payments')
      .columns(['bank', 'created_at', 'id'])
      .where(sql<boolean>`bank <> ''`)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('payments_bank_created').execute();
  },
};
