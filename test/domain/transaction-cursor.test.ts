import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatCursor, parseCursor } from '../../src/domain/transaction-cursor.js';

describe('transaction cursor', () => {
  it('reads back the position it wrote', () => {
    const cursor = { bookingDate: '2026-11-22', seq: 1042 };
    assert.equal(formatCursor(cursor), '2026-11-22.1042');
    assert.deepEqual(parseCursor(formatCursor(cursor)), cursor);
  });

  it('refuses text that is no position: no calendar day, a position of 0 or beyond an int32, anything else', () => {
    for (const text of [
      '',
      'abc',
      '2026-02-30.4',
      '2026-11-22.0',
      '2026-11-22.2147483648',
      '2026-11-22.-1',
      '2026-11-22.01',
      ' 2026-11-22.1',
    ]) {
      assert.equal(parseCursor(text), undefined, text);
    }
  });
});
