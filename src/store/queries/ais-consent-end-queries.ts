import type { Kysely } from 'kysely';
import type { ConsentEnding, EndedConsent } from '../../domain/ais-consent.js';
import type { Database } from '../database.js';

/**
 * Consents ended before their time (docs/ais.md, "Ending a consent"): withdrawn by the PSU on the
 * consent page, or ended by the TPP. A consent waiting for the PSU (received) in the session ends
 * with them, so that a link opened later cannot give it.
 */

const ENDINGS: readonly ConsentEnding[] = ['revokedByPsu', 'terminatedByTpp'];

/**
 * The PSU withdraws on the page of consent `consentId` (a renewal in a session): that consent and
 * the session's consent in force that this customer gave become revokedByPsu, in one transaction.
 * False when the page's consent was decided meanwhile (nothing is changed then).
 */
export async function withdrawConsent(
  db: Kysely<Database>,
  consentId: string,
  customerId: string,
  at: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const now = at.toISOString();
    const page = await trx
      .updateTable('ais_consents')
      .set({ status: 'revokedByPsu', customer_id: customerId, updated_at: now })
      .where('id', '=', consentId)
      .where('status', '=', 'received')
      .returning(['tpp_id', 'tpp_session_id'])
      .executeTakeFirst();
    if (page === undefined) return false;
    await trx
      .updateTable('ais_consents')
      .set({ status: 'revokedByPsu', updated_at: now })
      .where('tpp_id', '=', page.tpp_id)
      .where('tpp_session_id', '=', page.tpp_session_id)
      .where('customer_id', '=', customerId)
      .where('status', '=', 'valid')
      .execute();
    return true;
  });
}

/**
 * The TPP ends the consents of its session: every one in force or waiting for the PSU becomes
 * terminatedByTpp. 'already' when none was, but one of the session had been ended before (a DELETE
 * sent again); 'unknown' when the TPP has no consent in that session that was ever in force or ended.
 */
export async function terminateSessionConsents(
  db: Kysely<Database>,
  tppId: string,
  tppSessionId: string,
  at: Date,
): Promise<'terminated' | 'already' | 'unknown'> {
  const ended = await db
    .updateTable('ais_consents')
    .set({ status: 'terminatedByTpp', updated_at: at.toISOString() })
    .where('tpp_id', '=', tppId)
    .where('tpp_session_id', '=', tppSessionId)
    .where('status', 'in', ['valid', 'received'])
    .executeTakeFirst();
  if (Number(ended.numUpdatedRows) > 0) return 'terminated';
  const earlier = await db
    .selectFrom('ais_consents')
    .select('id')
    .where('tpp_id', '=', tppId)
    .where('tpp_session_id', '=', tppSessionId)
    // An expired consent has ended already: a DELETE of its session is answered as for one ended before.
    .where('status', 'in', [...ENDINGS, 'expired'])
    .executeTakeFirst();
  return earlier === undefined ? 'unknown' : 'already';
}

/** The latest consent of the session that this customer gave (or withdrew) and that was ended before its time. */
export async function findEndedSessionConsent(
  db: Kysely<Database>,
  tppId: string,
  tppSessionId: string,
  customerId: string,
): Promise<EndedConsent | undefined> {
  const row = await db
    .selectFrom('ais_consents')
    .select(['status', 'updated_at'])
    .where('tpp_id', '=', tppId)
    .where('tpp_session_id', '=', tppSessionId)
    .where('customer_id', '=', customerId)
    .where('status', 'in', ENDINGS)
    .orderBy('updated_at', 'desc')
    .executeTakeFirst();
  return row === undefined ? undefined : { ending: row.status as ConsentEnding, at: new Date(row.updated_at) };
}
