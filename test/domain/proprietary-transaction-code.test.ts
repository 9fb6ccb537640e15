import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BANK_TRANSACTION_CODES } from '../../src/domain/payment-execution.js';
import {
  PROPRIETARY_TRANSACTION_CODES as CODES,
  cardTransactionCode,
  proprietaryTransactionCode,
} from '../../src/domain/proprietary-transaction-code.js';

describe("the platform's own transaction codes (proprietaryBankTransactionCode)", () => {
  it('gives each kind the batch run books its code: payment debits, credits, cross-border, fees', () => {
    assert.deepEqual(
      [
        BANK_TRANSACTION_CODES.domesticDebit,
        BANK_TRANSACTION_CODES.domesticCredit,
        BANK_TRANSACTION_CODES.crossBorderDebit,
        BANK_TRANSACTION_CODES.crossBorderCredit,
        BANK_TRANSACTION_CODES.fee,
      ].map(proprietaryTransactionCode),
      [CODES.domesticPayment, CODES.domesticCredit, CODES.crossBorderPayment, CODES.crossBorderCredit, CODES.fee],
    );
  });

  it('reads posted test data by the ISO code it was posted with: SEPA, standing orders, card purchases; any other form is other', () => {
    assert.deepEqual(
      [
        'PMNT-ICDT-ESCT',
        'PMNT-ICDT-STDO',
        'PMNT-CCRD-POSD',
        'PMNT-DCRD-POSD',
        'ACMT-MDOP-CHRG',
        'PMNT',
        '',
        'LDAS-CSLN-RPMT',
      ].map(proprietaryTransactionCode),
      [
        CODES.crossBorderPayment,
        CODES.standingOrder,
        CODES.cardPurchase,
        CODES.cardPurchase,
        CODES.fee,
        CODES.other,
        CODES.other,
        CODES.other,
      ],
    );
  });

  it("has R_710, the platform's code of a booked card purchase, and one code per kind in the platform's form", () => {
    assert.equal(CODES.cardPurchase, 'R_710');
    const codes = Object.values(CODES);
    assert.equal(new Set(codes).size, codes.length);
    for (const code of codes) assert.match(code, /^R_\d{3}$/);
  });

  it('keeps the code a card transaction was posted with, and makes one posted without a card purchase', () => {
    assert.deepEqual(['R_943', '', undefined, 42].map(cardTransactionCode), ['R_943', 'R_710', 'R_710', 'R_710']);
  });
});
