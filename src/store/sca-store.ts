import type { Authorisation, AuthorisationStep, NewAuthorisation, PsuSession } from './sca-records.js';
import type { AuthorisationKind } from '../domain/sca.js';
import type { TppRequestRecord, StoredTppRequest } from './tpp-request-records.js';

/** PSU sessions, authorisations and their steps, the one-time code attempts of each PSU, and the fingerprints of keys kept outside the database. */
export interface ScaStore {
  findPsuSession(tppId: string, psuId: string): Promise<PsuSession | undefined>;
  /** Renews the PSU's session with the TPP (creating it with newPsuId the first time) and returns it. */
  recordSca(
    tppId: string,
    customerId: string,
    at: Date,
    tppSessionId: string | undefined,
    newPsuId: string,
  ): Promise<PsuSession>;
  createAuthorisation(authorisation: NewAuthorisation): Promise<void>;
  /**
   * Stores an authorisation a TPP's request started (POST …/authorisations) with the request that
   * started it, in one transaction, unless the TPP sent this X-Request-ID before: then the stored
   * request is returned and nothing is written.
   */
  startAuthorisation(authorisation: NewAuthorisation, request: TppRequestRecord): Promise<StoredTppRequest | undefined>;
  findAuthorisation(tokenHash: string): Promise<Authorisation | undefined>;
  /**
   * The TPP's authorisations of one kind for one payment or basket (GET …/authorisations), oldest
   * first, at most `limit`.
   */
  listAuthorisations(tppId: string, kind: AuthorisationKind, objectId: string, limit: number): Promise<Authorisation[]>;
  /** Moves to the next step only while fromTokenHash is still current: each link and form works once. */
  advanceAuthorisation(id: string, fromTokenHash: string, step: AuthorisationStep, at: Date): Promise<boolean>;
  /**
   * Records a one-time code attempt under each of the PSU's keys, drops attempts made before `since`,
   * and returns the most attempts any of the keys has at or after `since`, this one included. The
   * attempt is written before it is counted, so attempts made at the same moment from several
   * server instances each count those before them.
   */
  reserveCodeAttempt(attemptId: string, psuKeys: readonly string[], at: Date, since: Date): Promise<number>;
  /** Removes an attempt that turned out not to be a wrong code. */
  releaseCodeAttempt(attemptId: string): Promise<void>;
  /** Records the fingerprint of a key kept outside the database the first time; returns the one on record. */
  claimKeyFingerprint(name: string, fingerprint: string, at: Date): Promise<string>;
}
