import type { Account } from './bank.js';
import { formatAmount } from './money.js';

/**
 * Why a payment (or a bulk's entry) was rejected when it executed. Every reason starts with its ISO
 * 20022 ExternalStatusReason1Code, then says it in words, so that a TPP's code can branch on the
 * first four characters of the statusReason (the status read's PAYMENT_FAILED tppMessage) and a
 * person can read the rest (docs/scenarios.md).
 */
export const STATUS_REASON_CODES = {
  /** IncorrectAccountNumber: the account does not exist. */
  AC01: 'the account does not exist',
  /** ClosedAccountNumber. */
  AC04: 'the account is closed',
  /** BlockedAccount: nothing is paid from or to it. */
  AC06: 'the account is blocked',
  /** NotAllowedAmount: more than the PSU may pay. */
  AM02: "the amount exceeds the PSU's limit",
  /** InsufficientFunds. */
  AM04: "insufficient funds: the debtor account's balance and credit line do not cover the amount and its fees",
  /** IncorrectCurrency: the bank cannot convert it. */
  CURR: 'the currency cannot be paid from this account',
  /** NotSpecifiedReasonAgentGenerated: the bank rejected it without saying why. */
  MS03: 'the bank rejected the payment',
} as const;

export type StatusReasonCode = keyof typeof STATUS_REASON_CODES;

export const STATUS_REASON_CODE_LIST = Object.keys(STATUS_REASON_CODES) as StatusReasonCode[];

export function isStatusReasonCode(value: unknown): value is StatusReasonCode {
  return typeof value === 'string' && Object.hasOwn(STATUS_REASON_CODES, value);
}

/** A statusReason: the code, then what happened (the code's own words when none is given). */
export function statusReason(code: StatusReasonCode, text?: string): string {
  return `${code} ${text ?? STATUS_REASON_CODES[code]}`;
}

export const INSUFFICIENT_FUNDS = statusReason('AM04');

/** The debtor account cannot pay: blocked or closed (Berlin Group's accountStatus). */
export function debtorRefusal(debtor: Account): string | undefined {
  if (debtor.status === 'blocked') return statusReason('AC06', `the debtor account ${debtor.bban} is blocked`);
  if (debtor.status === 'deleted') return statusReason('AC04', `the debtor account ${debtor.bban} is closed`);
  return undefined;
}

/**
 * The creditor account cannot be paid: an account of this bank that is blocked or closed, or an
 * account number at one of the bank's own registration numbers that is no account of the bank (a
 * real bank rejects it when it books the credit). Other numbers are at other banks: the bank cannot
 * know them, and the payment leaves it.
 */
export function creditorRefusal(
  creditorAccount: string,
  found: Account | undefined,
  registrationNumbers: ReadonlySet<string>,
): string | undefined {
  if (found?.status === 'blocked') return statusReason('AC06', `the creditor account ${found.bban} is blocked`);
  if (found?.status === 'deleted') return statusReason('AC04', `the creditor account ${found.bban} is closed`);
  if (found !== undefined) return undefined;
  const registration = norwegianRegistrationNumber(creditorAccount);
  if (registration !== undefined && registrationNumbers.has(registration))
    return statusReason('AC01', `the creditor account ${creditorAccount} does not exist`);
  return undefined;
}

/** An amount (in NOK øre) over the limit the PSU who signed has (NOK øre); undefined when it is within, or there is none. */
export function limitRefusal(amountNokMinor: bigint, limitNokMinor: bigint | undefined): string | undefined {
  if (limitNokMinor === undefined || amountNokMinor <= limitNokMinor) return undefined;
  return statusReason(
    'AM02',
    `the amount, NOK ${formatAmount(amountNokMinor, 'NOK')}, exceeds the PSU's limit of NOK ${formatAmount(limitNokMinor, 'NOK')}`,
  );
}

/** The registration number (first four digits) of a Norwegian account number, as a BBAN or a Norwegian IBAN. */
function norwegianRegistrationNumber(account: string): string | undefined {
  const upper = account.toUpperCase();
  if (/^\d{11}$/.test(upper)) return upper.slice(0, 4);
  if (/^NO\d{13}$/.test(upper)) return upper.slice(4, 8);
  return undefined;
}
