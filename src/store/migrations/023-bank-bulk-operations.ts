import { type Kysely, type Migration, sql } from 'kysely';

/**
 * A bank's bulk operations (docs/decisions/0315 and docs/decisions/0316):
 * - banks.bulk_operation and banks.bulk_until: the lease of the one bulk operation (a snapshot save
 *   or restore, initialize) running on the bank, on any instance, and until when it holds; a lease
 *   past its time is free, so an instance that died holding one blocks the bank no longer than that;
 * - banks.restoring: the snapshot a restore is putting back. SQLite writes a restore in slices, so a
 *   crash can leave the bank half restored: the next start finishes what this names.
 */
export const bankBulkOperationsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table banks add column bulk_operation text`.execute(db);
    await sql`alter table banks add column bulk_until text`.execute(db);
    await sql`alter table banks add column restoring text`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table banks drop column restoring`.execute(db);
    await sql`alter table banks drop column bulk_until`.execute(db);
    await sql`alter table banks drop column bulk_operation`.execute(db);
  },
};
