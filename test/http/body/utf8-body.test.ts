import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bodyUnits, unitsText } from '../../../src/http/body/utf8-body.js';

/** The body's text as the server reads it: its code units (bodyUnits), as one string. */
function decodeUtf8(raw: Buffer): string | undefined {
  const units = bodyUnits(raw);
  return units === undefined ? undefined : unitsText(units, 0, units.length);
}

/** What the body decoder must agree with: the WHATWG decoder, fatal on any byte that is not UTF-8. */
function reference(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

describe('bodyUnits (the body decoder)', () => {
  it('reads ASCII, two-, three- and four-byte characters, and drops a leading byte order mark', () => {
    for (const text of ['', '{"a":1}', 'Søren Ærlig', '€ 100', 'a😀b', '\u{10FFFF}', 'æøå'.repeat(1000)]) {
      assert.equal(decodeUtf8(Buffer.from(text)), text);
      assert.equal(decodeUtf8(Buffer.from(`\uFEFF${text}`)), text);
    }
  });

  it('refuses what is not UTF-8: a lone continuation byte, an overlong form, an encoded surrogate, a cut sequence, a byte never used', () => {
    for (const bytes of [
      [0x80],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
      [0xf4, 0x90, 0x80, 0x80],
      [0xff],
      [0x41, 0xc3],
    ]) {
      assert.equal(decodeUtf8(Buffer.from(bytes)), undefined, Buffer.from(bytes).toString('hex'));
    }
  });

  it('agrees with the WHATWG decoder on any bytes, and on any text encoded', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        assert.equal(decodeUtf8(Buffer.from(bytes)), reference(bytes));
      }),
      { numRuns: 2000, seed: 20261123 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (text) => {
        const bytes = Buffer.from(text);
        assert.equal(decodeUtf8(bytes), reference(bytes));
      }),
      { numRuns: 2000, seed: 20261123 },
    );
  });

  it('reads large bodies whole: ASCII, and non-ASCII with characters of two code units', () => {
    const ascii = `{"a":"${'x'.repeat(1_300_000)}"}`;
    assert.equal(decodeUtf8(Buffer.from(ascii)), ascii);
    const mixed = `${'x'.repeat(32 * 1024 - 1)}😀${'æ'.repeat(300_000)}€`;
    assert.equal(decodeUtf8(Buffer.from(mixed)), mixed);
    assert.equal(decodeUtf8(Buffer.from(`\uFEFF${mixed}`)), mixed);
    const cut = Buffer.from(mixed).subarray(0, -1);
    assert.equal(decodeUtf8(cut), undefined, 'a large body cut inside a character is refused');
  });
});
