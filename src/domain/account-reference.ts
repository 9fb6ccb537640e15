import { ValidationErrorsIBAN, countrySpecs, isValidBBAN, isValidIBAN, validateIBAN } from 'ibantools';
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
export function accountProblems(
  account: Partial<Record<'bban' | 'iban', unknown>>,
  path: string,
  rules: AccountRules,
): Problem[] {
  const problems: Problem[] = [];
  const { bban, iban } = account;
  if (rules.bbanOrIban !== false && bban === undefined && iban === undefined) {
    problems.push({ code: 'FORMAT_ERROR', path, text: `${path} needs a bban or an iban to identify the account` });
  }
  const validIban = typeof iban === 'string' && isValidIBAN(iban) ? iban : undefined;
  if (typeof iban === 'string') {
    if (validIban === undefined) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: `${path}.iban`,
        text: `${path}.iban '${iban}' is not a valid IBAN: ${ibanFailure(iban)}`,
      });
    } else if (rules.norwegian && !iban.startsWith('NO')) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: `${path}.iban`,
        text: `${path}.iban must be a Norwegian account (NO…) in this bank`,
      });
    }
  }
  if (typeof bban === 'string') {
    if (rules.norwegian) {
      if (!NORWEGIAN_BBAN.test(bban)) {
        problems.push({
          code: 'FORMAT_ERROR',
          path: `${path}.bban`,
          text: `${path}.bban '${bban}' is not a Norwegian account number: 11 digits, without spaces or dots`,
        });
      } else if (!isValidBBAN(bban, 'NO')) {
        problems.push({
          code: 'FORMAT_ERROR',
          path: `${path}.bban`,
          text: `${path}.bban '${bban}' is not a Norwegian account number: its MOD11 check digit is wrong`,
        });
      }
    } else if (!FOREIGN_BBAN.test(bban)) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: `${path}.bban`,
        text: `${path}.bban must be letters and digits only`,
      });
    }
    if (validIban?.startsWith('NO') === true && validIban.slice(4) !== bban) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: `${path}.bban`,
        text: `${path}.bban ${bban} and ${path}.iban ${validIban} name different accounts`,
      });
    }
  }
  return problems;
}

/**
 * Why an IBAN is not valid, naming each check that failed (ibantools' validateIBAN): its country,
 * its length, the form of its account part (BBAN), its ISO 13616 check digits, or the national check
 * of its account part (a Norwegian account number's MOD11). Undefined for a valid IBAN.
 */
export function ibanFailure(iban: string): string | undefined {
  if (isValidIBAN(iban)) return undefined;
  if (/\s/.test(iban)) return 'it contains spaces; write it without them';
  const country = iban.slice(0, 2);
  const spec = countrySpecs[country];
  const codes = new Set(validateIBAN(iban).errorCodes);
  if (codes.has(ValidationErrorsIBAN.NoIBANProvided)) return 'it is empty';
  if (codes.has(ValidationErrorsIBAN.NoIBANCountry) || spec?.chars === undefined) {
    return `its country code '${country}' is not that of a country with IBANs (two capital letters, such as NO)`;
  }
  if (codes.has(ValidationErrorsIBAN.WrongBBANLength))
    return `it has ${iban.length} characters, but an IBAN of ${country} has ${spec.chars}`;
  const reasons: string[] = [];
  if (codes.has(ValidationErrorsIBAN.WrongBBANFormat))
    reasons.push(
      `its account part (BBAN) '${iban.slice(4)}' does not have the form of an account number of ${country}`,
    );
  if (codes.has(ValidationErrorsIBAN.ChecksumNotNumber))
    reasons.push(`its check digits '${iban.slice(2, 4)}' are not digits`);
  else if (codes.has(ValidationErrorsIBAN.WrongIBANChecksum))
    reasons.push(`its check digits ${iban.slice(2, 4)} are wrong (ISO 13616 MOD97)`);
  if (codes.has(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)) {
    reasons.push(
      country === 'NO'
        ? `its account part ${iban.slice(4)} fails the national check: its MOD11 check digit is wrong`
        : `its account part ${iban.slice(4)} fails the national check digits of ${country}`,
    );
  }
  return reasons.length > 0 ? reasons.join('; ') : 'its country, length, form or check digits are wrong';
}

/** ISO 9362's form: ibantools' isValidBIC pattern, made once (it makes a RegExp anew on each call). */
const BIC_FORM = /^[a-zA-Z]{6}[a-zA-Z0-9]{2}([a-zA-Z0-9]{3})?$/;

/**
 * BIC (ISO 9362): 4 bank letters, 2 country letters, 2 location characters, optional 3 branch
 * characters; the country one ibantools knows. ibantools' isValidBIC's answer (the test holds it to
 * it), without making its pattern anew on every create (docs/decisions/0359).
 */
export function isBic(text: string): boolean {
  return BIC_FORM.test(text) && countrySpecs[text.toUpperCase().slice(4, 6)] !== undefined;
}

/** What is wrong with a BIC field at `path`, or undefined when it is one. */
export function bicProblem(bic: string, path: string): Problem | undefined {
  return isBic(bic)
    ? undefined
    : { code: 'FORMAT_ERROR', path, text: `${path} '${bic}' is not a BIC (8 or 11 characters, such as DNBANOKKXXX)` };
}

/** The country of a BIC (its 5th and 6th characters). */
export function bicCountry(bic: string): string {
  return bic.slice(4, 6).toUpperCase();
}

/** The account as one text, for duplicate detection and the ledger: IBAN when given, else BBAN. */
export function accountKey(account: { bban?: string | undefined; iban?: string | undefined }): string {
  return (account.iban ?? account.bban ?? '').toUpperCase();
}
