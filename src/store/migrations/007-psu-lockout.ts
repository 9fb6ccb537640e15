import { type Kysely, type Migration, sql } from 'kysely';

/** Why a payment waiting for SCA when national identity numbers became keyed hashes was rejected. */
export const LEGACY_NATIONAL_ID_REASON =
  'initiated with X-PSU-IDENTITY before the bank changed how it stores national identity numbers; initiate it again';

/**
 * The PSU's side (docs/decisions/0123 and docs/decisions/0125):
 * - psu_code_attempts: each one-time code tried, per key of the PSU (the customer number typed, the
 *   PSU named at initiation), so wrong codes lock a PSU out across links and server instances.
 * - installation_keys: the fingerprint of the key national identity numbers are hashed with, so an
 *   instance started with another key refuses to start rather than fail to recognise every PSU.
 * - The national identity numbers stored before were SHA-256 with a fixed prefix, which anyone can
 *   reverse by hashing every number. They cannot be converted (that would take reversing them), so
 *   they are erased: a payment still waiting for SCA is rejected with a reason (it would expire
 *   within the hour anyway), an authorisation in progress fails, and PSU keys made from them
 *   become one of their own per row, which matches no later request.
 */
export const psuLockoutMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('psu_code_attempts')
      .addColumn('psu_key', 'text', (c) => c.notNull())
      .addColumn('attempt_id', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('psu_code_attempts_pk', ['psu_key', 'attempt_id'])
      .execute();
    await db.schema.createIndex('psu_code_attempts_at').on('psu_code_attempts').columns(['at']).execute();
    await db.schema.createIndex('psu_code_attempts_attempt').on('psu_code_attempts').columns(['attempt_id']).execute();

    await db.schema
      .createTable('installation_keys')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    const now = new Date().toISOString();
    await sql`update payments set status = 'RJCT', status_reason = ${LEGACY_NATIONAL_ID_REASON}, updated_at = ${now}
      where psu_national_id_hash is not null and status = 'RCVD'`.execute(db);
    await sql`update transfers set status = 'RJCT'
      where status = 'RCVD' and payment_id in (select id from payments where psu_national_id_hash is not null and status = 'RJCT')`.execute(
      db,
    );
    await sql`update payments set psu_national_id_hash = null where psu_national_id_hash is not null`.execute(db);
    await sql`update payments set psu_key = 'erased:' || id where psu_key like 'nin:%'`.execute(db);
    await sql`update transfers set psu_key = 'erased:' || payment_id where psu_key like 'nin:%'`.execute(db);
    await sql`update baskets set psu_key = 'erased:' || id where psu_key like 'nin:%'`.execute(db);
    // Every assignment reads the row as it was: an authorisation not yet done fails, one done keeps its status.
    await sql`update authorisations set status = case when stage = 'done' then status else 'failed' end, stage = 'done',
      psu_national_id_hash = null, updated_at = ${now}
      where psu_national_id_hash is not null`.execute(db);
  },
};
