import type { Kysely, Migration } from 'kysely';

/**
 * Each signed request's X-Request-ID, bound on first use to the method, target and body it was signed
 * for (src/domain/request-binding.ts), kept until the signature could no longer be accepted.
 */
export const requestBindingsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('request_bindings')
      .addColumn('tpp_id', 'text', (c) => c.notNull())
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('body_sha256', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('request_bindings_pk', ['tpp_id', 'request_id'])
      .execute();
    // The purge of expired bindings reads them in expiry order.
    await db.schema.createIndex('request_bindings_expiry').on('request_bindings').column('expires_at').execute();
  },
};
