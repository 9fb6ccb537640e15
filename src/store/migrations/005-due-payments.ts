import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The batch run's look-up of due payments (ledger-queries findDuePaymentIds: authorised, oldest
 * authorisation first, a chunk at a time) read every authorised payment through payments_status_date
 * and sorted them, for each chunk: a run of 100 000 payments sorted half of them on average 200
 * times. This partial index holds only the payments waiting to execute, in that order, with their
 * execution date, so a chunk is the first due entries of the index; executed payments leave it. It
 * replaces payments_status_date, which served that look-up alone (and which SQLite's planner would
 * otherwise still prefer, sort and all).
 */
export const duePaymentsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('payments_status_date').execute();
    await db.schema
      .createIndex('payments_due')
      .on('payments')
      .columns(['authorised_at', 'id', 'requested_execution_date'])
      .where(sql<boolean>`status in ('ACTC', 'PDNG')`)
      .execute();
  },
};
