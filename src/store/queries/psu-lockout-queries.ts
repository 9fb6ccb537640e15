import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/**
 * One-time code attempts per PSU, counted across links and server instances (ScaService.login).
 * Each statement commits on its own: an attempt is written before it is counted, so of attempts
 * made at the same moment on several instances, each counts every one written before it, and no
 * more than the limit are ever let through.
 */
export async function reserveCodeAttempt(
  db: Kysely<Database>,
  attemptId: string,
  psuKeys: readonly string[],
  at: Date,
  since: Date,
): Promise<number> {
  const keys = [...new Set(psuKeys)];
  if (keys.length === 0) return 0;
  // Attempts older than the window count for nothing: dropping them keeps the table at one window's worth.
  await db.deleteFrom('psu_code_attempts').where('at', '<', since.toISOString()).execute();
  await db
    .insertInto('psu_code_attempts')
    .values(keys.map((psuKey) => ({ psu_key: psuKey, attempt_id: attemptId, at: at.toISOString() })))
    .execute();
  const counts = await db
    .selectFrom('psu_code_attempts')
    .select(['psu_key', db.fn.countAll().as('attempts')])
    .where('psu_key', 'in', keys)
    .where('at', '>=', since.toISOString())
    .groupBy('psu_key')
    .execute();
  return Math.max(0, ...counts.map((row) => Number(row.attempts)));
}

/** An attempt that was not a wrong code (the code was right, or it was refused unchecked) counts for nothing. */
export async function releaseCodeAttempt(db: Kysely<Database>, attemptId: string): Promise<void> {
  await db.deleteFrom('psu_code_attempts').where('attempt_id', '=', attemptId).execute();
}

/** The fingerprint on record for the named key: this one if none was recorded yet (the first instance to start). */
export async function claimKeyFingerprint(
  db: Kysely<Database>,
  name: string,
  fingerprint: string,
  at: Date,
): Promise<string> {
  await db
    .insertInto('installation_keys')
    .values({ name, fingerprint, created_at: at.toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (
    await db.selectFrom('installation_keys').select('fingerprint').where('name', '=', name).executeTakeFirstOrThrow()
  ).fingerprint;
}
