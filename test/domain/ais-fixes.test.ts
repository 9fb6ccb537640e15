import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACCEPT_FIXES } from '../../src/domain/accept-fix.js';
import {
  FIX,
  accountNameOf,
  bankTransactionCodeOf,
  batchesEntries,
  cardAmountsOf,
  cashAccountTypeOf,
} from '../../src/domain/ais-fixes.js';

const none = new Set<string>();
const on = (name: string) => new Set([name]);

describe('what each x-accept-fix change does to account information', () => {
  it('names only published changes', () => {
    for (const name of Object.values(FIX))
      assert.ok(
        ACCEPT_FIXES.some((fix) => fix.name === name),
        name,
      );
  });

  it("cash-account-type-iso: the platform's name before, the ISO 20022 code after", () => {
    assert.deepEqual(
      ['CACC', 'SVGS', 'TAXE', 'CARD'].map((code) => cashAccountTypeOf(code, none)),
      ['Current', 'Savings', 'Tax', 'CARD'],
    );
    assert.deepEqual(
      ['CACC', 'SVGS', 'TAXE', 'CARD'].map((code) => cashAccountTypeOf(code, on(FIX.cashAccountTypeIso))),
      ['CACC', 'SVGS', 'TAXE', 'CARD'],
    );
  });

  it('longer-name: 35 characters before (counted as characters, not UTF-16 units), 70 after', () => {
    const name = `${'Æ'.repeat(34)}😀${'x'.repeat(35)}`;
    assert.equal(accountNameOf(name, none), `${'Æ'.repeat(34)}😀`);
    assert.equal(accountNameOf(name, on(FIX.longerName)), name);
  });

  it('bank-transaction-code-iso: the stored code before; after, only an ISO code as bankTransactionCode, any other left out', () => {
    assert.deepEqual(bankTransactionCodeOf('PMNT', none), { bankTransactionCode: 'PMNT' });
    assert.deepEqual(bankTransactionCodeOf('PMNT', on(FIX.bankTransactionCodeIso)), {});
    assert.deepEqual(bankTransactionCodeOf('PMNT-RCDT-DMCT', on(FIX.bankTransactionCodeIso)), {
      bankTransactionCode: 'PMNT-RCDT-DMCT',
    });
    assert.deepEqual(bankTransactionCodeOf('', on(FIX.bankTransactionCodeIso)), {});
  });

  it('cardaccount-switch-originalamount-and-transactionamount: switched before, as stored after; nothing to switch without an original amount', () => {
    const stored = { transactionAmount: 'NOK', originalAmount: 'SEK' };
    assert.deepEqual(cardAmountsOf(stored, none), { transactionAmount: 'SEK', originalAmount: 'NOK' });
    assert.deepEqual(cardAmountsOf(stored, on(FIX.cardAmountSwitch)), stored);
    assert.deepEqual(cardAmountsOf({ transactionAmount: 'NOK' }, none), { transactionAmount: 'NOK' });
  });

  it('batch-transactions: bulk entries as one batch entry only when asked for', () => {
    assert.equal(batchesEntries(none), false);
    assert.equal(batchesEntries(on(FIX.batchTransactions)), true);
  });
});
