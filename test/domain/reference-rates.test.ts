import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CURRENCIES, type Currency, minorUnitsOf } from '../../src/domain/currency.js';
import { REFERENCE_RATE_MAX_FRACTION_DIGITS, REFERENCE_RATE_MAX_WHOLE_DIGITS } from '../../src/domain/limits.js';
import { formatAmount } from '../../src/domain/money.js';
import {
  REGULATORY_REPORTING_THRESHOLD_NOK_MINOR,
  validateCrossBorderPayment,
} from '../../src/domain/payments/cross-border-payment.js';
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
    // The sandbox table has every currency; a table given in REFERENCE_RATES may not.
    const partial = new ReferenceRates({ EUR: '11.70' });
    assert.equal(partial.has('AED'), false);
    assert.equal(partial.toNokMinor(100n, 'AED'), undefined);
    assert.equal(partial.fromNokMinor(100n, 'AED'), undefined);
    assert.equal(partial.has('EUR'), true);
  });
});

describe('ReferenceRates.parse', () => {
  it('reads CODE=rate pairs separated by commas, with spaces and lower-case codes', () => {
    const parsed = ReferenceRates.parse('EUR=11.70, usd=10.8');
    assert.equal(parsed.toNokMinor(100n, 'EUR'), 1_170n);
    assert.equal(parsed.toNokMinor(100n, 'USD'), 1_080n);
    assert.equal(parsed.has('GBP'), false);
    assert.deepEqual(
      new Map(parsed.entries()),
      new Map([
        ['EUR', '11.7'],
        ['USD', '10.8'],
        ['NOK', '1'],
      ]),
    );
  });

  it('ignores empty pairs', () => {
    const parsed = ReferenceRates.parse(' EUR=11.70,, ');
    assert.equal(parsed.toNokMinor(100n, 'EUR'), 1_170n);
    assert.equal(ReferenceRates.parse('').has('EUR'), false);
  });

  it('throws on a code that is not a currency of the specification', () => {
    assert.throws(() => ReferenceRates.parse('XYZ=1.5'), /'XYZ', which is not a currency of the specification/);
  });

  it(`throws on a rate with more than ${REFERENCE_RATE_MAX_FRACTION_DIGITS} fraction digits or ${REFERENCE_RATE_MAX_WHOLE_DIGITS} digits before the point`, () => {
    const longest = `0.${'0'.repeat(REFERENCE_RATE_MAX_FRACTION_DIGITS - 1)}1`;
    assert.equal(
      ReferenceRates.parse(`EUR=${longest}`).toNokMinor(10n ** BigInt(REFERENCE_RATE_MAX_FRACTION_DIGITS), 'EUR'),
      1n,
    );
    assert.throws(
      () => ReferenceRates.parse(`EUR=${longest}0`),
      new RegExp(
        `at most ${REFERENCE_RATE_MAX_WHOLE_DIGITS} digits before the point and ${REFERENCE_RATE_MAX_FRACTION_DIGITS} after it`,
      ),
    );
    assert.equal(ReferenceRates.parse(`EUR=${'9'.repeat(REFERENCE_RATE_MAX_WHOLE_DIGITS)}`).has('EUR'), true);
    assert.throws(
      () => ReferenceRates.parse(`EUR=1${'0'.repeat(REFERENCE_RATE_MAX_WHOLE_DIGITS)}`),
      /digits before the point/,
    );
  });

  it('keeps every fraction digit it is given: a rate of 7 fraction digits converts exactly', () => {
    // EUR 10 000.00 at 11.1234565 is 11 123 456.5 øre, rounded up; cut to 6 digits it would be 11 123 456.
    assert.equal(ReferenceRates.parse('EUR=11.1234565').toNokMinor(1_000_000n, 'EUR'), 11_123_457n);
    assert.deepEqual(new Map(ReferenceRates.parse('EUR=11.1234560').entries()).get('EUR'), '11.123456');
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

describe('SANDBOX_REFERENCE_RATES: every currency of the specification', () => {
  it("has a rate for every code of the specification's Currency list, and no other code", () => {
    const missing = CURRENCIES.filter((code) => !Object.hasOwn(SANDBOX_REFERENCE_RATES, code));
    assert.deepEqual(missing, []);
    assert.deepEqual(Object.keys(SANDBOX_REFERENCE_RATES).sort(), [...CURRENCIES].sort());
    for (const code of CURRENCIES) assert.equal(rates.has(code), true, code);
  });

  it('keeps the rates the table had before it had every currency', () => {
    const before = {
      EUR: '11.70',
      USD: '10.80',
      GBP: '13.90',
      SEK: '1.02',
      DKK: '1.57',
      CHF: '12.40',
      ISK: '0.083',
      PLN: '2.70',
      CZK: '0.47',
      HUF: '0.030',
      CAD: '7.80',
      AUD: '7.10',
      NZD: '6.40',
      JPY: '0.071',
      CNY: '1.50',
      HKD: '1.39',
      SGD: '8.20',
      INR: '0.13',
      ZAR: '0.60',
      TRY: '0.32',
      THB: '0.31',
      KWD: '35.20',
      BHD: '28.70',
      JOD: '15.20',
      OMR: '28.10',
      TND: '3.50',
      KRW: '0.0078',
      CLP: '0.011',
      NOK: '1',
    };
    for (const [code, rate] of Object.entries(before)) assert.equal(SANDBOX_REFERENCE_RATES[code], rate, code);
  });

  it("gives a currency at par with another exactly that one's rate: GGP, IMP, JEP (and FKP, GIP, SHP) as GBP, TVD as AUD", () => {
    const atPar: [Currency, Currency[]][] = [
      ['GBP', ['GGP', 'IMP', 'JEP', 'FKP', 'GIP', 'SHP']],
      ['AUD', ['TVD']],
      ['USD', ['BMD', 'BSD', 'PAB', 'CUC']],
      ['INR', ['BTN']],
      ['ZAR', ['LSL', 'NAD', 'SZL']],
      ['SGD', ['BND']],
    ];
    for (const [anchor, codes] of atPar) {
      for (const code of codes) {
        assert.equal(SANDBOX_REFERENCE_RATES[code], SANDBOX_REFERENCE_RATES[anchor], `${code} at par with ${anchor}`);
        assert.equal(rates.toNokMinor(123_456_789n, code), rates.toNokMinor(123_456_789n, anchor), code);
      }
    }
  });

  it('prices the Seborga luigino (SPL) at USD 6: SPL 1.00 is NOK 64.80', () => {
    assert.equal(rates.toNokMinor(100n, 'SPL'), 6n * rates.toNokMinor(100n, 'USD')!);
    assert.equal(rates.toNokMinor(100n, 'SPL'), 6_480n);
  });

  it('prices a withdrawn code per old unit, through its successor and the redenomination factor', () => {
    // 10 000 BYR = 1 BYN (2016), BYN 3.00 per USD: NOK 3.60. BYR has no minor units.
    assert.equal(rates.toNokMinor(10_000n, 'BYR'), 360n);
    // 10 MRO = 1 MRU (2018), MRU 40.0 per USD: NOK 0.27.
    assert.equal(rates.toNokMinor(1_000n, 'MRO'), 27n);
    // 1 000 STD = 1 STN (2018), STN 24.5 per EUR: NOK 0.4776, so STD 1 000 000.00 is NOK 477.60.
    assert.equal(rates.toNokMinor(100_000_000n, 'STD'), 47_760n);
    // 1 000 SLL = 1 SLE (2022), SLE 23.0 per USD: SLL 1 000 000.00 is NOK 469.60.
    assert.equal(rates.toNokMinor(100_000_000n, 'SLL'), 46_960n);
    // 7.53450 HRK = 1 EUR (2023).
    assert.equal(SANDBOX_REFERENCE_RATES.HRK, '1.553');
    // 10^11 VEF = 1 bolívar of today (10^5 in 2018, 10^6 in 2021), 230 per USD: NOK 0.04696.
    assert.equal(rates.toNokMinor(10n ** 13n, 'VEF'), 5n);
  });

  it('converts rates of more than 6 fraction digits exactly: the largest VEF amount is NOK 4.70, any ZWD amount NOK 0.00', () => {
    // The contract allows 13 digits before the point: VEF 9 999 999 999 999.99 at 0.0000000000004696 is 469.5999… øre.
    const largest = 10n ** 15n - 1n;
    assert.equal(rates.toNokMinor(largest, 'VEF'), 470n);
    assert.equal(rates.toNokMinor(largest, 'ZWD'), 0n);
    // And back: NOK 0.01 is about VEF 2.1 × 10^10 and ZWD 3.2 × 10^38, to the last minor unit.
    assert.equal(rates.fromNokMinor(1n, 'VEF'), 2_129_471_890_971n);
    assert.equal(rates.fromNokMinor(1n, 'ZWD'), 32_404_406_999_351_911_860_012_961_762_799_740_764_744n);
  });
});

/** The rate of a currency as the table writes it, as an integer over a power of ten: an oracle independent of ReferenceRates. */
function writtenRate(code: Currency): { units: bigint; scale: bigint } {
  const text = SANDBOX_REFERENCE_RATES[code]!;
  const fraction = text.split('.')[1] ?? '';
  return { units: BigInt(text.replace('.', '')), scale: 10n ** BigInt(fraction.length) };
}

const CONTEXT = { today: '2026-11-21', rates };
const SE_IBAN = 'SE4550000000058398257466';

describe('a cross-border payment in every currency of the specification (property)', () => {
  it("is accepted for any valid amount of the currency's minor units, with its NOK amount and fee exact integers", () => {
    for (const code of CURRENCIES) {
      const units = minorUnitsOf(code);
      // The contract's largest amount has 13 digits before the point.
      const largest = 10n ** BigInt(13 + units) - 1n;
      const { units: rateUnits, scale } = writtenRate(code);
      fc.assert(
        fc.property(
          fc.bigInt({ min: 1n, max: largest }),
          fc.constantFrom<Currency>('NOK', code, 'EUR'),
          fc.boolean(),
          (minor, debtorCurrency, reporting) => {
            const amount = formatAmount(minor, code);
            const body: Record<string, unknown> = {
              instructedAmount: { amount, currency: code },
              creditorName: 'Leverandør',
              creditorAccount: { iban: SE_IBAN, currency: code },
              debtorAccount: { bban: '12345678903', currency: debtorCurrency },
            };
            if (reporting)
              Object.assign(body, { regulatoryReportingCode: '14', regulatoryReportingInformation: 'Import of goods' });
            const nok = rates.toNokMinor(minor, code)!;
            assert.equal(typeof nok, 'bigint');
            // Rounded half up to the øre: at most half an øre from the exact product, and a half rounds up.
            const numerator = minor * rateUnits * 100n;
            const denominator = 10n ** BigInt(units) * scale;
            const twiceError = 2n * (nok * denominator - numerator);
            assert.ok(twiceError <= denominator && twiceError > -denominator, `${code} ${amount}: ${nok} øre`);

            const { problems, payment } = validateCrossBorderPayment(body, CONTEXT);
            if (!reporting && nok >= REGULATORY_REPORTING_THRESHOLD_NOK_MINOR) {
              assert.deepEqual(
                problems.map((p) => p.path),
                ['$.regulatoryReportingCode', '$.regulatoryReportingInformation'],
                `${code} ${amount}`,
              );
              return;
            }
            assert.deepEqual(problems, [], `${code} ${amount}`);
            assert.ok(payment !== undefined);
            const percentage = (nok * 25n * 2n + 10_000n) / 20_000n;
            const conversion = code === debtorCurrency ? 0n : percentage > 2_500n ? percentage : 2_500n;
            assert.deepEqual(
              payment.fees.total,
              { minor: 10_000n + conversion, currency: 'NOK' },
              `${code} ${amount} from ${debtorCurrency}`,
            );
          },
        ),
        { numRuns: 30 },
      );
    }
  });
});
