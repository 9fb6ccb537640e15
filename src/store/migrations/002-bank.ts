import type { Kysely, Migration } from 'kysely';

/** The bank's customers, accounts and corporate agreements (the sandbox's test data, the bank's core in production). */
export const bankMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('customers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('customer_number', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('bban', 'text', (c) => c.notNull().unique())
      .addColumn('iban', 'text', (c) => c.notNull().unique())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('product', 'text', (c) => c.notNull())
      .addColumn('cash_account_type', 'text', (c) => c.notNull())
      .addColumn('credit_line_minor', 'bigint', (c) => c.notNull())
      .addColumn('balance_minor', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('accounts_customer').on('accounts').column('customer_id').execute();
    await db.schema
      .createTable('agreements')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner_customer_id', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('engagements')
      .addColumn('agreement_id', 'text', (c) => c.notNull().references('agreements.id').onDelete('cascade'))
      .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('roles', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('engagements_pk', ['agreement_id', 'customer_id', 'account_id'])
      .execute();
  },
};
