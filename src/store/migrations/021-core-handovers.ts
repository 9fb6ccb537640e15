import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The hand-over of authorised payments to a bank's own core (docs/core.md, "Exactly once"): a row
 * per payment, written in the transaction that authorises it, until the core has acknowledged it.
 * - claimed_by and claimed_until: the instance sending it, and until when no other may (as a batch
 *   slot is claimed); a claim that lapses is taken over, and the core's idempotency by paymentId
 *   makes a second send of the same payment harmless.
 * - core_handovers_due holds the rows still to send by when they are due, so a sweep reads only those.
 * - core_report_cursors: where the polling of the core's status reports stands, and which instance
 *   polls now.
 */
export const coreHandoversMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('core_handovers')
      .addColumn('payment_id', 'text', (c) => c.primaryKey().references('payments.id').onDelete('cascade'))
      .addColumn('bank', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('claimed_by', 'text')
      .addColumn('claimed_until', 'text')
      .addColumn('handed_at', 'text')
      .addColumn('cancelled_at', 'text')
      .addColumn('last_error', 'text')
      .execute();
    await db.schema
      .createIndex('core_handovers_due')
      .on('core_handovers')
      .columns(['next_attempt_at', 'payment_id'])
      .where(sql<boolean>`handed_at is null and cancelled_at is null`)
      .execute();
    await db.schema
      .createTable('core_report_cursors')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('cursor', 'text')
      .addColumn('claimed_by', 'text')
      .addColumn('claimed_until', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('core_report_cursors').execute();
    await db.schema.dropTable('core_handovers').execute();
  },
};
