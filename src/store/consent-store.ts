import type { NewAuthorisation } from './sca-records.js';
import type { ConsentResource, EndedConsent } from '../domain/ais-consent.js';
import type { AisConsent, ConsentsAmong, ExpiringConsent, NewAisConsent } from './ais-records.js';
import type { TppRequestRecord, StoredTppRequest } from './tpp-request-records.js';

/** Account-information consents, and the count of reads made without the PSU present (docs/ais.md). */
export interface ConsentStore {
  /**
   * Stores a consent (received) with the authorisation of its SCA link and the request that created
   * it, in one transaction, unless the TPP sent this X-Request-ID before: then the stored request is
   * returned and nothing is written.
   */
  createAisConsent(
    consent: NewAisConsent,
    authorisation: NewAuthorisation,
    request: TppRequestRecord,
  ): Promise<StoredTppRequest | undefined>;
  /** A consent started by a read's 401 challenge, with its authorisation. */
  createChallengeConsent(consent: NewAisConsent, authorisation: NewAuthorisation): Promise<void>;
  /** The consent a customer gave in a TPP's session (TPP-Session-ID) that was in force last: valid, or expired since. */
  findSessionConsent(tppId: string, tppSessionId: string, customerId: string): Promise<AisConsent | undefined>;
  /** The PSU's choice makes a received consent valid and replaces the session's earlier one; false when decided already. */
  giveAisConsent(
    consentId: string,
    customerId: string,
    resources: readonly ConsentResource[],
    at: Date,
  ): Promise<boolean>;
  refuseAisConsent(consentId: string, at: Date): Promise<void>;
  /**
   * The PSU withdraws on the page of a consent still received: it and the session's consent in force
   * that the customer gave become revokedByPsu. False when the page's consent was decided meanwhile.
   */
  withdrawAisConsent(consentId: string, customerId: string, at: Date): Promise<boolean>;
  /** The TPP ends its session's consents in force or waiting for the PSU (terminatedByTpp). */
  terminateAisConsents(tppId: string, tppSessionId: string, at: Date): Promise<'terminated' | 'already' | 'unknown'>;
  /** The latest consent of the session the customer gave that was ended before its time. */
  findEndedSessionConsent(tppId: string, tppSessionId: string, customerId: string): Promise<EndedConsent | undefined>;
  aisConsentResources(consentId: string): Promise<ConsentResource[]>;
  /** Valid consents whose SCA is older than `scaBefore`, among some banks (ConsentsAmong), oldest first, at most `limit`. */
  findExpiringConsents(scaBefore: Date, among: ConsentsAmong, limit: number): Promise<ExpiringConsent[]>;
  /** Those of `ids` still valid become expired, at `at` by their bank's clock; how many did. */
  expireConsents(ids: readonly string[], at: Date): Promise<number>;
  /**
   * Counts a read without the PSU present under each of its keys, all or none: when one key would go
   * beyond the day's allowance (RTS 36(5)), nothing is counted and that key is returned.
   */
  /** Takes back one read counted under each key (its answer could not be given: the bank's core did not answer). */
  releaseUnattendedReads(tppId: string, keys: readonly string[], day: string): Promise<void>;
  countUnattendedReads(tppId: string, keys: readonly string[], day: string): Promise<string | undefined>;
}
