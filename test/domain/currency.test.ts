import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CURRENCIES, isCurrency, minorUnitsOf } from '../../src/domain/currency.js';

describe('CURRENCIES', () => {
  it('holds the 162 codes of the specification, each once', () => {
    assert.equal(CURRENCIES.length, 162);
    assert.equal(new Set(CURRENCIES).size, 162);
  });

  it('holds codes of every letter of the specification list, including withdrawn and local ones it names', () => {
    for (const code of ['AED', 'AZN', 'BYR', 'BZD', 'CUC', 'CZK', 'DZD', 'EUR', 'FKP', 'GGP', 'HRK', 'IMP', 'ISK', 'JEP', 'JPY', 'KWD', 'LYD', 'MRO', 'MZN', 'NOK', 'OMR', 'PYG', 'QAR', 'RWF', 'SPL', 'SEK', 'TVD', 'USD', 'VEF', 'WST', 'XDR', 'YER', 'ZWD']) {
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
