import { isCurrency, minorUnitsOf } from '../../domain/currency.js';
import { formatAmount } from '../../domain/money.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import { isReportedStatus, reportedStatus } from '../reported-status.js';

/**
 * The values of the core's contract (docs/core-api.yaml) as they travel, and reading them back with
 * every check the contract makes: an answer that is not the contract is a ContractViolation, which
 * the caller reads as the core being unavailable, never as data.
 */
export class ContractViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractViolation';
  }
}

export type Json = Record<string, unknown>;

/** An amount as the contract writes it: a decimal string with its currency, negative for a debit. */
export interface WireAmount {
  amount: string;
  currency: string;
}

export function wireAmount(minor: bigint, currency: string): WireAmount {
  if (!isCurrency(currency)) throw new ContractViolation(`${currency} is not a currency the contract knows`);
  return { amount: formatAmount(minor, currency), currency };
}

/** The status a payment is reported with (ISO 20022; reported-status.ts). */
export const wireStatus = reportedStatus;

/** ISO 20022 NARR (narrative): a reason the interface has that starts with no code. */
const NARRATIVE = 'NARR';
const CODED = /^([A-Z0-9]{4})(?: (.*))?$/s;

/** The interface's reason ("AM04 insufficient funds …") as the contract's `{code, text}`. */
export function wireReason(reason: string | undefined): { code: string; text: string } | undefined {
  if (reason === undefined) return undefined;
  const match = CODED.exec(reason);
  return match === null ? { code: NARRATIVE, text: reason } : { code: match[1]!, text: match[2] ?? '' };
}

/** The contract's `{code, text}` as the interface's reason: the code, then the words. */
export function reasonText(reason: { code: string; text: string }): string {
  if (reason.code === NARRATIVE) return reason.text;
  return reason.text === '' ? reason.code : `${reason.code} ${reason.text}`;
}

// Reading: each function names the field it found wrong, by its path in the answer.

export function object(value: unknown, at: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ContractViolation(`${at} is not an object`);
  return value as Json;
}

export function text(o: Json, key: string, at: string): string {
  const value = o[key];
  if (typeof value !== 'string') throw new ContractViolation(`${at}.${key} is not a string`);
  return value;
}

export function optionalText(o: Json, key: string, at: string): string | undefined {
  return o[key] === undefined || o[key] === null ? undefined : text(o, key, at);
}

export function oneOf<T extends string>(o: Json, key: string, values: readonly T[], at: string): T {
  const value = text(o, key, at);
  if (!(values as readonly string[]).includes(value))
    throw new ContractViolation(
      `${at}.${key} is ${JSON.stringify(value.slice(0, 20))}, not one of ${values.join(', ')}`,
    );
  return value as T;
}

export function integer(o: Json, key: string, at: string): number {
  const value = o[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new ContractViolation(`${at}.${key} is not a whole number`);
  return value;
}

export function boolean(o: Json, key: string, at: string): boolean {
  const value = o[key];
  if (typeof value !== 'boolean') throw new ContractViolation(`${at}.${key} is not true or false`);
  return value;
}

export function array(o: Json, key: string, at: string): unknown[] {
  const value = o[key];
  if (!Array.isArray(value)) throw new ContractViolation(`${at}.${key} is not an array`);
  return value;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function date(o: Json, key: string, at: string): string {
  const value = text(o, key, at);
  if (!DATE.test(value)) throw new ContractViolation(`${at}.${key} is not a date (YYYY-MM-DD)`);
  return value;
}

export function optionalDate(o: Json, key: string, at: string): string | undefined {
  return o[key] === undefined || o[key] === null ? undefined : date(o, key, at);
}

export function dateTime(o: Json, key: string, at: string): Date {
  const value = new Date(text(o, key, at));
  if (Number.isNaN(value.getTime())) throw new ContractViolation(`${at}.${key} is not a date-time`);
  return value;
}

const DECIMAL = /^(-?)(\d{1,18})(?:\.(\d{1,5}))?$/;

/** An amount in minor units of its currency, read as text: never through a float. */
export function amount(o: Json, key: string, at: string): { minor: bigint; currency: string } {
  const value = object(o[key], `${at}.${key}`);
  const currency = text(value, 'currency', `${at}.${key}`);
  if (!isCurrency(currency)) throw new ContractViolation(`${at}.${key}.currency is not a currency`);
  const match = DECIMAL.exec(text(value, 'amount', `${at}.${key}`));
  const units = minorUnitsOf(currency);
  if (match === null || (match[3] ?? '').length > units)
    throw new ContractViolation(`${at}.${key}.amount is not a decimal amount in ${currency}`);
  const minor = BigInt(match[2]! + (match[3] ?? '').padEnd(units, '0'));
  return { minor: match[1] === '-' ? -minor : minor, currency };
}

export function status(o: Json, key: string, at: string): TransactionStatus {
  const value = text(o, key, at);
  if (!isReportedStatus(value))
    throw new ContractViolation(`${at}.${key} is ${JSON.stringify(value.slice(0, 20))}, not a status of the contract`);
  return value as TransactionStatus;
}

export function reason(o: Json, key: string, at: string): string | undefined {
  if (o[key] === undefined || o[key] === null) return undefined;
  const value = object(o[key], `${at}.${key}`);
  const code = text(value, 'code', `${at}.${key}`);
  if (!/^[A-Z0-9]{4}$/.test(code)) throw new ContractViolation(`${at}.${key}.code is not a 4-character reason code`);
  return reasonText({ code, text: text(value, 'text', `${at}.${key}`) });
}
