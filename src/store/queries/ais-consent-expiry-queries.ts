import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { ConsentsAmong, ExpiringConsent } from '../ais-records.js';

/**
 * Valid consents whose SCA is older than `scaBefore`, oldest first, at most `limit`, with their
 * bank's clock offset. `among` narrows the look to one bank (a clock move), or to the banks whose
 * clock runs at one offset. A bank without a row (production's) is at offset 0.
 */
export async function findExpiringConsents(
  db: Kysely<Database>,
  scaBefore: Date,
  among: ConsentsAmong,
  limit: number,
): Promise<ExpiringConsent[]> {
  let query = db
    .selectFrom('ais_consents as c')
    .leftJoin('banks as b', 'b.bank', 'c.bank')
    .select(['c.id', 'c.bank', 'c.sca_at', 'b.clock_offset_ms'])
    .where('c.status', '=', 'valid')
    .where('c.sca_at', '<', scaBefore.toISOString());
  if (among !== undefined && 'bank' in among) query = query.where('c.bank', '=', among.bank);
  if (among !== undefined && 'clockOffsetMs' in among)
    query = query.where('b.clock_offset_ms', '=', among.clockOffsetMs);
  const rows = await query.orderBy('c.sca_at').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    bank: r.bank,
    scaAt: new Date(r.sca_at!),
    clockOffsetMs: BigInt(r.clock_offset_ms ?? 0),
  }));
}

/** Those of `ids` still valid become expired at `at` (their bank's time); how many did. */
export async function expireConsents(db: Kysely<Database>, ids: readonly string[], at: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('ais_consents')
    .set({ status: 'expired', updated_at: at.toISOString() })
    .where('id', 'in', ids)
    .where('status', '=', 'valid')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
