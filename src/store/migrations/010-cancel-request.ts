import type { Kysely, Migration } from 'kysely';

/**
 * payments.cancel_request_id: the X-Request-ID of the DELETE that cancelled the payment. A DELETE
 * with that X-Request-ID is the same request (the X-Request-ID binding makes it so, migration 006), and finding the
 * payment cancelled by itself answers 204 again, whichever of two concurrent copies ran first. A
 * flag on the request alone ("a retry") could not say so: the copy that bound the X-Request-ID is
 * not always the one that cancels.
 */
export const cancelRequestMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('payments').addColumn('cancel_request_id', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('payments').dropColumn('cancel_request_id').execute();
  },
};
