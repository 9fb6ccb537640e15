import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CURRENCIES, type Currency, minorUnitsOf } from '../../src/domain/currency.js';
import { formatAmount } from '../../src/domain/money.js';
import {
  JSON_NUMBER_EXACT_DIGITS,
  type SandboxAmountRules,
  parseSandboxAmount,
  sandboxTransactionAmount,
} from '../../src/domain/sandbox-amount.js';

const ANY: SandboxAmountRules = { negative: true, zero: true };
const currency = fc.constantFrom(...CURRENCIES);

function accepted(value: unknown, code: Currency, rules: SandboxAmountRules = ANY): bigint {
  const result = parseSandboxAmount(value, code, rules);
  assert.ok(result.ok, `${code} ${JSON.stringify(value)} should be accepted, got ${result.ok ? '' : result.reason}`);
  return result.minor;
}

function refused(value: unknown, code: Currency, reason: RegExp, rules: SandboxAmountRules = ANY): void {
  const result = parseSandboxAmount(value, code, rules);
  assert.ok(
    !result.ok,
    `${code} ${JSON.stringify(value)} should be refused, got ${result.ok ? `${result.minor}n` : ''}`,
  );
  assert.match(result.reason, reason, `${code} ${JSON.stringify(value)}`);
}

/** Minor units whose decimal text a JSON number carries exactly: 15 significant digits, 13 before the point. */
const exactAmount = currency.chain((code) => {
  const units = minorUnitsOf(code);
  const max = 10n ** BigInt(Math.min(JSON_NUMBER_EXACT_DIGITS, 13 + units)) - 1n;
  return fc.tuple(fc.constant(code), fc.bigInt({ min: -max, max }));
});

