import type { Kysely, Migration } from 'kysely';

/** PSU sessions per TPP, SCA authorisations with their single-use links, and signing baskets. */
export const scaMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('psu_sessions')
      .addColumn('psu_id', 'text', (c) => c.primaryKey())
      .addColumn('tpp_id', 'text', (c) => c.notNull())
      .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('last_sca_at', 'text', (c) => c.notNull())
      .addColumn('tpp_session_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('psu_sessions_tpp_customer', ['tpp_id', 'customer_id'])
      .execute();

    await db.schema
      .createTable('authorisations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('stage', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('object_id', 'text')
      .addColumn('tpp_id', 'text', (c) => c.notNull())
      .addColumn('tpp_name', 'text', (c) => c.notNull())
      .addColumn('psu_id', 'text')
      .addColumn('psu_national_id_hash', 'text')
      .addColumn('psu_corporate_id', 'text')
      .addColumn('psu_context', 'text')
      .addColumn('auth_method', 'text')
      .addColumn('redirect_preferred', 'integer', (c) => c.notNull())
      .addColumn('tpp_redirect_uri', 'text')
      .addColumn('tpp_session_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('customer_id', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('baskets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tpp_id', 'text', (c) => c.notNull())
      .addColumn('psu_key', 'text', (c) => c.notNull())
      .addColumn('request_body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('basket_payments')
      .addColumn('basket_id', 'text', (c) => c.notNull().references('baskets.id').onDelete('cascade'))
      .addColumn('payment_id', 'text', (c) => c.notNull().unique().references('payments.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('basket_payments_pk', ['basket_id', 'payment_id'])
      .execute();

    // Who signed a payment, and when: the batch run debits the account the signer was allowed to pay from.
    await db.schema.alterTable('payments').addColumn('signed_by_customer_id', 'text').execute();
    await db.schema.alterTable('payments').addColumn('authorised_at', 'text').execute();
  },
};
