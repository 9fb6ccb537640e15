import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isValidKid, mod10CheckDigit, mod11CheckDigit } from '../../src/domain/kid.js';

const body = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 24 });

/** The body with the digit at `index` replaced by another digit. */
const bodyWithOneDigitChanged = body.chain((original) =>
  fc
    .tuple(fc.constant(original), fc.integer({ min: 0, max: original.length - 1 }), fc.integer({ min: 1, max: 9 }))
    .map(([text, index, shift]) => {
      const changed = String((Number(text[index]) + shift) % 10);
      return { original: text, changed: `${text.slice(0, index)}${changed}${text.slice(index + 1)}` };
    }),
);

describe('mod10CheckDigit and mod11CheckDigit, properties', () => {
  it('make a valid KID of any digit body of 1 to 24 digits with either check digit', () => {
    fc.assert(
      fc.property(body, (digits) => {
        assert.equal(isValidKid(digits + mod10CheckDigit(digits)), true);
        assert.equal(isValidKid(digits + mod11CheckDigit(digits)), true);
      }),
      { numRuns: 2000 },
    );
  });

  it('MOD11 detects every single-digit error in the body', () => {
    fc.assert(
      fc.property(bodyWithOneDigitChanged, ({ original, changed }) => {
        const check = mod11CheckDigit(original);
        fc.pre(check !== '-');
        assert.notEqual(mod11CheckDigit(changed), check, `${original} -> ${changed}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('MOD10 detects every single-digit error in the body', () => {
    fc.assert(
      fc.property(bodyWithOneDigitChanged, ({ original, changed }) => {
        assert.notEqual(mod10CheckDigit(changed), mod10CheckDigit(original), `${original} -> ${changed}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives one character: a digit for MOD10, a digit or - for MOD11', () => {
    fc.assert(
      fc.property(body, (digits) => {
        assert.match(mod10CheckDigit(digits), /^\d$/);
        assert.match(mod11CheckDigit(digits), /^[\d-]$/);
      }),
    );
  });
});

describe('mod10CheckDigit and mod11CheckDigit, examples', () => {
  it('computes the Luhn check digit', () => {
    assert.equal(mod10CheckDigit('234567'), '6');
    assert.equal(mod10CheckDigit('7992739871'), '3');
    assert.equal(mod10CheckDigit('0'), '0');
  });

  it('computes the MOD11 check digit with weights 2 to 7 from the right', () => {
    assert.equal(mod11CheckDigit('1234567890'), '3');
    assert.equal(mod11CheckDigit('8601111794'), '7');
  });

  it('gives 0 when the MOD11 remainder is 0 and - when it is 1', () => {
    // 5 * 2 = 10, 11 - 10 = 1; 0 -> remainder 0 -> 11 -> '0'.
    assert.equal(mod11CheckDigit('5'), '1');
    assert.equal(mod11CheckDigit('0'), '0');
    // 6 * 2 = 12, remainder 1, 11 - 1 = 10 -> '-'.
    assert.equal(mod11CheckDigit('6'), '-');
  });
});

describe('isValidKid', () => {
  it('accepts 2345676, which checks by MOD10', () => {
    assert.equal(mod10CheckDigit('234567'), '6');
    assert.equal(isValidKid('2345676'), true);
  });

  it('accepts 12345678903, which checks by MOD11', () => {
    assert.equal(mod11CheckDigit('1234567890'), '3');
    assert.equal(isValidKid('12345678903'), true);
  });

  it('accepts a KID that checks by MOD10 only, and one that checks by MOD11 only', () => {
    // Body 123456: MOD10 gives 6, MOD11 gives 0 (weights 2..7: 77 = 7 * 11).
    assert.equal(mod10CheckDigit('123456'), '6');
    assert.equal(mod11CheckDigit('123456'), '0');
    assert.equal(isValidKid('1234566'), true);
    assert.equal(isValidKid('1234560'), true);
    assert.equal(isValidKid('1234567'), false);
  });

  it('accepts a KID whose MOD11 check is -, written with - as its last character', () => {
    const dashBody = '1234567892';
    assert.equal(mod11CheckDigit(dashBody), '-');
    assert.equal(isValidKid(`${dashBody}-`), true);
    assert.equal(isValidKid('6-'), true);
  });

  it('refuses a KID ending in - whose MOD11 check is a digit', () => {
    assert.equal(mod11CheckDigit('1234567890'), '3');
    assert.equal(isValidKid('1234567890-'), false);
  });

  it('refuses a KID whose last digit fits neither check', () => {
    assert.equal(isValidKid('2345675'), false);
    assert.equal(isValidKid('12345678904'), false);
  });

  it('refuses a single digit, more than 25 characters, letters, spaces, - inside and the empty string', () => {
    assert.equal(isValidKid('0'), false);
    const body25 = '1234567890123456789012345';
    assert.equal(isValidKid(body25 + mod10CheckDigit(body25)), false, '26 digits');
    assert.equal(isValidKid('12345A78903'), false);
    assert.equal(isValidKid('1234567890X'), false);
    assert.equal(isValidKid(' 2345676'), false);
    assert.equal(isValidKid('2345676 '), false);
    assert.equal(isValidKid('23-45676'), false);
    assert.equal(isValidKid(''), false);
  });

  it('accepts 25 digits, the longest KID', () => {
    const body24 = '123456789012345678901234';
    assert.equal(isValidKid(body24 + mod10CheckDigit(body24)), true);
  });
});
