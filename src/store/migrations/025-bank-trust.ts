import { type Kysely, type Migration, sql } from 'kysely';

/**
 * When a certificate of a CA the operator trusts (TRUSTED_CA_CERTS) first made or used a sandbox bank
 * (docs/decisions/0271). From then on a certificate of the sandbox's
 * self-service CA reaches the bank only with a key bound to it: a bank with no key no longer goes to
 * the first self-service key that comes, and its last key may be unbound. Banks stored before have
 * none (null): no trusted certificate has been admitted to them as such.
 */
export const bankTrustMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table banks add column trusted_at text`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table banks drop column trusted_at`.execute(db);
  },
};
