import { ValidationErrorsIBAN, composeIBAN, extractIBAN, isValidBBAN, validateIBAN } from 'ibantools';
import { ibanFailure } from './account-reference.js';
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
  'CACC',
  'CARD',
  'CASH',
  'CHAR',
  'CISH',
  'COMM',
  'CPAC',
  'LLSV',
  'LOAN',
  'MGLD',
  'MOMA',
  'NFCA',
  'NREX',
  'ODFT',
  'ONDP',
  'OTHR',
  'SACC',
  'SLRY',
  'SVGS',
  'TAXE',
  'TRAN',
  'TRAS',
  'VACC',
] as const;

/**
 * Berlin Group balance types, and `authorised`, which the platform's card accounts carry. The
 * platform's bodies write them in capitals with underscores (`EXPECTED`); any case is read.
 */
export const BALANCE_TYPES = [
  'closingBooked',
  'expected',
  'openingBooked',
  'interimAvailable',
  'interimBooked',
  'forwardAvailable',
  'nonInvoiced',
  'authorised',
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

/** What a rule found in test data: problems refuse the request; warnings go with its 2xx answer. */
export interface Findings {
  problems: Problem[];
  warnings: Problem[];
}

/**
 * A private customer's number is a Norwegian national identity number (birth, D- or synthetic
 * number, as X-PSU-IDENTITY, which the PSU's payments carry): anything else is refused. A corporate
 * customer's number is an organisation number, or an 11-digit national identity number as the
 * platform's default corporate customers have (a sole proprietorship's owner); other digits (the
 * platform's scripts use 55555555 and 88888888) are taken, with a warning: the sandbox knows the
 * company by it, but no company has such a number.
 */
export function customerNumberFindings(customerNumber: string, type: CustomerType, path: string): Findings {
  if (type === 'PRIVATE') {
    const why = nationalIdProblem(customerNumber);
    return {
      problems:
        why === undefined
          ? []
          : [
              {
                code: 'FORMAT_ERROR',
                path,
                text: `${path} '${customerNumber}' is not a Norwegian national identity number, D-number or synthetic number (${why}), as a private customer's number must be: it is the PSU's identity at SCA and in X-PSU-IDENTITY`,
              },
            ],
      warnings: [],
    };
  }
  if (isOrganisationNumber(customerNumber)) return { problems: [], warnings: [] };
  if (/^\d{11}$/.test(customerNumber) && nationalIdProblem(customerNumber) === undefined)
    return { problems: [], warnings: [] };
  if (!/^\d+$/.test(customerNumber)) {
    return {
      problems: [
        {
          code: 'FORMAT_ERROR',
          path,
          text: `${path} '${customerNumber}' is not a corporate customer number: digits only (an organisation number, 9 digits), as typed on the SCA page`,
        },
      ],
      warnings: [],
    };
  }
  const why = /^\d{9}$/.test(customerNumber)
    ? 'its MOD11 check digit is wrong'
    : `it has ${customerNumber.length} digits, not 9`;
  return {
    problems: [],
    warnings: [
      {
        code: 'FORMAT_ERROR',
        path,
        text: `${path} '${customerNumber}' is not a Norwegian organisation number (${why}). The sandbox creates the customer and its agreements work, but no real company has this number`,
      },
    ],
  };
}

/** The MOD11 check digit of a Norwegian account number's first 10 digits (weights 5, 4, 3, 2, 7, 6, 5, 4, 3, 2); undefined where no digit fits (remainder 1). */
export function accountCheckDigit(first10: string): number | undefined {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((total, weight, i) => total + weight * Number(first10[i]), 0);
  const check = 11 - (sum % 11);
  if (check === 10) return undefined;
  return check === 11 ? 0 : check;
}

/** Why an 11-digit Norwegian account number fails MOD11, and what its check digit would be. */
function mod11Text(bban: string): string {
  const digit = accountCheckDigit(bban.slice(0, 10));
  return digit === undefined
    ? 'its MOD11 check digit is wrong (no check digit makes the first 10 digits valid)'
    : `its MOD11 check digit is wrong (it would be ${digit}, not ${bban[10]})`;
}

/** What a BBAN that fails MOD11 means for the account that has it. */
const MOD11_CONSEQUENCE =
  'The sandbox takes it as test data: the account can hold test transactions, but the payment interface checks MOD11 as a real bank does, and refuses payments from or to this number';

/**
 * A masked card number as card statements show it: 16 to 19 characters, the first 4 to 6 digits and
 * the last 4 digits shown, the others masked with `*` or `x` (525412******3241, 1234xxxxxxxx4321).
 */
export const MASKED_PAN_PATTERN = '^(?=.{16,19}$)\\d{4,6}[*xX]+\\d{4}$';
export const MASKED_PAN_RULE =
  'a masked card number of 16 to 19 characters: the first 4 to 6 and the last 4 digits, the others masked with * or x, such as 525412******3241';

/**
 * A sandbox account's own numbers: a Norwegian BBAN of 11 digits, and its IBAN when given. A BBAN
 * that fails MOD11 is taken with a warning (the platform takes it; the payment interface will not),
 * and so is an IBAN whose only fault is that national check. The IBAN to store is returned (composed
 * when left out).
 */
export function ownAccountFindings(bban: unknown, iban: unknown): Findings & { iban?: string } {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  if (typeof bban === 'string') {
    if (!/^\d{11}$/.test(bban))
      problems.push({
        code: 'FORMAT_ERROR',
        path: '$.bban',
        text: `$.bban '${bban}' is not a Norwegian account number: 11 digits, without spaces or dots`,
      });
    else if (!isValidBBAN(bban, 'NO'))
      warnings.push({
        code: 'FORMAT_ERROR',
        path: '$.bban',
        text: `$.bban '${bban}' is not a valid Norwegian account number: ${mod11Text(bban)}. ${MOD11_CONSEQUENCE}`,
      });
  }
  const composed =
    typeof bban === 'string' && problems.length === 0
      ? (composeIBAN({ countryCode: 'NO', bban }) ?? undefined)
      : undefined;
  if (typeof iban !== 'string') return { problems, warnings, ...(composed === undefined ? {} : { iban: composed }) };
  const upper = iban.toUpperCase();
  const failure = ibanFailure(upper);
  const onlyNationalCheck = failure !== undefined && upper.startsWith('NO') && onlyNationalCheckFails(upper);
  if (failure !== undefined && !onlyNationalCheck) {
    problems.push({ code: 'FORMAT_ERROR', path: '$.iban', text: `$.iban '${iban}' is not a valid IBAN: ${failure}` });
  } else if (composed !== undefined && upper !== composed) {
    problems.push({
      code: 'FORMAT_ERROR',
      path: '$.iban',
      text: `$.iban ${iban} is not the IBAN of $.bban ${bban as string}, which is ${composed}`,
    });
  }
  return { problems, warnings, iban: upper };
}

/** An IBAN whose country, length, form and ISO 13616 check digits are right, and only the national check of its account part fails. */
function onlyNationalCheckFails(iban: string): boolean {
  const codes = validateIBAN(iban).errorCodes;
  return codes.length > 0 && codes.every((code) => code === ValidationErrorsIBAN.WrongAccountBankBranchChecksum);
}

/** A counterpart of a sandbox transaction, with both its numbers (the answer has both). */
export interface CounterpartAccount {
  iban: string;
  bban: string;
}

/**
 * The creditor or debtor account of a sandbox transaction: an IBAN, a BBAN, or both. The BBAN of an
 * IBAN is its part after the check digits (ISO 13616); a BBAN alone must be Norwegian, whose IBAN is
 * then composed. Given together they must name the same account. A Norwegian number that fails only
 * MOD11 is taken, with a warning (the account the transaction is posted to may have one).
 */
export function counterpartAccount(
  account: Record<string, unknown>,
  path: string,
): Findings & { account?: CounterpartAccount } {
  const { iban, bban } = account;
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  if (iban === undefined && bban === undefined) {
    return {
      problems: [{ code: 'FORMAT_ERROR', path, text: `${path} needs an iban or a bban to identify the account` }],
      warnings,
    };
  }
  if (typeof iban === 'string') {
    const upper = iban.toUpperCase();
    const failure = ibanFailure(upper);
    if (failure !== undefined) {
      if (!onlyNationalCheckFails(upper)) {
        problems.push({
          code: 'FORMAT_ERROR',
          path: `${path}.iban`,
          text: `${path}.iban '${iban}' is not a valid IBAN: ${failure}`,
        });
        return { problems, warnings };
      }
      warnings.push({
        code: 'FORMAT_ERROR',
        path: `${path}.iban`,
        text: `${path}.iban '${iban}' is not a valid IBAN: ${failure}. ${MOD11_CONSEQUENCE}`,
      });
    }
    const ownBban = extractIBAN(upper).bban ?? upper.slice(4);
    if (typeof bban === 'string' && bban !== ownBban) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: `${path}.bban`,
        text: `${path}.bban ${bban} and ${path}.iban ${upper} name different accounts (the BBAN of that IBAN is ${ownBban})`,
      });
      return { problems, warnings };
    }
    return { account: { iban: upper, bban: ownBban }, problems, warnings };
  }
  if (typeof bban === 'string') {
    if (!/^\d{11}$/.test(bban)) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: `${path}.bban`,
        text: `${path}.bban '${bban}' is not a Norwegian account number (11 digits); give the iban of an account abroad`,
      });
      return { problems, warnings };
    }
    if (!isValidBBAN(bban, 'NO'))
      warnings.push({
        code: 'FORMAT_ERROR',
        path: `${path}.bban`,
        text: `${path}.bban '${bban}' is not a valid Norwegian account number: ${mod11Text(bban)}. ${MOD11_CONSEQUENCE}`,
      });
    return { account: { iban: composeIBAN({ countryCode: 'NO', bban })!, bban }, problems, warnings };
  }
  return { problems, warnings };
}

