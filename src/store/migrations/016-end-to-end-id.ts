import type { Kysely, Migration } from 'kysely';

/**
 * Release 1.21.18: a payment's endToEndIdentification is booked with its executed transaction and shown
 * in account information (`endToEndId`). A column of its own, empty for the transactions booked before
 * it, for posted test data and for fees, rather than a read of the payment's body with every page of
 * transactions.
 */
export const endToEndIdMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('account_transactions')
      .addColumn('end_to_end_id', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('account_transactions').dropColumn('end_to_end_id').execute();
  },
};
