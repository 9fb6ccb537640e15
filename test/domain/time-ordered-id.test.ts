import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { timeOrderedId } from '../../src/domain/time-ordered-id.js';

/** How SQLite's BINARY collation compares text: byte by byte. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('time-ordered ids', () => {
  it('sort byte by byte as the instants they were made at, for any two instants from 1970 to 10889', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 1 }), fc.integer({ min: 0, max: 2 ** 48 - 1 }), (a, b) => {
        fc.pre(a !== b);
        assert.equal(Math.sign(byteOrder(timeOrderedId(a), timeOrderedId(b))), Math.sign(a - b));
      }),
      { numRuns: 2000 },
    );
  });

  it('are 24 characters of base64url, and differ when made in the same millisecond (96 random bits)', () => {
    const at = Date.parse('2026-11-25T12:00:00Z');
    const ids = Array.from({ length: 1000 }, () => timeOrderedId(at));
    for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{24}$/);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(new Set(ids.map((id) => id.slice(0, 8))).size, 1, 'one time part for one millisecond');
  });
});
