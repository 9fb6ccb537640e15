import { isValidBBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { Problem } from './api-error.js';

/** An account as a payment names it: by BBAN or IBAN (or both), with its currency. */
export interface AccountReference {
  bban?: string;
  iban?: string;
  currency: string;
}

export interface AccountRules {
  /** The account is in Norway: a BBAN must be 11 digits with a MOD11 check digit, an IBAN must be Norwegian. */
  norwegian: boolean;
  /**
   * Either identifier may name the account, and one must (cross-border, the default). False where the
   * schema already requires a particular one (the domestic bulk requires bban).
   */
  bbanOrIban?: boolean;
}

const NORWEGIAN_BBAN = /^\d{11}$/;
const FOREIGN_BBAN = /^[A-Za-z0-9]{1,30}$/;

/**
 * Checks an account reference: IBAN check digits (ISO 13616, and the country's format), a Norwegian
 * BBAN's MOD11, a foreign BBAN's characters, and that an IBAN and a BBAN given together agree.
 * Lengths are the schema's concern; values of a wrong type are skipped (the schema reports them).
 */
export function accountProblems(account: Partial<Record<'bban' | 'iban', unknown>>, path: string, rules: AccountRules): Problem[] {
  const problems: Problem[] = [];
  const { bban, iban } = account;
  if (rules.bbanOrIban !== false && bban === undefined && iban === undefined) {
    problems.push({ code: 'FORMAT_ERROR', path, text: `${path} needs a bban or an iban to identify the account` });
  }
  if (typeof iban === 'string') {
    if (!isValidIBAN(iban)) {
      problems.push({ code: 'FORMAT_ERROR', path: `${path}.iban`, text: `${path}.iban '${iban}' is not a valid IBAN (country code, check digits and length are checked; write it without spaces)` });
    } else if (rules.norwegian && !iban.startsWith('NO')) {
      problems.push({ code: 'FORMAT_ERROR', path: `${path}.iban`, text: `${path}.iban must be a Norwegian account (NO…) in this bank` });
    }
  }
  if (typeof bban === 'string') {
    if (rules.norwegian) {
      if (!NORWEGIAN_BBAN.test(bban)) {
        problems.push({ code: 'FORMAT_ERROR', path: `${path}.bban`, text: `${path}.bban '${bban}' is not a Norwegian account number: 11 digits, without spaces or dots` });
      } else if (!isValidBBAN(bban, 'NO')) {
        problems.push({ code: 'FORMAT_ERROR', path: `${path}.bban`, text: `${path}.bban '${bban}' is not a Norwegian account number: its MOD11 check digit is wrong` });
      }
    } else if (!FOREIGN_BBAN.test(bban)) {
      problems.push({ code: 'FORMAT_ERROR', path: `${path}.bban`, text: `${path}.bban must be letters and digits only` });
    }
    if (typeof iban === 'string' && isValidIBAN(iban) && iban.startsWith('NO') && iban.slice(4) !== bban) {
      problems.push({ code: 'FORMAT_ERROR', path: `${path}.bban`, text: `${path}.bban ${bban} and ${path}.iban ${iban} name different accounts` });
    }
  }
  return problems;
}

/** BIC (ISO 9362): 4 bank letters, 2 country letters, 2 location characters, optional 3 branch characters. */
export function bicProblem(bic: string, path: string): Problem | undefined {
  return isValidBIC(bic) ? undefined : { code: 'FORMAT_ERROR', path, text: `${path} '${bic}' is not a BIC (8 or 11 characters, such as DNBANOKKXXX)` };
}

/** The country of a BIC (its 5th and 6th characters). */
export function bicCountry(bic: string): string {
  return bic.slice(4, 6).toUpperCase();
}

/** The account as one text, for duplicate detection and the ledger: IBAN when given, else BBAN. */
export function accountKey(account: { bban?: string | undefined; iban?: string | undefined }): string {
  return (account.iban ?? account.bban ?? '').toUpperCase();
}
