import type { Kysely, Migration } from 'kysely';

/**
 * Account information (docs/ais.md): the PSU's consents, the accounts each shares, and the count of
 * reads made without the PSU present.
 * - ais_consents: one per POST /v1/bank-offered-consents (or 401 challenge of a read). The TPP's
 *   TPP-Session-ID names it on every read, with the PSU-ID its SCA gave; sca_at is when the PSU last
 *   authenticated for it (180-day renewal, 90-day history rule).
 * - ais_consent_accounts: the accounts and card accounts the PSU chose on the bank's page.
 * - ais_unattended_reads: reads without PSU-IP-Address per TPP, resource and day (RTS 36(5)).
 * - card_transactions by card account, booking date and position: a card account's pages in
 *   booking-date order, as account transactions have (migration 004's account_transactions_booking).
 * The payments table is not touched: an account's pending payments are read from payments_due
 * (migration 008), the bank's payments waiting for the batch run.
 */
export const aisConsentsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ais_consents')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bank', 'text', (c) => c.notNull())
      .addColumn('tpp_id', 'text', (c) => c.notNull())
      .addColumn('tpp_session_id', 'text', (c) => c.notNull())
      // received (link issued), valid (PSU chose accounts), rejected (declined or failed), replaced (a later consent of the session).
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('psu_context', 'text', (c) => c.notNull())
      .addColumn('agreement_id', 'text')
      .addColumn('customer_id', 'text')
      .addColumn('sca_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('ais_consents_session')
      .on('ais_consents')
      .columns(['tpp_id', 'tpp_session_id', 'status'])
      .execute();

    await db.schema
      .createTable('ais_consent_accounts')
      .addColumn('consent_id', 'text', (c) => c.notNull().references('ais_consents.id').onDelete('cascade'))
      // account or card
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('resource_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('ais_consent_accounts_pk', ['consent_id', 'kind', 'resource_id'])
      .execute();

    await db.schema
      .createTable('ais_unattended_reads')
      .addColumn('tpp_id', 'text', (c) => c.notNull())
      .addColumn('resource_key', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('reads', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('ais_unattended_reads_pk', ['tpp_id', 'resource_key', 'day'])
      .execute();

    await db.schema
      .createIndex('card_transactions_booking')
      .on('card_transactions')
      .columns(['card_account_id', 'booking_date', 'seq'])
      .execute();
  },
};
