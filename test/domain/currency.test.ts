import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import currencyCodes from 'currency-codes';
import fc from 'fast-check';
import { CURRENCIES, isCurrency, minorUnitsOf } from '../../src/domain/currency.js';
import { formatAmount, parseAmount } from '../../src/domain/money.js';

describe('CURRENCIES', () => {
  it('holds the 162 codes of the specification, each once', () => {
    assert.equal(CURRENCIES.length, 162);
    assert.equal(new Set(CURRENCIES).size, 162);
  });

  it('holds codes of every letter of the specification list, including withdrawn and local ones it names', () => {
    for (const code of [
      'AED',
      'AZN',
      'BYR',
      'BZD',
      'CUC',
      'CZK',
      'DZD',
      'EUR',
      'FKP',
      'GGP',
      'HRK',
      'IMP',
      'ISK',
      'JEP',
      'JPY',
      'KWD',
      'LYD',
      'MRO',
      'MZN',
      'NOK',
      'OMR',
      'PYG',
      'QAR',
      'RWF',
      'SPL',
      'SEK',
      'TVD',
      'USD',
      'VEF',
      'WST',
      'XDR',
      'YER',
      'ZWD',
    ]) {
      assert.ok(CURRENCIES.includes(code as never), code);
    }
  });

  it('leaves out ISO codes the specification does not list', () => {
    for (const code of ['MRU', 'VES', 'ZWL', 'STN', 'XAU', 'BYN', 'SLE']) {
      assert.ok(!CURRENCIES.includes(code as never), code);
    }
  });

  it('is sorted alphabetically, as the specification groups it by first letter', () => {
    assert.deepEqual([...CURRENCIES], [...CURRENCIES].sort());
  });
});

describe('isCurrency', () => {
  it('accepts a code of the list', () => {
    assert.equal(isCurrency('NOK'), true);
    assert.equal(isCurrency('ZWD'), true);
  });

  it('refuses lower case, unknown codes and values that are not strings', () => {
    for (const value of ['nok', 'Nok', 'XYZ', 'MRU', '', 'NOK ', undefined, null, 578, {}]) {
      assert.equal(isCurrency(value), false, String(value));
    }
  });
});

describe('minorUnitsOf', () => {
  it('gives the ISO 4217 minor units of currencies in the ISO data', () => {
    assert.equal(minorUnitsOf('NOK'), 2);
    assert.equal(minorUnitsOf('EUR'), 2);
    assert.equal(minorUnitsOf('JPY'), 0);
    assert.equal(minorUnitsOf('KWD'), 3);
    assert.equal(minorUnitsOf('BHD'), 3);
    assert.equal(minorUnitsOf('ISK'), 0);
    assert.equal(minorUnitsOf('CLP'), 0);
  });

  it('gives minor units for codes the ISO data no longer or never had', () => {
    assert.equal(minorUnitsOf('BYR'), 0);
    assert.equal(minorUnitsOf('HRK'), 2);
    assert.equal(minorUnitsOf('MRO'), 2);
    assert.equal(minorUnitsOf('GGP'), 2);
  });

  it('gives 0, 2 or 3 minor units for every currency of the list', () => {
    for (const code of CURRENCIES) {
      assert.ok([0, 2, 3].includes(minorUnitsOf(code)), `${code}: ${minorUnitsOf(code)}`);
    }
  });
});

describe('minorUnitsOf: the codes the ISO 4217 data lacks (docs/decisions/0133)', () => {
  it('gives a code outside ISO 4217 the minor units of the currency it is pegged to: GGP, IMP, JEP as GBP, TVD as AUD, SPL as USD', () => {
    for (const [code, anchor] of [
      ['GGP', 'GBP'],
      ['IMP', 'GBP'],
      ['JEP', 'GBP'],
      ['TVD', 'AUD'],
      ['SPL', 'USD'],
    ] as const) {
      assert.equal(currencyCodes.code(code), undefined, `${code} is not in the ISO data`);
      assert.equal(minorUnitsOf(code), minorUnitsOf(anchor), code);
    }
  });

  it("gives a withdrawn code the minor units ISO 4217 gave it, not its successor's: BYR 0 although BYN has 2", () => {
    assert.equal(currencyCodes.code('BYN')?.digits, 2);
    assert.equal(minorUnitsOf('BYR'), 0);
    for (const code of ['HRK', 'MRO', 'SLL', 'STD', 'VEF', 'ZWD'] as const) assert.equal(minorUnitsOf(code), 2, code);
  });

  it('gives XDR no minor units: ISO 4217 gives none ("N.A."), so an SDR amount is whole', () => {
    assert.equal(minorUnitsOf('XDR'), 0);
    assert.deepEqual(parseAmount('10.5', 'XDR'), {
      ok: false,
      reason: 'has 1 fraction digits, but XDR has 0 minor units (ISO 4217)',
    });
  });

  it('reads back every amount of every currency of the list, and refuses one more fraction digit (property)', () => {
    for (const code of CURRENCIES) {
      const units = minorUnitsOf(code);
      fc.assert(
        fc.property(fc.bigInt({ min: 1n, max: 10n ** BigInt(13 + units) - 1n }), (minor) => {
          const text = formatAmount(minor, code);
          assert.deepEqual(parseAmount(text, code), { ok: true, minor }, `${code} ${text}`);
          assert.equal(
            parseAmount(`${text}${units === 0 ? '.' : ''}1`, code).ok,
            false,
            `${code} ${text} and one more digit`,
          );
        }),
        { numRuns: 20 },
      );
    }
  });
});
