import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomBase64url } from '../../src/domain/random-text.js';

describe('random text from the pool', () => {
  it('hands out each byte once: 2 000 draws of 24 bytes across several refills of the 4 096-byte pool are all different', () => {
    const drawn = Array.from({ length: 2000 }, () => randomBase64url(24));
    for (const text of drawn) assert.match(text, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(new Set(drawn).size, drawn.length);
  });

  it('draws bytes that are not all the same (the pool is filled, not left zero)', () => {
    const bytes = Buffer.from(Array.from({ length: 200 }, () => randomBase64url(12)).join(''), 'base64url');
    assert.ok(new Set(bytes).size > 200, `only ${new Set(bytes).size} distinct byte values in ${bytes.length} bytes`);
  });

  it('refuses a size the pool cannot hold or that is not a whole positive number', () => {
    for (const size of [0, -1, 1.5, 4097]) assert.throws(() => randomBase64url(size), RangeError, String(size));
  });
});
