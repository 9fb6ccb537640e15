import { randomUUID } from 'node:crypto';
import type { NewAisConsent } from '../../src/store/ais-records.js';

/** A private consent of a TPP in its own bank, as a create writes it before the PSU comes: a new id and session; `changes` override. */
export function newAisConsent(tppId: string, changes: Partial<NewAisConsent> = {}): NewAisConsent {
  return {
    id: randomUUID(),
    bank: tppId,
    tppId,
    tppSessionId: randomUUID(),
    psuContext: 'PRIVATE',
    agreementId: undefined,
    createdAt: new Date(),
    ...changes,
  };
}
