import type { Kysely } from 'kysely';
import type { EndedConsent } from '../domain/ais-consent.js';
import type { Database } from './database.js';
import { KyselyPeriodicStore } from './kysely-periodic-store.js';
import * as ending from './queries/ais-consent-end-queries.js';

/**
 * Ending account-information consents before their time, the Kysely store's part (kysely-store.ts
 * extends it): the PSU's withdrawal and the TPP's termination run unchanged on either dialect.
 */
export abstract class KyselyConsentStore extends KyselyPeriodicStore {
  protected constructor(db: Kysely<Database>) {
    super(db);
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
}
