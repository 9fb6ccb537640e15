import type { Kysely, Migration } from 'kysely';

/**
 * GET …/authorisations and …/cancellation-authorisations list a payment's or basket's authorisations
 * of one kind (sca-queries listAuthorisations). Without an index each list would read every
 * authorisation the bank ever started; this one finds a resource's few, in the order they are listed.
 */
export const authorisationListsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('authorisations_object')
      .on('authorisations')
      .columns(['object_id', 'kind', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('authorisations_object').execute();
  },
};
