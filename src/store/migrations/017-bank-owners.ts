import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Who owns a sandbox bank, and when it was last used (docs/decisions/0270; docs/retention.md):
 * - bank_keys: the public keys (SHA-256 of the certificate's SubjectPublicKeyInfo) whose requests
 *   reach the bank. The first signed request's key is bound when the bank is made; a certificate for
 *   the same organisation identifier over another key reaches nothing.
 * - banks.opened_from: the client address (an IPv6 address's /64) the bank was made from, to limit
 *   the banks one address makes a day; banks.used_at: the last use, to remove banks left unused.
 * Banks made before this have no key: the first key that comes after the upgrade is bound.
 */
export const bankOwnersMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('bank_keys')
      .addColumn('bank', 'text', (c) => c.notNull())
      .addColumn('key_sha256', 'text', (c) => c.notNull())
      .addColumn('bound_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('bank_keys_pk', ['bank', 'key_sha256'])
      .execute();
    await sql`alter table banks add column opened_from text`.execute(db);
    await sql`alter table banks add column used_at text`.execute(db);
    await sql`update banks set used_at = updated_at`.execute(db);
    await db.schema.createIndex('banks_opened_from').on('banks').columns(['opened_from', 'created_at']).execute();
    await db.schema.createIndex('banks_used_at').on('banks').columns(['used_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('banks_used_at').execute();
    await db.schema.dropIndex('banks_opened_from').execute();
    await sql`alter table banks drop column used_at`.execute(db);
    await sql`alter table banks drop column opened_from`.execute(db);
    await db.schema.dropTable('bank_keys').execute();
  },
};
