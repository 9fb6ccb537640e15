import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import {
  AJV_CODE_POINT_LENGTH_MODULE,
  codePointLength,
  validatorRequire,
} from '../../../src/http/schema-compiler/code-point-length.js';
import { precompiledRequire } from '../../../src/http/schema-compiler/precompiled.js';

const ajvCount = (createRequire(import.meta.url)(AJV_CODE_POINT_LENGTH_MODULE) as { default: (t: string) => number })
  .default;

/** Code units that matter to the count: ASCII, Latin-1, the BMP, and both halves of a surrogate pair. */
const UNITS = ['a', 'ø', '€', '\ud83d', '\ude00', '\ud800', '\udbff', '\udc00', '\udfff', '\uffff'];

describe('codePointLength: the count of characters maxLength and minLength judge (Ajv runtime ucs2length)', () => {
  it('counts as Ajv does: every string of up to four of the units that matter, in every order', () => {
    const strings = [''];
    for (let size = 1; size <= 4; size++)
      for (const prefix of strings.filter((s) => s.length === size - 1))
        for (const u of UNITS) strings.push(prefix + u);
    for (const text of strings) assert.equal(codePointLength(text), ajvCount(text), JSON.stringify(text));
  });

  it('counts a pair as one and a lone half as one, as JSON Schema counts characters', () => {
    assert.equal(codePointLength('😀'.repeat(3)), 3);
    assert.equal(codePointLength('a\ud83d'), 2);
    assert.equal(codePointLength('\ude00a'), 2);
    assert.equal(codePointLength('Ærlig talt'), 10);
  });

  it('counts a header-sized string of one-byte characters as its length', () => {
    const certificate = Buffer.alloc(1100, 0xa5).toString('base64');
    assert.equal(codePointLength(certificate), ajvCount(certificate));
    assert.equal(codePointLength(`${certificate}😀`), certificate.length + 1);
  });

  it("is what a precompiled validator's require gives for Ajv's count; every other module is precompiledRequire's", () => {
    assert.equal((validatorRequire(AJV_CODE_POINT_LENGTH_MODULE) as { default: unknown }).default, codePointLength);
    assert.equal(validatorRequire('ajv/dist/runtime/equal'), precompiledRequire('ajv/dist/runtime/equal'));
  });
});
