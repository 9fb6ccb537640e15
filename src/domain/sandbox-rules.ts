import { composeIBAN, extractIBAN, isValidBBAN, isValidIBAN } from 'ibantools';
import type { Problem } from './api-error.js';
import type { CustomerType } from './bank.js';
import { nationalIdProblem } from './psu.js';

/**
 * Rules of the sandbox's mock-data bodies that a JSON Schema cannot state: customer numbers,
 * account numbers, balance types, masked card numbers. The amounts are in sandbox-amount.ts.
 */

/**
 * ISO 20022 ExternalCashAccountType1Code (the external code list, 2023): what `cashAccountType` of
 * a sandbox account may be. The platform's bodies use CACC, SVGS and TAXE; accept-fix
 * cash-account-type-iso makes the platform's answers use this list, which the sandbox takes always.
 */
export const CASH_ACCOUNT_TYPES = [
  'CACC', 'CARD', 'CASH', 'CHAR', 'CISH', 'COMM', 'CPAC', 'LLSV', 'LOAN', 'MGLD', 'MOMA', 'NFCA', 'NREX',
  'ODFT', 'ONDP', 'OTHR', 'SACC', 'SLRY', 'SVGS', 'TAXE', 'TRAN', 'TRAS', 'VACC',
] as const;

/**
 * Berlin Group balance types, and `authorised`, which the platform's card accounts carry. The
 * platform's bodies write them in capitals with underscores (`EXPECTED`); any case is read.
 */
export const BALANCE_TYPES = [
  'closingBooked', 'expected', 'openingBooked', 'interimAvailable', 'interimBooked', 'forwardAvailable', 'nonInvoiced', 'authorised',
] as const;
export type BalanceType = (typeof BALANCE_TYPES)[number];

const BALANCE_TYPE_BY_KEY = new Map<string, BalanceType>(BALANCE_TYPES.map((type) => [type.toLowerCase(), type]));

/** `EXPECTED`, `expected`, `CLOSING_BOOKED` and `closingBooked` are the same type; undefined for another word. */
export function balanceTypeOf(text: string): BalanceType | undefined {
  return BALANCE_TYPE_BY_KEY.get(text.replace(/[_\s-]/g, '').toLowerCase());
}

/**
 * Balance types that say what the account holds now. The first balance of one of these types in the
 * request is the account's balance (the ledger's, which payments change); without any, the first
 * balance given; without balances, zero.
 */
export const CURRENT_BALANCE_TYPES: readonly BalanceType[] = ['interimAvailable', 'expected', 'closingBooked'];

/** The balance a request's balances give the account, as the index of the one that wins. */
export function currentBalanceIndex(types: readonly (BalanceType | undefined)[]): number | undefined {
  const index = types.findIndex((type) => type !== undefined && CURRENT_BALANCE_TYPES.includes(type));
  if (index >= 0) return index;
  return types.length > 0 ? 0 : undefined;
}

/** Norwegian organisation number: 9 digits, the last a MOD11 check digit with weights 3, 2, 7, 6, 5, 4, 3, 2. */
export function isOrganisationNumber(text: string): boolean {
  if (!/^\d{9}$/.test(text)) return false;
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((total, weight, i) => total + weight * Number(text[i]), 0);
  const check = 11 - (sum % 11);
  if (check === 10) return false;
  return (check === 11 ? 0 : check) === Number(text[8]);
}

/**
 * A private customer's number is a Norwegian national identity number (birth, D- or synthetic
 * number, as X-PSU-IDENTITY); a corporate customer's an organisation number, or an 11-digit national
 * identity number as the platform's default corporate customers have (a sole proprietorship's owner).
 */
export function customerNumberProblem(customerNumber: string, type: CustomerType, path: string): Problem | undefined {
  if (type === 'PRIVATE') {
    const why = nationalIdProblem(customerNumber);
    return why === undefined ? undefined : { code: 'FORMAT_ERROR', path, text: `${path} '${customerNumber}' is not a Norwegian national identity number, D-number or synthetic number (${why}), as a private customer's number must be` };
  }
  if (/^\d{9}$/.test(customerNumber)) {
    return isOrganisationNumber(customerNumber) ? undefined : { code: 'FORMAT_ERROR', path, text: `${path} '${customerNumber}' is not a Norwegian organisation number: its MOD11 check digit is wrong` };
  }
  if (/^\d{11}$/.test(customerNumber) && nationalIdProblem(customerNumber) === undefined) return undefined;
  return { code: 'FORMAT_ERROR', path, text: `${path} '${customerNumber}' is not a corporate customer number: a Norwegian organisation number (9 digits, MOD11) or an 11-digit national identity number` };
}