describe('parseSandboxAmount, properties', () => {
  it('reads a JSON number back to exactly the minor units its decimal text names, for every currency', () => {
    fc.assert(
      fc.property(exactAmount, ([code, minor]) => {
        // What a client's JSON carries: the decimal text, read by JSON.parse into a double.
        const number = JSON.parse(formatAmount(minor, code)) as number;
        assert.equal(typeof number, 'number');
        assert.deepEqual(parseSandboxAmount(number, code, ANY), { ok: true, minor });
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the same amount as a decimal string to the same minor units', () => {
    fc.assert(
      fc.property(exactAmount, ([code, minor]) => {
        const text = formatAmount(minor, code);
        assert.deepEqual(parseSandboxAmount(text, code, ANY), parseSandboxAmount(JSON.parse(text), code, ANY));
      }),
      { numRuns: 2000 },
    );
  });

  it('never rounds a number: an accepted number is exactly the decimal its minor units name', () => {
    fc.assert(
      fc.property(currency, fc.double({ noNaN: true, min: -1e13, max: 1e13 }), (code, value) => {
        const result = parseSandboxAmount(value, code, ANY);
        if (!result.ok) return;
        // The formatted minor units, read as a double, are the very number given (no float arithmetic happened).
        assert.equal(Number(formatAmount(result.minor, code)), value === 0 ? 0 : value);
        assert.equal(String(Number(formatAmount(result.minor, code))), String(value === 0 ? 0 : value));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses a number with more fraction digits than the currency has, whatever it is', () => {
    fc.assert(
      fc.property(
        currency,
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        fc.integer({ min: 1, max: 9 }),
        (code, whole, digit) => {
          const units = minorUnitsOf(code);
          const value = Number(`${whole}.${'0'.repeat(units)}${digit}`);
          const result = parseSandboxAmount(value, code, ANY);
          assert.equal(result.ok, false, `${code} ${value}`);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('parseSandboxAmount, cases', () => {
  it('stores 1234.56 as 123456 minor units, from a number or a string', () => {
    assert.equal(accepted(1234.56, 'NOK'), 123456n);
    assert.equal(accepted('1234.56', 'NOK'), 123456n);
    assert.equal(accepted(10000, 'NOK'), 1000000n);
    assert.equal(accepted(0.1, 'NOK'), 10n);
    assert.equal(accepted(1.1, 'NOK'), 110n);
    assert.equal(accepted(4.35, 'EUR'), 435n);
    assert.equal(accepted(-1500.5, 'NOK'), -150050n);
    assert.equal(accepted(3326011, 'EUR'), 332601100n);
    assert.equal(accepted(100, 'JPY'), 100n);
    assert.equal(accepted(1.234, 'KWD'), 1234n);
  });

  it('refuses the result of float arithmetic (0.1 + 0.2) rather than rounding it', () => {
    refused(0.1 + 0.2, 'NOK', /17 fraction digits.*floating-point arithmetic/);
    refused(1.005 * 100, 'NOK', /fraction digits/);
  });

  it('refuses exponents, non-finite numbers and other types', () => {
    refused(1e21, 'NOK', /exponent/);
    refused(1e-7, 'NOK', /exponent/);
    refused(Number.POSITIVE_INFINITY, 'NOK', /finite/);
    refused(Number.NaN, 'NOK', /finite/);
    refused('1e3', 'NOK', /decimal number/);
    refused(true, 'NOK', /a number or a decimal string/);
    refused(' 12', 'NOK', /decimal number/);
    refused('12,50', 'NOK', /decimal number/);
  });

  it('refuses more fraction digits than the currency has, and more than the contract', () => {
    refused(10.001, 'NOK', /3 fraction digits, but NOK has 2 minor units/);
    refused(10.5, 'JPY', /JPY has 0 minor units/);
    refused('1.123456', 'NOK', /at most 5/);
  });

  it('refuses 14 digits before the point and numbers with more than 15 significant digits', () => {
    refused('12345678901234', 'NOK', /14 digits before the point/);
    assert.equal(accepted('9999999999999.999', 'KWD'), 9999999999999999n);
    refused(1234567890123.456, 'KWD', /16 significant digits.*string/);
  });

  it('applies the sign, zero and int32 rules', () => {
    refused(-1, 'NOK', /must not be negative/, { negative: false, zero: true });
    refused(0, 'NOK', /must not be zero/, { negative: true, zero: false });
    assert.equal(accepted(0, 'NOK', { negative: false, zero: true }), 0n);
    // int32 bounds the currency's units, as the platform posts them (1500 is NOK 1 500), not its minor units.
    assert.equal(accepted(2147483647, 'NOK', { negative: true, zero: false, int32: true }), 214748364700n);
    assert.equal(accepted('2147483647.99', 'NOK', { negative: true, zero: false, int32: true }), 214748364799n);
    assert.equal(accepted(-2147483648, 'NOK', { negative: true, zero: false, int32: true }), -214748364800n);
    assert.equal(accepted(21474836.48, 'NOK', { negative: true, zero: false, int32: true }), 2147483648n);
    refused(2147483648, 'NOK', /an int32 of NOK units: -2147483648 to 2147483647/, {
      negative: true,
      zero: false,
      int32: true,
    });
    refused('-2147483649', 'NOK', /an int32 of NOK units/, { negative: true, zero: false, int32: true });
  });
});

describe('sandboxTransactionAmount', () => {
  it("reads back the amount in the currency's units with its sign, exactly: what was posted", () => {
    for (const [posted, currency] of [
      [1500, 'NOK'],
      [1234.56, 'NOK'],
      [-0.07, 'NOK'],
      [-250.5, 'NOK'],
      [2147483647, 'NOK'],
      [21474836.47, 'NOK'],
      [1500, 'JPY'],
      [1.234, 'KWD'],
      [-2147483648, 'EUR'],
    ] as const) {
      const minor = accepted(posted, currency, { negative: true, zero: false, int32: true });
      assert.equal(sandboxTransactionAmount(minor, currency), posted, `${posted} ${currency}`);
    }
    assert.equal(sandboxTransactionAmount(9990n, 'NOK'), 99.9);
    assert.ok(
      Number.isInteger(sandboxTransactionAmount(150000n, 'NOK')),
      "a whole amount is an integer, as the specification's int32",
    );
  });
});
