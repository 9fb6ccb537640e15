import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatCursor, parseCursor } from '../../src/domain/transaction-cursor.js';

describe('transaction cursor', () => {
  it('reads back the position it wrote', () => {
    const cursor = { bookingDate: '2026-11-22', seq: 1042 };
    assert.equal(formatCursor(cursor), '2026-11-22.1042');
    assert.deepEqual(parseCursor(formatCursor(cursor)), cursor);
  });

  it('reads back a position of the years 0000-0099, which a sandbox transaction may be booked on', () => {
    for (const bookingDate of ['0000-01-01', '0001-01-01', '0099-12-31']) {
      const cursor = { bookingDate, seq: 7 };
      assert.deepEqual(parseCursor(formatCursor(cursor)), cursor, bookingDate);
    }
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
