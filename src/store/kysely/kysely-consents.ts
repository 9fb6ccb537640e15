import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { TransactionLock } from '../queries/transaction-lock.js';
import * as aisConsents from '../queries/ais-consent-queries.js';
import * as ending from '../queries/ais-consent-end-queries.js';
import type { AisConsent, ConsentsAmong, ExpiringConsent, NewAisConsent } from '../ais-records.js';
import * as expiry from '../queries/ais-consent-expiry-queries.js';
import type { ConsentResource, EndedConsent } from '../../domain/ais-consent.js';
import type { NewAuthorisation } from '../sca-records.js';
import type { StoredTppRequest, TppRequestRecord } from '../store.js';
import { countUnattendedReads, releaseUnattendedReads } from '../queries/unattended-read-queries.js';
import type { ConsentStore } from '../consent-store.js';

/** The consents' part of the Kysely store: consents, their ending, and the unattended reads counted. */
export class KyselyConsents implements ConsentStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly lock: TransactionLock,
  ) {}

  createAisConsent(
    consent: NewAisConsent,
    authorisation: NewAuthorisation,
    request: TppRequestRecord,
  ): Promise<StoredTppRequest | undefined> {
    return aisConsents.createConsent(this.db, this.lock, consent, authorisation, request);
  }

  createChallengeConsent(consent: NewAisConsent, authorisation: NewAuthorisation): Promise<void> {
    return aisConsents.createChallengeConsent(this.db, consent, authorisation);
  }

  findSessionConsent(tppId: string, tppSessionId: string, customerId: string): Promise<AisConsent | undefined> {
    return aisConsents.findSessionConsent(this.db, tppId, tppSessionId, customerId);
  }

  giveAisConsent(
    consentId: string,
    customerId: string,
    resources: readonly ConsentResource[],
    at: Date,
  ): Promise<boolean> {
    return aisConsents.giveConsent(this.db, consentId, customerId, resources, at);
  }

  refuseAisConsent(consentId: string, at: Date): Promise<void> {
    return aisConsents.refuseConsent(this.db, consentId, at);
  }

  withdrawAisConsent(consentId: string, customerId: string, at: Date): Promise<boolean> {
    return ending.withdrawConsent(this.db, consentId, customerId, at);
  }

  terminateAisConsents(tppId: string, tppSessionId: string, at: Date): Promise<'terminated' | 'already' | 'unknown'> {
    return ending.terminateSessionConsents(this.db, tppId, tppSessionId, at);
  }

  findEndedSessionConsent(tppId: string, tppSessionId: string, customerId: string): Promise<EndedConsent | undefined> {
    return ending.findEndedSessionConsent(this.db, tppId, tppSessionId, customerId);
  }

  aisConsentResources(consentId: string): Promise<ConsentResource[]> {
    return aisConsents.consentResources(this.db, consentId);
  }

  findExpiringConsents(scaBefore: Date, among: ConsentsAmong, limit: number): Promise<ExpiringConsent[]> {
    return expiry.findExpiringConsents(this.db, scaBefore, among, limit);
  }

  expireConsents(ids: readonly string[], at: Date): Promise<number> {
    return expiry.expireConsents(this.db, ids, at);
  }

  countUnattendedReads(tppId: string, keys: readonly string[], day: string): Promise<string | undefined> {
    return countUnattendedReads(this.db, tppId, keys, day);
  }

  releaseUnattendedReads(tppId: string, keys: readonly string[], day: string): Promise<void> {
    return releaseUnattendedReads(this.db, tppId, keys, day);
  }
}
