import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { TransactionLock } from '../queries/transaction-lock.js';
import * as lockout from '../queries/psu-lockout-queries.js';
import * as sca from '../queries/sca-queries.js';
import type { Authorisation, AuthorisationStep, NewAuthorisation, PsuSession } from '../sca-records.js';
import type { StoredTppRequest, TppRequestRecord } from '../store.js';
import type { ScaStore } from '../sca-store.js';

/** The SCA's part of the Kysely store: PSU sessions, authorisations, code attempts, key fingerprints. */
export class KyselySca implements ScaStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly lock: TransactionLock,
  ) {}

  findPsuSession(tppId: string, psuId: string): Promise<PsuSession | undefined> {
    return sca.findPsuSession(this.db, tppId, psuId);
  }

  recordSca(
    tppId: string,
    customerId: string,
    at: Date,
    tppSessionId: string | undefined,
    newPsuId: string,
  ): Promise<PsuSession> {
    return sca.recordSca(this.db, tppId, customerId, at, tppSessionId, newPsuId);
  }

  createAuthorisation(authorisation: NewAuthorisation): Promise<void> {
    return sca.createAuthorisation(this.db, authorisation);
  }

  startAuthorisation(a: NewAuthorisation, request: TppRequestRecord): Promise<StoredTppRequest | undefined> {
    return sca.startAuthorisation(this.db, this.lock, a, request);
  }

  findAuthorisation(tokenHash: string): Promise<Authorisation | undefined> {
    return sca.findAuthorisation(this.db, tokenHash);
  }

  listAuthorisations(tppId: string, kind: Authorisation['kind'], id: string, max: number): Promise<Authorisation[]> {
    return sca.listAuthorisations(this.db, tppId, kind, id, max);
  }

  advanceAuthorisation(id: string, fromTokenHash: string, step: AuthorisationStep, at: Date): Promise<boolean> {
    return sca.advanceAuthorisation(this.db, id, fromTokenHash, step, at);
  }

  reserveCodeAttempt(attemptId: string, psuKeys: readonly string[], at: Date, since: Date): Promise<number> {
    return lockout.reserveCodeAttempt(this.db, attemptId, psuKeys, at, since);
  }

  releaseCodeAttempt(attemptId: string): Promise<void> {
    return lockout.releaseCodeAttempt(this.db, attemptId);
  }

  claimKeyFingerprint(name: string, fingerprint: string, at: Date): Promise<string> {
    return lockout.claimKeyFingerprint(this.db, name, fingerprint, at);
  }
}
