import { addDays, osloDate } from './clock.js';
import { AIS_HISTORY_WITHOUT_SCA_DAYS } from './limits.js';

/**
 * An account-information consent as the Tietoevry platform offers it: the TPP asks with POST
 * /v1/bank-offered-consents, the PSU chooses accounts on the bank's page, and the browser returns with
 * psu-id and tpp-session-id; no Consent-ID exists. The TPP's reads name the consent by those two.
 */

/**
 * Where a consent stands: received (its link issued), valid (the PSU chose accounts), rejected
 * (declined or failed), replaced (by a later consent of the session), expired (its SCA became 180
 * days old while it was valid, written down by the consent expiry so the TPP is told), or ended
 * before its time (ConsentEnding).
 */
export type ConsentStatus = 'received' | 'valid' | 'rejected' | 'replaced' | 'expired' | ConsentEnding;

/**
 * How a consent was ended before its 180 days, in Berlin Group's consent statuses: the PSU withdrew
 * it on the bank's page (revokedByPsu), or the TPP ended it with DELETE /v1/consents/{consentId}
 * (terminatedByTpp). Reads in its session are then refused until the PSU gives a new one.
 */
export type ConsentEnding = 'revokedByPsu' | 'terminatedByTpp';

/** A consent ended before its time: how, and when. */
export interface EndedConsent {
  ending: ConsentEnding;
  at: Date;
}

export type ConsentResourceKind = 'account' | 'card';

/** An account or card account a consent shares, by the bank's id. */
export interface ConsentResource {
  kind: ConsentResourceKind;
  id: string;
}

/**
 * The first booking date readable without a new SCA: today and the 89 days before it (90 days). An
 * SCA at most 90 days old reads the whole history (spec, Authentication 10: "the history of
 * transactions can be read without SCA for 90 days").
 */
export function historyStart(scaAt: Date, now: Date): string | undefined {
  const fresh = now.getTime() - scaAt.getTime() <= AIS_HISTORY_WITHOUT_SCA_DAYS * 86_400_000;
  return fresh ? undefined : addDays(osloDate(now), 1 - AIS_HISTORY_WITHOUT_SCA_DAYS);
}

/** Whether a read from dateFrom reaches further back than the consent's SCA allows (then a new SCA is needed). */
export function needsScaForHistory(dateFrom: string | undefined, scaAt: Date, now: Date): boolean {
  const start = historyStart(scaAt, now);
  return start !== undefined && dateFrom !== undefined && dateFrom < start;
}
