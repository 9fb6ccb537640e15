import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CURRENCIES, type Currency, minorUnitsOf } from '../../src/domain/currency.js';
import { formatAmount, formatMoney, parseAmount } from '../../src/domain/money.js';

const currency = fc.constantFrom(...CURRENCIES);
const digits = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

function accepted(text: string, code: Currency): bigint {
  const result = parseAmount(text, code);
  assert.ok(result.ok, `${code} '${text}' should be accepted, got ${result.ok ? '' : result.reason}`);
  return result.minor;
}

function refused(text: string, code: Currency, reason?: RegExp): void {
  const result = parseAmount(text, code);
  assert.ok(!result.ok, `${code} '${text}' should be refused, got ${result.ok ? `${result.minor}n` : ''}`);
  if (reason !== undefined) assert.match(result.reason, reason, `${code} '${text}'`);
}

describe('parseAmount and formatAmount, properties', () => {
  it('gives back exactly the minor units it formatted, for every currency and every amount the contract allows', () => {
    // DECIMAL(18,5): up to 13 digits before the point, so up to 10^(13 + minor units) - 1 minor units.
    const amount = currency.chain((code) =>
      fc.tuple(fc.constant(code), fc.bigInt({ min: 1n, max: 10n ** BigInt(13 + minorUnitsOf(code)) - 1n })),
    );
    fc.assert(
      fc.property(amount, ([code, minor]) => {
        const result = parseAmount(formatAmount(minor, code), code);
        assert.deepEqual(result, { ok: true, minor });
      }),
      { numRuns: 2000 },
    );
  });

  it('formats with exactly the minor units of the currency as fraction digits', () => {
    fc.assert(
      fc.property(currency, fc.bigInt({ min: 0n, max: 10n ** 15n }), (code, minor) => {
        const text = formatAmount(minor, code);
        const units = minorUnitsOf(code);
        assert.match(text, units === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${units}}$`));
      }),
    );
  });

  it('refuses a decimal with more fraction digits than the currency has minor units', () => {
    fc.assert(
      fc.property(currency, digits(1, 12), fc.integer({ min: 1, max: 5 }), (code, integer, extra) => {
        const fraction = `${'1'.repeat(minorUnitsOf(code))}${'0'.repeat(extra - 1)}5`;
        refused(`${integer}.${fraction}`, code, /fraction digits/);
      }),
    );
  });

  it('accepts a decimal with at most as many fraction digits as minor units, as the exact integer of minor units', () => {
    fc.assert(
      fc.property(
        currency.chain((code) => fc.tuple(fc.constant(code), digits(1, 12), digits(0, minorUnitsOf(code)))),
        ([code, integer, fraction]) => {
          const units = minorUnitsOf(code);
          const expected =
            BigInt(integer) * 10n ** BigInt(units) +
            (fraction === '' ? 0n : BigInt(fraction) * 10n ** BigInt(units - fraction.length));
          const text = fraction === '' ? integer : `${integer}.${fraction}`;
          if (expected === 0n) {
            refused(text, code, /more than zero/);
          } else {
            assert.equal(accepted(text, code), expected, `${code} '${text}'`);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses zero written with any number of zeros and fraction digits the currency allows', () => {
    fc.assert(
      fc.property(
        currency,
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 3 }),
        (code, integerZeros, fractionZeros) => {
          const fraction = Math.min(fractionZeros, minorUnitsOf(code));
          const text = `${'0'.repeat(integerZeros)}${fraction === 0 ? '' : `.${'0'.repeat(fraction)}`}`;
          refused(text, code, /more than zero/);
        },
      ),
    );
  });
});

describe('parseAmount, examples', () => {
  it('refuses NOK 10.001 and JPY 10.5, naming the minor units of the currency (specification examples)', () => {
    refused('10.001', 'NOK', /NOK has 2 minor units/);
    refused('10.5', 'JPY', /JPY has 0 minor units/);
  });

  it('accepts KWD 1.234, a currency with 3 minor units', () => {
    assert.equal(accepted('1.234', 'KWD'), 1234n);
    assert.equal(accepted('0.001', 'BHD'), 1n);
    refused('1.2345', 'KWD', /KWD has 3 minor units/);
  });

  it('accepts fewer fraction digits than the minor units and pads them', () => {
    assert.equal(accepted('10', 'NOK'), 1000n);
    assert.equal(accepted('10.5', 'NOK'), 1050n);
    assert.equal(accepted('10.5', 'KWD'), 10500n);
    assert.equal(accepted('10', 'JPY'), 10n);
  });

  it('refuses zero amounts', () => {
    refused('0', 'NOK', /more than zero/);
    refused('0.00', 'NOK', /more than zero/);
    refused('0', 'JPY', /more than zero/);
    refused('0.000', 'KWD', /more than zero/);
  });

  it('refuses exponents, signs, spaces, a lone point, a comma and the empty string', () => {
    for (const text of ['1e3', '-5', '+5', ' 5', '5 ', '5.', '.5', '1,5', '', '1.2.3', '0x10', 'NaN', '1_000']) {
      refused(text, 'NOK', /must be a decimal number/);
    }
  });

  it('refuses digits other than ASCII', () => {
    refused('١٢', 'NOK', /must be a decimal number/);
    refused('１２', 'NOK', /must be a decimal number/);
  });

  it('accepts 13 digits before the point and refuses 14 (contract precision 18, scale 5: a DECIMAL(18,5))', () => {
    assert.equal(accepted('1234567890123.45', 'NOK'), 123456789012345n);
    assert.equal(accepted('9999999999999', 'JPY'), 9999999999999n);
    assert.equal(accepted('1234567890123.456', 'KWD'), 1234567890123456n);
    refused(
      '12345678901234.00',
      'NOK',
      /has 14 digits before the point; the contract \(precision 18, scale 5\) allows at most 13/,
    );
    refused('12345678901234', 'JPY', /allows at most 13/);
  });

  it('formats every amount it accepts into a text it accepts again (largest amounts included)', () => {
    for (const code of ['NOK', 'JPY', 'KWD'] as const) {
      const largest = accepted(
        `9999999999999${minorUnitsOf(code) === 0 ? '' : `.${'9'.repeat(minorUnitsOf(code))}`}`,
        code,
      );
      assert.equal(accepted(formatAmount(largest, code), code), largest);
    }
  });

  it('does not count leading zeros toward the precision', () => {
    assert.equal(accepted('0001234567890123.45', 'NOK'), 123456789012345n);
    assert.equal(accepted('0.05', 'NOK'), 5n);
  });

  it('refuses more than 5 fraction digits with the contract scale message before the currency one', () => {
    refused('1.123456', 'KWD', /has 6 fraction digits; the contract allows at most 5/);
    refused('1.123456', 'NOK', /the contract allows at most 5/);
  });

  it('refuses 4 or 5 fraction digits with the currency message, since no currency has more than 3 minor units', () => {
    refused('1.1234', 'KWD', /has 4 fraction digits, but KWD has 3 minor units/);
    refused('1.12345', 'NOK', /has 5 fraction digits, but NOK has 2 minor units/);
  });

  it('reads leading zeros: NOK 007.50 is 750 øre', () => {
    assert.equal(accepted('007.50', 'NOK'), 750n);
  });

  it('keeps every digit of amounts beyond the exact range of a double', () => {
    assert.equal(accepted('9007199254740.993', 'KWD'), 9007199254740993n);
    assert.equal(accepted('9999999999999.99', 'NOK'), 999999999999999n);
  });
});

describe('formatAmount', () => {
  it("writes minor units with the currency's fraction digits", () => {
    assert.equal(formatAmount(12345n, 'NOK'), '123.45');
    assert.equal(formatAmount(5n, 'NOK'), '0.05');
    assert.equal(formatAmount(0n, 'NOK'), '0.00');
    assert.equal(formatAmount(5n, 'KWD'), '0.005');
    assert.equal(formatAmount(1234n, 'KWD'), '1.234');
    assert.equal(formatAmount(5n, 'JPY'), '5');
    assert.equal(formatAmount(175500000n, 'NOK'), '1755000.00');
  });

  it('writes a negative amount with a leading minus', () => {
    assert.equal(formatAmount(-12345n, 'NOK'), '-123.45');
    assert.equal(formatAmount(-5n, 'NOK'), '-0.05');
    assert.equal(formatAmount(-7n, 'JPY'), '-7');
  });

  it('writes a Money as the Amount object of the specification', () => {
    assert.deepEqual(formatMoney({ minor: 150000n, currency: 'EUR' }), { amount: '1500.00', currency: 'EUR' });
  });
});
