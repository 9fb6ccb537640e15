import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Standing orders (periodic payments). The order is a payment (service periodic-payments) whose
 * requested_execution_date is its next execution's date; each execution is a row here, claimed in
 * the transaction that books it, so that no execution is booked twice (docs/batch.md, "Standing
 * orders").
 * - payments_due, the batch run's look-up, leaves standing orders out: the batch runs do not execute
 *   them (specification, rule 6), and 10 000 orders waiting for their dates would otherwise be read
 *   past by every chunk of every run.
 * - payments_periodic_due holds the orders waiting for their next date, by bank and date, so that a
 *   day's executions are the first entries of the index.
 */
export const periodicPaymentsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('periodic_executions')
      .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id').onDelete('cascade'))
      // The execution's place in the order's series of nominal dates (domain/periodic/schedule.ts).
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('bank', 'text', (c) => c.notNull())
      .addColumn('execution_date', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('status_reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('periodic_executions_pk', ['payment_id', 'seq'])
      .execute();
    await db.schema.dropIndex('payments_due').execute();
    await db.schema
      .createIndex('payments_due')
      .on('payments')
      .columns(['bank', 'authorised_at', 'id', 'requested_execution_date'])
      .where(sql<boolean>`status in ('ACTC', 'PDNG') and service <> 'periodic-payments'`)
      .execute();
    await db.schema
      .createIndex('payments_periodic_due')
      .on('payments')
      .columns(['bank', 'requested_execution_date', 'id'])
      .where(sql<boolean>`service = 'periodic-payments' and status in ('ACTC', 'PDNG')`)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('payments_periodic_due').execute();
    await db.schema.dropIndex('payments_due').execute();
    await db.schema
      .createIndex('payments_due')
      .on('payments')
      .columns(['bank', 'authorised_at', 'id', 'requested_execution_date'])
      .where(sql<boolean>`status in ('ACTC', 'PDNG')`)
      .execute();
    await db.schema.dropTable('periodic_executions').execute();
  },
};
