import type { Kysely, Selectable } from 'kysely';
import type { ConsentResource, ConsentResourceKind, ConsentStatus } from '../../domain/ais-consent.js';
import type { PsuContext } from '../../domain/psu.js';
import type { AisConsent, NewAisConsent } from '../ais-records.js';
import type { AisConsentTable, Database } from '../database.js';
import { tppRequestRow } from '../payment-rows.js';
import type { NewAuthorisation } from '../sca-records.js';
import type { StoredTppRequest, TppRequestRecord } from '../store.js';
import { createAuthorisation } from './sca-queries.js';
import { insertSubscription } from './notification-subscription-queries.js';
import { findStoredRequest } from './tpp-request-queries.js';
import type { TransactionLock } from './transaction-lock.js';

/** Account information's consents (docs/ais.md): made, given or refused by the PSU, and the accounts they cover. */

/**
 * Stores a consent (received) with its SCA link's authorisation and the request that created it, in
 * one transaction, unless the TPP sent this X-Request-ID before: then the stored request is returned
 * and nothing is written. The request's lock serialises two creates sent with one X-Request-ID.
 */
export async function createConsent(
  db: Kysely<Database>,
  lock: TransactionLock,
  consent: NewAisConsent,
  authorisation: NewAuthorisation,
  request: TppRequestRecord,
): Promise<StoredTppRequest | undefined> {
  return db.transaction().execute(async (trx) => {
    await lock(trx, `request|${request.tppId}|${request.requestId}`);
    const earlier = await findStoredRequest(trx, request.tppId, request.requestId);
    if (earlier !== undefined) return earlier;
    await insertConsent(trx, consent, authorisation);
    await trx
      .insertInto('tpp_requests')
      .values(tppRequestRow(request, null, consent.createdAt.toISOString()))
      .execute();
    await insertSubscription(trx, request, consent.createdAt.toISOString());
    return undefined;
  });
}

/** A consent made by a read's 401 challenge: no request to keep (a read is not replayed). */
export async function createChallengeConsent(
  db: Kysely<Database>,
  consent: NewAisConsent,
  authorisation: NewAuthorisation,
): Promise<void> {
  await db.transaction().execute((trx) => insertConsent(trx, consent, authorisation));
}

/** A received consent and the authorisation of its SCA link; the caller gives the transaction. */
async function insertConsent(
  trx: Kysely<Database>,
  consent: NewAisConsent,
  authorisation: NewAuthorisation,
): Promise<void> {
  const at = consent.createdAt.toISOString();
  await trx
    .insertInto('ais_consents')
    .values({
      id: consent.id,
      bank: consent.bank,
      tpp_id: consent.tppId,
      tpp_session_id: consent.tppSessionId,
      status: 'received',
      psu_context: consent.psuContext,
      agreement_id: consent.agreementId ?? null,
      customer_id: null,
      sca_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await createAuthorisation(trx, authorisation);
}

/** The consent of a TPP's session that a customer gave and that was in force last: valid, or expired since (the latest SCA first). */
export async function findSessionConsent(
  db: Kysely<Database>,
  tppId: string,
  tppSessionId: string,
  customerId: string,
): Promise<AisConsent | undefined> {
  const row = await db
    .selectFrom('ais_consents')
    .selectAll()
    .where('tpp_id', '=', tppId)
    .where('tpp_session_id', '=', tppSessionId)
    // An expired one is still the session's consent: the read is refused as CONSENT_EXPIRED and the
    // PSU renews it, as before the expiry wrote it down. A renewal is valid and newer, so it comes first.
    .where('status', 'in', ['valid', 'expired'])
    .where('customer_id', '=', customerId)
    .orderBy('sca_at', 'desc')
    .executeTakeFirst();
  return row === undefined ? undefined : toConsent(row);
}

/**
 * The PSU's choice: the consent, while still received, becomes valid with these accounts, and an
 * earlier valid consent of the same session and customer is replaced (a renewed SCA, or a new choice,
 * takes its place). False when the consent was decided already.
 */
export async function giveConsent(
  db: Kysely<Database>,
  consentId: string,
  customerId: string,
  resources: readonly ConsentResource[],
  at: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const now = at.toISOString();
    const updated = await trx
      .updateTable('ais_consents')
      .set({ status: 'valid', customer_id: customerId, sca_at: now, updated_at: now })
      .where('id', '=', consentId)
      .where('status', '=', 'received')
      .returning(['tpp_id', 'tpp_session_id'])
      .executeTakeFirst();
    if (updated === undefined) return false;
    if (resources.length > 0) {
      await trx
        .insertInto('ais_consent_accounts')
        .values(resources.map((r) => ({ consent_id: consentId, kind: r.kind, resource_id: r.id })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await trx
      .updateTable('ais_consents')
      .set({ status: 'replaced', updated_at: now })
      .where('tpp_id', '=', updated.tpp_id)
      .where('tpp_session_id', '=', updated.tpp_session_id)
      .where('customer_id', '=', customerId)
      .where('status', '=', 'valid')
      .where('id', '<>', consentId)
      .execute();
    return true;
  });
}

export async function refuseConsent(db: Kysely<Database>, consentId: string, at: Date): Promise<void> {
  await db
    .updateTable('ais_consents')
    .set({ status: 'rejected', updated_at: at.toISOString() })
    .where('id', '=', consentId)
    .where('status', '=', 'received')
    .execute();
}

export async function consentResources(db: Kysely<Database>, consentId: string): Promise<ConsentResource[]> {
  const rows = await db
    .selectFrom('ais_consent_accounts')
    .select(['kind', 'resource_id'])
    .where('consent_id', '=', consentId)
    .execute();
  return rows.map((r) => ({ kind: r.kind as ConsentResourceKind, id: r.resource_id }));
}

function toConsent(row: Selectable<AisConsentTable>): AisConsent {
  return {
    id: row.id,
    bank: row.bank,
    tppId: row.tpp_id,
    tppSessionId: row.tpp_session_id,
    status: row.status as ConsentStatus,
    psuContext: row.psu_context as PsuContext,
    agreementId: row.agreement_id ?? undefined,
    customerId: row.customer_id ?? undefined,
    scaAt: row.sca_at === null ? undefined : new Date(row.sca_at),
    createdAt: new Date(row.created_at),
  };
}
