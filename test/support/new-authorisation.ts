import { randomUUID } from 'node:crypto';
import type { NewAuthorisation } from '../../src/store/sca-records.js';

/** An authorisation as a start writes it before the PSU comes: a new id and token, valid ten minutes; `changes` override. */
export function newAuthorisation(
  kind: NewAuthorisation['kind'],
  objectId: string,
  tppId: string,
  changes: Partial<NewAuthorisation> = {},
): NewAuthorisation {
  return {
    id: randomUUID(),
    tokenHash: randomUUID(),
    kind,
    objectId,
    tppId,
    tppName: 'Test TPP AS',
    psuId: undefined,
    psuNationalIdHash: undefined,
    psuCorporateId: undefined,
    psuContext: undefined,
    authMethod: undefined,
    redirectPreferred: true,
    tppRedirectUri: undefined,
    tppSessionId: undefined,
    expiresAt: new Date(Date.now() + 600_000),
    createdAt: new Date(),
    ...changes,
  };
}
