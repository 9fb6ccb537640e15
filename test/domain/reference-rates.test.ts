import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';

const rates = new ReferenceRates(SANDBOX_REFERENCE_RATES);

describe('ReferenceRates.toNokMinor', () => {
  it('converts NOK 1:1', () => {
    assert.equal(rates.toNokMinor(12345n, 'NOK'), 12345n);
    assert.equal(rates.toNokMinor(1n, 'NOK'), 1n);
  });

  it('has NOK at 1:1 even with an empty table', () => {
    const empty = new ReferenceRates({});
    assert.equal(empty.has('NOK'), true);
    assert.equal(empty.toNokMinor(10_000n, 'NOK'), 10_000n);
  });

  it('converts EUR 150 000.00 at 11.70 to NOK 1 755 000.00', () => {
    assert.equal(rates.toNokMinor(15_000_000n, 'EUR'), 175_500_000n);
  });

  it('converts a currency without minor units: JPY 1 000 at 0.071 is NOK 71.00', () => {
    assert.equal(rates.toNokMinor(1_000n, 'JPY'), 7_100n);
  });

  it('converts a currency with 3 minor units: KWD 1.234 at 35.20 is NOK 43.4368, rounded to 43.44', () => {
    assert.equal(rates.toNokMinor(1_234n, 'KWD'), 4_344n);
    assert.equal(rates.toNokMinor(1_000n, 'KWD'), 3_520n);
  });

  it('rounds half an øre up and less than half down', () => {
    // JPY 5 at 0.071 is 35.5 øre; JPY 1 is 7.1 øre.
    assert.equal(rates.toNokMinor(5n, 'JPY'), 36n);
    assert.equal(rates.toNokMinor(1n, 'JPY'), 7n);
    const custom = new ReferenceRates({ EUR: '0.5', USD: '0.499999', GBP: '0.500001' });
    // One cent at 0.5 is exactly half an øre.
    assert.equal(custom.toNokMinor(1n, 'EUR'), 1n);
    assert.equal(custom.toNokMinor(1n, 'USD'), 0n);
    assert.equal(custom.toNokMinor(1n, 'GBP'), 1n);
    assert.equal(custom.toNokMinor(3n, 'EUR'), 2n);
  });

  it('keeps every digit of large amounts', () => {
    // EUR 10^13 + 0.01 at 11.70: no float rounding.
    assert.equal(rates.toNokMinor(1_000_000_000_000_001n, 'EUR'), 11_700_000_000_000_012n);
  });

  it('returns undefined for a currency without a rate, and has() is false for it', () => {
    assert.equal(rates.has('AED'), false);
    assert.equal(rates.toNokMinor(100n, 'AED'), undefined);
    assert.equal(rates.has('EUR'), true);
  });
});

describe('ReferenceRates.parse', () => {
  it('reads CODE=rate pairs separated by commas, with spaces and lower-case codes', () => {
    const parsed = ReferenceRates.parse('EUR=11.70, usd=10.8');
    assert.equal(parsed.toNokMinor(100n, 'EUR'), 1_170n);
    assert.equal(parsed.toNokMinor(100n, 'USD'), 1_080n);
    assert.equal(parsed.has('GBP'), false);
    assert.deepEqual(new Map(parsed.entries()), new Map([['EUR', '11.7'], ['USD', '10.8'], ['NOK', '1']]));
  });

  it('ignores empty pairs', () => {
    const parsed = ReferenceRates.parse(' EUR=11.70,, ');
    assert.equal(parsed.toNokMinor(100n, 'EUR'), 1_170n);
    assert.equal(ReferenceRates.parse('').has('EUR'), false);
  });

  it('throws on a code that is not a currency of the specification', () => {
    assert.throws(() => ReferenceRates.parse('XYZ=1.5'), /'XYZ', which is not a currency of the specification/);
  });

  it('throws on a rate with 7 fraction digits', () => {
    assert.throws(() => ReferenceRates.parse('EUR=11.1234567'), /at most 6 fraction digits/);
    assert.equal(ReferenceRates.parse('EUR=11.123456').toNokMinor(1_000_000n, 'EUR'), 11_123_456n);
  });

  it('throws on a zero rate', () => {
    assert.throws(() => ReferenceRates.parse('EUR=0'), /must be more than zero/);
    assert.throws(() => ReferenceRates.parse('EUR=0.000000'), /must be more than zero/);
  });

  it('throws on a pair without =, with an empty code or with an empty rate', () => {
    assert.throws(() => ReferenceRates.parse('EUR'), /'EUR' is not of the form CODE=rate/);
    assert.throws(() => ReferenceRates.parse('EUR=11.70,USD'), /'USD' is not of the form CODE=rate/);
    // A decimal comma splits the pair: '5' is then a pair without =.
    assert.throws(() => ReferenceRates.parse('EUR=11,5'), /'5' is not of the form CODE=rate/);
    assert.throws(() => ReferenceRates.parse('=11.70'), /is not of the form CODE=rate/);
    assert.throws(() => ReferenceRates.parse('EUR='), /must be a decimal/);
  });

  it('throws on rates that are not plain decimals', () => {
    for (const rate of ['-1', '1e3', '1.', '.5', 'abc', '1 5']) {
      assert.throws(() => ReferenceRates.parse(`EUR=${rate}`), /must be a decimal/, rate);
    }
  });
});

describe('ReferenceRates constructor', () => {
  it('throws on lower-case codes, which only parse() upper-cases', () => {
    assert.throws(() => new ReferenceRates({ eur: '11.70' }), /not a currency of the specification/);
  });

  it('takes the whole sandbox table without error and lists its rates as given', () => {
    const entries = new Map(rates.entries());
    assert.equal(entries.get('EUR'), '11.7');
    assert.equal(entries.get('KRW'), '0.0078');
    assert.equal(entries.get('NOK'), '1');
    assert.equal(entries.size, Object.keys(SANDBOX_REFERENCE_RATES).length);
  });

  it('throws on a pair with two = signs and on a currency given twice', () => {
    assert.throws(() => ReferenceRates.parse('EUR=11.70=3'), /not of the form CODE=rate/);
    assert.throws(() => ReferenceRates.parse('EUR=11.70,eur=12'), /EUR is given twice/);
  });
});
