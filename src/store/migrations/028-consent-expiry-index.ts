import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The consent expiry (services/consent-expiry.ts, docs/decisions/0340) looks, every minute, for valid
 * consents whose SCA is about 180 days old: a partial index of the valid ones by their SCA's instant
 * makes that look a range read of the few near the edge, not a scan of every consent ever given.
 */
export const consentExpiryIndexMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('ais_consents_valid_sca')
      .on('ais_consents')
      .column('sca_at')
      .where(sql.ref('status'), '=', 'valid')
      .execute();
  },
};
