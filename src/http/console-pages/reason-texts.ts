import type { Language } from '../../domain/language.js';
import { STATUS_REASON_CODES, type StatusReasonCode, isStatusReasonCode } from '../../domain/status-reasons.js';

/**
 * What each status reason code means, for the console. English is the domain's own words
 * (domain/status-reasons.ts), never written again here; Bokmål translates them, and the Record
 * type makes a code added there fail to compile until it has its Norwegian words.
 */
const NB_MEANINGS: Record<StatusReasonCode, string> = {
  AC01: 'kontoen finnes ikke',
  AC04: 'kontoen er avsluttet',
  AC06: 'kontoen er sperret',
  AM02: 'beløpet er over PSU-ens grense',
  AM04: 'ikke dekning: saldoen og kredittrammen på fra-kontoen dekker ikke beløpet og gebyrene',
  CURR: 'valutaen kan ikke betales fra denne kontoen',
  MS03: 'banken avviste betalingen',
};

export function reasonMeaning(code: StatusReasonCode, language: Language): string {
  return language === 'nb' ? NB_MEANINGS[code] : STATUS_REASON_CODES[code];
}

/**
 * A statusReason as the console shows it: its code with the code's meaning, then the bank's own
 * words when they say more than the meaning (a scenario's text, the account that was blocked).
 * A reason without a code (a signing window that ran out) is shown as it is.
 */
export function describeReason(reason: string, language: Language): string {
  const code = reason.slice(0, 4);
  if (!isStatusReasonCode(code) || (reason.length > 4 && reason[4] !== ' ')) return reason;
  const words = reason.slice(5).trim();
  const meaning = `${code}: ${reasonMeaning(code, language)}`;
  return words === '' || words === STATUS_REASON_CODES[code] ? meaning : `${meaning} (“${words}”)`;
}
