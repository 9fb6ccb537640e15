import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';
import { REQUEST_COLUMNS, createPaymentFunction } from './009-create-payment-function.js';
import { DUPLICATE_SCOPE_PARTS } from './013-duplicate-scope.js';

/**
 * The subscription a create's notification headers make (docs/notifications.md), written by the
 * create in its own transaction; on PostgreSQL by psd2_create_payment, which reads it from the
 * request's JSON (`req->'subscription'`), so that its arguments, and the calls of an instance of the
 * version before, stay as they were: that instance sends none, and the function stores none.
 */
const AFTER_TRANSFERS = `  if req->'subscription' is not null and jsonb_typeof(req->'subscription') = 'object' then
    insert into notification_subscriptions (resource_kind, resource_id, tpp_id, uri, content, created_at)
      select resource_kind, resource_id, tpp_id, uri, content, created_at
      from jsonb_populate_record(null::notification_subscriptions, req->'subscription');
  end if;
`;

/**
 * Berlin Group's resource status notifications, the part a create stores (docs/notifications.md,
 * docs/decisions/0329):
 * - notification_subscriptions: where and what the bank sends for one resource (a payment, a signing
 *   basket, a consent, an authorisation), one row per resource, written in the create's transaction.
 * - tpp_requests.response_headers: the answer's own headers (ASPSP-Notification-Support and -Content),
 *   as JSON, so that a retry of the create gets them as the first answer had them.
 * - PostgreSQL's psd2_create_payment inserts both.
 */
export const notificationSubscriptionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('notification_subscriptions')
      .addColumn('resource_kind', 'text', (c) => c.notNull())
      .addColumn('resource_id', 'text', (c) => c.notNull())
      .addColumn('tpp_id', 'text', (c) => c.notNull())
      .addColumn('uri', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_subscriptions_pk', ['resource_kind', 'resource_id'])
      .execute();
    // A bank's removal and its snapshots select its rows by TPP (queries/bank-tables.ts).
    await db.schema
      .createIndex('notification_subscriptions_tpp')
      .on('notification_subscriptions')
      .column('tpp_id')
      .execute();
    await sql`alter table tpp_requests add column response_headers text`.execute(db);
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    await sql
      .raw(
        createPaymentFunction({
          head: 'create or replace function',
          ...DUPLICATE_SCOPE_PARTS,
          requestColumns: REQUEST_COLUMNS.replace('response_body,', 'response_body, response_headers,'),
          afterTransfers: AFTER_TRANSFERS,
        }),
      )
      .execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
      await sql
        .raw(createPaymentFunction({ head: 'create or replace function', ...DUPLICATE_SCOPE_PARTS }))
        .execute(db);
    }
    await sql`alter table tpp_requests drop column response_headers`.execute(db);
    await db.schema.dropTable('notification_subscriptions').execute();
  },
};
