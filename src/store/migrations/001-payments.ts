import type { Kysely, Migration } from 'kysely';

/** Payments, their transfers, and the TPP requests that created them (idempotency by X-Request-ID). */
export const paymentsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('tpp_requests')
      .addColumn('tpp_id', 'text', (c) => c.notNull())
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('operation', 'text', (c) => c.notNull())
      .addColumn('body_sha256', 'text', (c) => c.notNull())
      .addColumn('response_status', 'integer', (c) => c.notNull())
      .addColumn('response_body', 'text', (c) => c.notNull())
      .addColumn('payment_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('tpp_requests_pk', ['tpp_id', 'request_id'])
      .execute();

    await db.schema
      .createTable('payments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tpp_id', 'text', (c) => c.notNull())
      .addColumn('service', 'text', (c) => c.notNull())
      .addColumn('product', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('psu_key', 'text', (c) => c.notNull())
      .addColumn('psu_id', 'text')
      .addColumn('psu_national_id_hash', 'text')
      .addColumn('psu_corporate_id', 'text')
      .addColumn('psu_context', 'text')
      .addColumn('debtor_bban', 'text')
      .addColumn('debtor_iban', 'text')
      .addColumn('debtor_currency', 'text', (c) => c.notNull())
      .addColumn('requested_execution_date', 'text')
      .addColumn('entry_count', 'integer', (c) => c.notNull())
      .addColumn('fee_minor', 'bigint', (c) => c.notNull())
      .addColumn('fee_currency', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('accept_fixes', 'text', (c) => c.notNull())
      .addColumn('tpp_redirect_uri', 'text', (c) => c.notNull())
      .addColumn('tpp_session_id', 'text', (c) => c.notNull())
      .addColumn('funds_available', 'integer')
      .addColumn('status_reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('payments_status_date')
      .on('payments')
      .columns(['status', 'requested_execution_date'])
      .execute();

    await db.schema
      .createTable('transfers')
      .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('tpp_id', 'text', (c) => c.notNull())
      .addColumn('psu_key', 'text', (c) => c.notNull())
      .addColumn('amount_minor', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('creditor_name', 'text', (c) => c.notNull())
      .addColumn('creditor_account', 'text', (c) => c.notNull())
      .addColumn('duplicate_key', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('status_reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('transfers_pk', ['payment_id', 'seq'])
      .execute();
    await db.schema
      .createIndex('transfers_duplicates')
      .on('transfers')
      .columns(['tpp_id', 'psu_key', 'duplicate_key'])
      .execute();
  },
};
