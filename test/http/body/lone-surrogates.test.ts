import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loneSurrogateEscapeAt } from '../../../src/http/body/lone-surrogates.js';

/** Where the first lone surrogate's escape starts in a JSON text, as the server finds it in the body's bytes. */
const at = (json: string) => loneSurrogateEscapeAt(Buffer.from(json));

describe('loneSurrogateEscapeAt: the escapes of a JSON body that make half a character', () => {
  it('finds none where every escape is a whole character or a pair', () => {
    for (const json of [
      '"plain"',
      '"\\u00f8 \\u20AC"',
      '"\\ud83d\\ude00"',
      '"\\uD83D\\uDE00 and \\uDBFF\\uDFFF"',
      '"Søren \\u0041"',
      '{}',
    ])
      assert.equal(at(json), undefined, json);
  });

  it('finds a high half without its low, a low half alone, and a high followed by another high', () => {
    assert.equal(at('"ab\\ud83d"'), 3);
    assert.equal(at('"\\ude00"'), 1);
    assert.equal(at('"\\ud83d\\ud83d\\ude00"'), 1);
    assert.equal(at('"\\ud83d\\ude00\\ude00"'), 13);
    assert.equal(at('"\\ud83d\\u0041"'), 1);
  });

  it('reads a backslash escaped before u as text, and an escape after an escaped backslash as an escape', () => {
    assert.equal(at('"\\\\ud83d"'), undefined);
    assert.equal(at('"\\\\\\ud83d"'), 3);
    assert.equal(at('"\\\\\\\\ud83d"'), undefined);
  });

  it('counts bytes, not characters, before it', () => {
    assert.equal(at('"ø\\udc00"'), 3);
  });
});
