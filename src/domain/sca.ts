import type { TppMessage } from './api-error.js';
import type { TransactionStatus } from './transaction-status.js';

/** spec, Authentication 10: an SCA must be renewed every 180 days. */
export const PSU_SESSION_VALIDITY_DAYS = 180;
/** A link to the SCA page works for this long after it is issued (Berlin Group redirect links live minutes). */
export const SCA_LINK_TTL_MINUTES = 15;
/**
 * A payment not authorised this long after its creation expires to RJCT (Berlin Group: an
 * unconfirmed payment is rejected). An hour leaves time to gather payments in a signing basket.
 */
export const SIGNING_WINDOW_MINUTES = 60;
/** Wrong one-time codes before the authorisation fails. */
export const MAX_CODE_ATTEMPTS = 3;

/**
 * What an SCA authorises: a payment, a basket of them, a PSU session, an account-information
 * consent, or the cancellation of an authorised payment (the platform: "an authorisation is always
 * mandated if the payment is previously authorised").
 */
export type AuthorisationKind = 'payment' | 'basket' | 'session' | 'consent' | 'cancellation';
/**
 * Where an authorisation stands. 'expired' is a failure written down when a visit found its link or
 * page past its time (the PSU abandoned it): read as Berlin Group's failed, and told as SCA_EXPIRED.
 */
export type AuthorisationStatus = 'started' | 'psuAuthenticated' | 'finalised' | 'failed' | 'expired';

/** Berlin Group's scaStatus values; a redirect SCA reaches started, psuAuthenticated, finalised and failed. */
export type ScaStatus =
  | 'received'
  | 'psuIdentified'
  | 'psuAuthenticated'
  | 'scaMethodSelected'
  | 'started'
  | 'unconfirmed'
  | 'finalised'
  | 'failed'
  | 'exempted';

/**
 * An authorisation's scaStatus as Berlin Group names it (docs/decisions/0067): started from its start until
 * the PSU has logged in, psuAuthenticated on the
 * confirmation page, then finalised when the PSU approved, failed when they declined or could not
 * authenticate (wrong PSU, codes used up, locked out). A link or page left until it expired is failed,
 * whether or not a later visit wrote that down yet, as a payment's signing window is.
 */
export function scaStatusOf(
  authorisation: { stage: 'link' | 'login' | 'decision' | 'done'; status: AuthorisationStatus; expiresAt: Date },
  now: Date,
): ScaStatus {
  if (authorisation.stage === 'done') return authorisation.status === 'finalised' ? 'finalised' : 'failed';
  if (authorisation.expiresAt.getTime() < now.getTime()) return 'failed';
  return authorisation.stage === 'decision' ? 'psuAuthenticated' : 'started';
}

/**
 * Whether an authorisation failed because its link or page was left until it expired (the PSU
 * abandoned the SCA), rather than by anything the PSU did: the TPP is told SCA_EXPIRED.
 */
export function isScaExpired(
  authorisation: { stage: 'link' | 'login' | 'decision' | 'done'; status: AuthorisationStatus; expiresAt: Date },
  now: Date,
): boolean {
  if (authorisation.stage === 'done') return authorisation.status === 'expired';
  return authorisation.expiresAt.getTime() < now.getTime();
}

/** Authentication methods a TPP may prefer (X-PSU-AuthMethod-Preferred); the page names the one used. */
export const AUTH_METHODS = ['BANKID', 'BANKID_MOBILE', 'OTP'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** Whether an SCA made at lastScaAt still holds: a PSU's session with a TPP, or an account-information consent's. */
export function isSessionValid(lastScaAt: Date, now: Date): boolean {
  return now.getTime() - lastScaAt.getTime() <= PSU_SESSION_VALIDITY_DAYS * 86_400_000;
}

/** A payment still RCVD after its signing window is RJCT, whether or not that was written down yet. */
export function effectiveStatus(status: TransactionStatus, createdAt: string, now: Date): TransactionStatus {
  return status === 'RCVD' && isSigningWindowOver(createdAt, now) ? 'RJCT' : status;
}

export function isSigningWindowOver(createdAt: string, now: Date): boolean {
  return now.getTime() - Date.parse(createdAt) > SIGNING_WINDOW_MINUTES * 60_000;
}

export const EXPIRED_REASON = `not authorised by the PSU within ${SIGNING_WINDOW_MINUTES} minutes`;

/**
 * spec, Authentication 9: when SCA is needed the answer is 401 with `_links.scaRedirect`. Thrown by
 * a service; the HTTP layer answers it with that challenge body (not an error body).
 */
export class PsuAuthenticationRequired extends Error {
  /**
   * tppMessages: why, for the TPP's developer (a consent unknown, expired, or too old for the history
   * asked for); the challenge body carries them beside `_links`.
   */
  constructor(
    readonly scaRedirect: string,
    reason: string,
    readonly tppMessages: readonly TppMessage[] = [],
  ) {
    super(reason);
    this.name = 'PsuAuthenticationRequired';
  }
}
