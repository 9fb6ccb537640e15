import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type DuplicateParts, duplicateKey, newPaymentId } from '../../src/domain/payments/payment.js';

const PARTS: DuplicateParts = {
  debtor: '12345678903',
  creditor: '12345678911',
  amount: { minor: 10_050n, currency: 'NOK' },
  executionDate: '2026-12-01',
  remittance: 'Faktura 17',
};

describe('duplicateKey', () => {
  it('is a SHA-256 hex digest, the same for equal parts', () => {
    assert.match(duplicateKey(PARTS), /^[0-9a-f]{64}$/);
    assert.equal(duplicateKey(PARTS), duplicateKey({ ...PARTS, amount: { ...PARTS.amount } }));
  });

  it('differs when any part differs', () => {
    const keys = [
      duplicateKey(PARTS),
      duplicateKey({ ...PARTS, debtor: '86011117947' }),
      duplicateKey({ ...PARTS, creditor: '12345678938' }),
      duplicateKey({ ...PARTS, amount: { minor: 10_051n, currency: 'NOK' } }),
      duplicateKey({ ...PARTS, amount: { minor: 10_050n, currency: 'SEK' } }),
      duplicateKey({ ...PARTS, executionDate: '2026-12-02' }),
      duplicateKey({ ...PARTS, executionDate: undefined }),
      duplicateKey({ ...PARTS, remittance: 'Faktura 18' }),
    ];
    assert.equal(new Set(keys).size, keys.length);
  });

  it('ignores case, surrounding space and repeated spaces of the remittance', () => {
    assert.equal(duplicateKey({ ...PARTS, remittance: '  FAKTURA \t 17 ' }), duplicateKey(PARTS));
  });
});

describe('newPaymentId', () => {
  it('is enc!! followed by 24 base64url characters (144 bits), different each time', () => {
    const ids = Array.from({ length: 100 }, () => newPaymentId());
    for (const id of ids) assert.match(id, /^enc!![A-Za-z0-9_-]{24}$/);
    assert.equal(new Set(ids).size, ids.length);
  });
});