/**
 * A masked card number as card statements show it: 16 to 19 characters, the first 4 to 6 digits and
 * the last 4 digits shown, the others masked with `*` or `x` (525412******3241, 1234xxxxxxxx4321).
 */
export const MASKED_PAN_PATTERN = '^(?=.{16,19}$)\\d{4,6}[*xX]+\\d{4}$';
export const MASKED_PAN_RULE = 'a masked card number of 16 to 19 characters: the first 4 to 6 and the last 4 digits, the others masked with * or x, such as 525412******3241';

/** A sandbox account's own numbers: a Norwegian BBAN (11 digits, MOD11), and its IBAN when given. */
export function ownAccountProblems(bban: unknown, iban: unknown): Problem[] {
  const problems: Problem[] = [];
  if (typeof bban === 'string') {
    if (!/^\d{11}$/.test(bban)) problems.push({ code: 'FORMAT_ERROR', path: '$.bban', text: `$.bban '${bban}' is not a Norwegian account number: 11 digits, without spaces or dots` });
    else if (!isValidBBAN(bban, 'NO')) problems.push({ code: 'FORMAT_ERROR', path: '$.bban', text: `$.bban '${bban}' is not a Norwegian account number: its MOD11 check digit is wrong` });
  }
  if (typeof iban === 'string') {
    const upper = iban.toUpperCase();
    if (!isValidIBAN(upper)) problems.push({ code: 'FORMAT_ERROR', path: '$.iban', text: `$.iban '${iban}' is not a valid IBAN (country code, check digits and length are checked; write it without spaces)` });
    else if (typeof bban === 'string' && problems.length === 0 && upper !== composeIBAN({ countryCode: 'NO', bban })) {
      problems.push({ code: 'FORMAT_ERROR', path: '$.iban', text: `$.iban ${iban} is not the IBAN of $.bban ${bban}, which is ${composeIBAN({ countryCode: 'NO', bban })}` });
    }
  }
  return problems;
}

/** A counterpart of a sandbox transaction, with both its numbers (the answer has both). */
export interface CounterpartAccount {
  iban: string;
  bban: string;
}

/**
 * The creditor or debtor account of a sandbox transaction: an IBAN, a BBAN, or both. The BBAN of an
 * IBAN is its part after the check digits (ISO 13616); a BBAN alone must be Norwegian, whose IBAN is
 * then composed. Given together they must name the same account.
 */
export function counterpartAccount(account: Record<string, unknown>, path: string): { account?: CounterpartAccount; problems: Problem[] } {
  const { iban, bban } = account;
  const problems: Problem[] = [];
  if (iban === undefined && bban === undefined) {
    return { problems: [{ code: 'FORMAT_ERROR', path, text: `${path} needs an iban or a bban to identify the account` }] };
  }
  if (typeof iban === 'string') {
    const upper = iban.toUpperCase();
    if (!isValidIBAN(upper)) {
      problems.push({ code: 'FORMAT_ERROR', path: `${path}.iban`, text: `${path}.iban '${iban}' is not a valid IBAN (country code, check digits and length are checked; write it without spaces)` });
      return { problems };
    }
    const ownBban = extractIBAN(upper).bban!;
    if (typeof bban === 'string' && bban !== ownBban) {
      problems.push({ code: 'FORMAT_ERROR', path: `${path}.bban`, text: `${path}.bban ${bban} and ${path}.iban ${upper} name different accounts (the BBAN of that IBAN is ${ownBban})` });
      return { problems };
    }
    return { account: { iban: upper, bban: ownBban }, problems };
  }
  if (typeof bban === 'string') {
    if (!/^\d{11}$/.test(bban) || !isValidBBAN(bban, 'NO')) {
      problems.push({ code: 'FORMAT_ERROR', path: `${path}.bban`, text: `${path}.bban '${bban}' is not a Norwegian account number (11 digits, MOD11); give the iban of an account abroad` });
      return { problems };
    }
    return { account: { iban: composeIBAN({ countryCode: 'NO', bban })!, bban }, problems };
  }
  return { problems };
}
