import { type Currency, minorUnitsOf } from './currency.js';
import { formatAmount } from './money.js';
import { AMOUNT_PRECISION, AMOUNT_SCALE, INT32_MAX, INT32_MIN } from './limits.js';

/**
 * Amounts of the sandbox's mock-data bodies. The platform's own bodies write them as JSON numbers
 * (`"creditLine": 0`, `"amount": 10000`), so a number is accepted as well as a decimal string. A
 * number is read through its shortest decimal text (`String(n)`, which gives back the digits the
 * client wrote for any decimal of up to 15 significant digits) and from there as text, exactly as a
 * string: there is no floating-point arithmetic anywhere, so 1234.56 is 123456 minor units and never
 * 123455.99999999999.
 */

/** What one amount field of a mock-data body may be. */
export interface SandboxAmountRules {
  /** A negative amount is allowed (a debit, an overdrawn balance). */
  negative: boolean;
  /** Zero is allowed. */
  zero: boolean;
  /**
   * The whole units must fit a 32-bit signed integer (spec: the Sandbox transaction's amount is an
   * int32, of the currency's units as the platform's scripts post them: `1500` is NOK 1 500).
   */
  int32?: boolean;
}

export type SandboxAmountResult = { ok: true; minor: bigint } | { ok: false; reason: string };

/**
 * Significant digits an IEEE 754 double carries exactly: every decimal of at most 15 significant
 * digits survives being read into a double and written back (DBL_DIG). A number whose shortest text
 * has more may not be the one the client wrote; such an amount has to be sent as a string.
 */
export const JSON_NUMBER_EXACT_DIGITS = 15;

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** The decimal text of a JSON number or string amount, before any rule about its value. */
export function sandboxAmountText(
  value: unknown,
): { ok: true; text: string; fromNumber: boolean } | { ok: false; reason: string } {
  if (typeof value === 'string') return { ok: true, text: value, fromNumber: false };
  if (typeof value !== 'number')
    return { ok: false, reason: 'must be a number or a decimal string, such as 1500.50 or "1500.50"' };
  if (!Number.isFinite(value)) return { ok: false, reason: 'must be a finite number' };
  const text = String(value);
  if (/e/i.test(text)) {
    return {
      ok: false,
      reason: `is ${text}, a number only expressible with an exponent; write the amount as plain decimal digits (or as a string)`,
    };
  }
  return { ok: true, text, fromNumber: true };
}

/**
 * Reads an amount given as a JSON number or a decimal string in the currency's minor units.
 * Contract: precision 18 and scale 5 (13 digits before the point), and no more fraction digits than
 * the currency's ISO 4217 minor units; a number also at most 15 significant digits.
 */
export function parseSandboxAmount(value: unknown, currency: Currency, rules: SandboxAmountRules): SandboxAmountResult {
  const read = sandboxAmountText(value);
  if (!read.ok) return read;
  const match = DECIMAL.exec(read.text);
  if (match === null) {
    return {
      ok: false,
      reason: `must be a decimal number: digits with an optional minus sign and point, such as "-1500.50" (got '${read.text.length > 40 ? `${read.text.slice(0, 40)}…` : read.text}')`,
    };
  }
  const negative = match[1] === '-';
  const integerDigits = match[2]!.replace(/^0+(?=\d)/, '');
  const fraction = match[3] ?? '';
  // A number with a long fraction (0.30000000000000004) is usually the client's floating-point arithmetic.
  const noise =
    read.fromNumber && fraction.length >= 10
      ? ' (the result of floating-point arithmetic in the client? round the amount, or send it as a string)'
      : '';
  if (fraction.length > AMOUNT_SCALE)
    return {
      ok: false,
      reason: `has ${fraction.length} fraction digits; the contract allows at most ${AMOUNT_SCALE}${noise}`,
    };
  const wholeDigits = integerDigits === '0' ? 0 : integerDigits.length;
  if (wholeDigits > AMOUNT_PRECISION - AMOUNT_SCALE) {
    return {
      ok: false,
      reason: `has ${wholeDigits} digits before the point; the contract (precision ${AMOUNT_PRECISION}, scale ${AMOUNT_SCALE}) allows at most ${AMOUNT_PRECISION - AMOUNT_SCALE}`,
    };
  }
  const units = minorUnitsOf(currency);
  if (fraction.length > units) {
    return {
      ok: false,
      reason: `has ${fraction.length} fraction digits, but ${currency} has ${units} minor unit${units === 1 ? '' : 's'} (ISO 4217)${noise}`,
    };
  }
  if (read.fromNumber) {
    const significant = `${integerDigits}${fraction}`.replace(/^0+/, '').length;
    if (significant > JSON_NUMBER_EXACT_DIGITS) {
      return {
        ok: false,
        reason: `has ${significant} significant digits, more than a JSON number carries exactly (${JSON_NUMBER_EXACT_DIGITS}); send the amount as a string`,
      };
    }
  }
  const magnitude = BigInt(integerDigits + fraction.padEnd(units, '0'));
  const minor = negative ? -magnitude : magnitude;
  if (minor === 0n) {
    return rules.zero ? { ok: true, minor: 0n } : { ok: false, reason: 'must not be zero' };
  }
  if (minor < 0n && !rules.negative) return { ok: false, reason: 'must not be negative' };
  const whole = BigInt(integerDigits);
  if (rules.int32 === true && (negative ? -whole < BigInt(INT32_MIN) : whole > BigInt(INT32_MAX))) {
    return {
      ok: false,
      reason: `is ${read.text} ${currency}, outside what a sandbox transaction amount holds (an int32 of ${currency} units: ${INT32_MIN} to ${INT32_MAX})`,
    };
  }
  return { ok: true, minor };
}

/**
 * A Sandbox transaction's amount as it is read back: a JSON number in the currency's units, as the
 * platform's scripts post it (`1500` is NOK 1 500 and reads `1500`; `-250.5` reads `-250.5`), with
 * its sign. Whole amounts are integers, as the specification's int32; an amount with minor units
 * keeps them. Written from the exact decimal text, so the number is the shortest one that reads as
 * that decimal (at most 15 significant digits, which a double carries exactly).
 */
export function sandboxTransactionAmount(minor: bigint, currency: Currency): number {
  return Number(formatAmount(minor, currency));
}
