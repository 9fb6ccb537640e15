import { createHash } from 'node:crypto';
import { randomBase64url } from '../../domain/random-text.js';
import { type AuthorisationKind, SCA_LINK_TTL_MINUTES } from '../../domain/sca.js';
import { timeOrderedId } from '../../domain/time-ordered-id.js';
import type { NewAuthorisation } from '../../store/sca-records.js';

/** What the TPP's request says about the PSU and where the browser goes afterwards. */
export interface ScaRequestContext {
  tppId: string;
  tppName: string;
  psuId: string | undefined;
  psuNationalIdHash: string | undefined;
  psuCorporateId: string | undefined;
  psuContext: string | undefined;
  /** X-PSU-AuthMethod-Preferred as sent. */
  authMethodPreferred: string | undefined;
  /** TPP-Redirect-Preferred: false asks for biometric authentication on the PSU's phone. */
  redirectPreferred: boolean;
  tppRedirectUri: string | undefined;
  tppSessionId: string | undefined;
}

/** An authorisation of `kind` for the object `objectId`, and the scaRedirect link that opens it. */
export function newAuthorisation(
  kind: AuthorisationKind,
  objectId: string | undefined,
  context: ScaRequestContext,
  now: Date,
  publicUrl: string,
): { link: string; authorisation: NewAuthorisation } {
  const token = newToken();
  const authorisation: NewAuthorisation = {
    id: timeOrderedId(),
    tokenHash: hashToken(token),
    kind,
    objectId,
    tppId: context.tppId,
    tppName: context.tppName,
    psuId: context.psuId,
    psuNationalIdHash: context.psuNationalIdHash,
    psuCorporateId: context.psuCorporateId,
    psuContext: context.psuContext,
    authMethod: context.authMethodPreferred,
    redirectPreferred: context.redirectPreferred,
    tppRedirectUri: context.tppRedirectUri,
    tppSessionId: context.tppSessionId,
    expiresAt: new Date(now.getTime() + SCA_LINK_TTL_MINUTES * 60_000),
    createdAt: now,
  };
  return { link: `${publicUrl}/sca/${token}`, authorisation };
}

/** The token of a link or of a page's form; the store keeps its hash only. */
export function newToken(): string {
  return randomBase64url(24);
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
