import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Scenarios on demand (docs/scenarios.md; docs/decisions/0278 and docs/decisions/0286):
 * - accounts.status: Berlin Group's accountStatus (enabled, blocked, deleted); a payment from or to
 *   a blocked or deleted account is rejected when it executes. Every account is enabled until a
 *   TPP's test data says otherwise.
 * - customers.payment_limit_minor: the most one payment (or bulk entry) the customer may sign, in
 *   øre; none when null.
 * - payments.held_until, held_then, held_reason: a payment an armed scenario holds (PDNG or ACSP)
 *   until an instant of its bank's clock, and what it becomes then. payments_due leaves held
 *   payments out, so the batch run's look-up stays an index read of the payments it can take;
 *   payments_held is the look-up of held payments whose time has come.
 * - sandbox_scenarios: the rules a TPP's test arms in its bank (one row each, keyed by bank as
 *   every sandbox table), until they are spent or disarmed.
 */
export const sandboxScenariosMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table accounts add column status text not null default 'enabled'`.execute(db);
    await sql`alter table customers add column payment_limit_minor bigint`.execute(db);
    await sql`alter table payments add column held_until text`.execute(db);
    await sql`alter table payments add column held_then text`.execute(db);
    await sql`alter table payments add column held_reason text`.execute(db);
    await db.schema.dropIndex('payments_due').execute();
    await db.schema
      .createIndex('payments_due')
      .on('payments')
      .columns(['bank', 'authorised_at', 'id', 'requested_execution_date'])
      .where(sql<boolean>`status in ('ACTC', 'PDNG') and service <> 'periodic-payments' and held_until is null`)
      .execute();
    await db.schema
      .createIndex('payments_held')
      .on('payments')
      .columns(['bank', 'held_until', 'id'])
      .where(sql<boolean>`held_until is not null and status in ('PDNG', 'ACSP')`)
      .execute();
    await db.schema
      .createTable('sandbox_scenarios')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bank', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      // The rule as armed (domain/sandbox-scenarios.ts), JSON.
      .addColumn('rule', 'text', (c) => c.notNull())
      // Matches left; null runs until disarmed (or, for a maintenance window, until the window ends).
      .addColumn('times_left', 'integer')
      // When the rule stops by itself (a maintenance window's end); null: when spent or disarmed.
      .addColumn('ends_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sandbox_scenarios_bank').on('sandbox_scenarios').columns(['bank', 'kind']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sandbox_scenarios').execute();
    await db.schema.dropIndex('payments_held').execute();
    await db.schema.dropIndex('payments_due').execute();
    await db.schema
      .createIndex('payments_due')
      .on('payments')
      .columns(['bank', 'authorised_at', 'id', 'requested_execution_date'])
      .where(sql<boolean>`status in ('ACTC', 'PDNG') and service <> 'periodic-payments'`)
      .execute();
    await sql`alter table payments drop column held_reason`.execute(db);
    await sql`alter table payments drop column held_then`.execute(db);
    await sql`alter table payments drop column held_until`.execute(db);
    await sql`alter table customers drop column payment_limit_minor`.execute(db);
    await sql`alter table accounts drop column status`.execute(db);
  },
};