/**
 * The direction of a sandbox transaction posted to an account (spec, endpoint 5, read with the
 * platform's examples, which credit an account from an account elsewhere): a debit when the account
 * is its debtorAccount; a credit when the account is its creditorAccount and the debtor is outside
 * this sandbox bank. Another account of this bank as the debtor is refused (that account would not
 * show the debit), and so is a transaction that names the account on neither side, or on both. The
 * amount's sign says nothing about the direction: it is kept as posted.
 */
export function transactionDirection(
  posted: CounterpartAccount,
  sides: { debtor: CounterpartAccount; creditor: CounterpartAccount; debtorInThisBank: boolean },
  path: string,
): { direction: 'debit' | 'credit' } | { problem: Problem } {
  const isPosted = (side: CounterpartAccount) => side.iban === posted.iban;
  const named = `account ${posted.iban} (${posted.bban}), which the transaction is posted to`;
  if (isPosted(sides.debtor) && isPosted(sides.creditor)) {
    return {
      problem: {
        code: 'FORMAT_ERROR',
        path: `${path}.creditorAccount`,
        text: `${path} names ${named}, as both debtor and creditor: name it as debtorAccount (a debit) or as creditorAccount (a credit), and the other party on the other side`,
      },
    };
  }
  if (isPosted(sides.debtor)) return { direction: 'debit' };
  if (isPosted(sides.creditor)) {
    if (!sides.debtorInThisBank) return { direction: 'credit' };
    return {
      problem: {
        code: 'FORMAT_ERROR',
        path: `${path}.debtorAccount`,
        text: `${path}.debtorAccount names account ${sides.debtor.iban} (${sides.debtor.bban}) of this sandbox bank as the debtor, another account than ${named}: that account would not show the debit. A credit comes from an account outside this bank; to move money between accounts of this bank, make a payment`,
      },
    };
  }
  return {
    problem: {
      code: 'FORMAT_ERROR',
      path,
      text: `${path} names ${named}, on neither side: a transaction posted to an account has it as debtorAccount (a debit of it) or as creditorAccount (a credit to it)`,
    },
  };
}
