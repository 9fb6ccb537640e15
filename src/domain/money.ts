import { AMOUNT_PRECISION, AMOUNT_SCALE } from './limits.js';
import { type Currency, minorUnitsOf } from './currency.js';

/** An amount in integer minor units of its currency: never a float. */
export interface Money {
  minor: bigint;
  currency: Currency;
}

export type AmountResult = { ok: true; minor: bigint } | { ok: false; reason: string };

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * spec: Amount. A decimal string, more than zero, with precision 18 and scale 5 by contract (a
 * DECIMAL(18,5): at most 13 digits before the point and 5 after), and
 * no more fraction digits than the currency's ISO 4217 minor units (NOK "10.001" and JPY "10.5"
 * are refused). Returns the amount in minor units; the digits are read as text, so nothing is lost.
 */
export function parseAmount(text: string, currency: Currency): AmountResult {
  const match = DECIMAL.exec(text);
  if (match === null) {
    return {
      ok: false,
      reason: 'must be a decimal number written as a string, digits with an optional point, such as "1500.00"',
    };
  }
  const integerDigits = match[1]!.replace(/^0+(?=\d)/, '');
  const fraction = match[2] ?? '';
  if (fraction.length > AMOUNT_SCALE)
    return { ok: false, reason: `has ${fraction.length} fraction digits; the contract allows at most ${AMOUNT_SCALE}` };
  // Precision 18 with scale 5 is a DECIMAL(18,5): 13 digits before the point, whatever follows it.
  const wholeDigits = integerDigits === '0' ? 0 : integerDigits.length;
  if (wholeDigits > AMOUNT_PRECISION - AMOUNT_SCALE) {
    return {
      ok: false,
      reason: `has ${wholeDigits} digits before the point; the contract (precision ${AMOUNT_PRECISION}, scale ${AMOUNT_SCALE}) allows at most ${AMOUNT_PRECISION - AMOUNT_SCALE}`,
    };
  }
  const minorUnits = minorUnitsOf(currency);
  if (fraction.length > minorUnits) {
    return {
      ok: false,
      reason: `has ${fraction.length} fraction digits, but ${currency} has ${minorUnits} minor unit${minorUnits === 1 ? '' : 's'} (ISO 4217)`,
    };
  }
  const minor = BigInt(integerDigits + fraction.padEnd(minorUnits, '0'));
  if (minor <= 0n) return { ok: false, reason: 'must be more than zero' };
  return { ok: true, minor };
}

/** The decimal string of an amount, with exactly the currency's minor units: 12345n NOK is "123.45". */
export function formatAmount(minor: bigint, currency: Currency): string {
  const units = minorUnitsOf(currency);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(units + 1, '0');
  const text = units === 0 ? digits : `${digits.slice(0, -units)}.${digits.slice(-units)}`;
  return negative ? `-${text}` : text;
}

export function formatMoney(money: Money): { amount: string; currency: Currency } {
  return { amount: formatAmount(money.minor, money.currency), currency: money.currency };
}
