import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Account } from '../../src/domain/bank.js';
import { executedStatus, planExecution } from '../../src/domain/payment-execution.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';

const rates = new ReferenceRates(SANDBOX_REFERENCE_RATES);
const account = (currency: string): Account => ({ id: 'a', customerId: 'c', bban: '90412263056', iban: 'NO5490412263056', currency, name: 'x', product: 'x', cashAccountType: 'CACC', creditLineMinor: 0n, balanceMinor: 0n });
const transfer = (amountMinor: bigint, currency: string, seq = 0) => ({ seq, amountMinor, currency, creditorName: 'C', creditorAccount: '12345678911', remittance: '', ultimateDebtor: '', purposeCode: '' });

describe('planExecution', () => {
  it('debits a domestic transfer in NOK as it is, with the domestic debit code', () => {
    const plan = planExecution({ id: 'p', product: 'norwegian-domestic-credit-transfers', feeMinor: 0n, feeCurrency: 'NOK', transfers: [transfer(12_345n, 'NOK')] }, account('NOK'), rates);
    assert.ok(plan.ok);
    assert.equal(plan.transfers[0]!.debitMinor, 12_345n);
    assert.equal(plan.transfers[0]!.bankTransactionCode, 'PMNT-ICDT-DMCT');
  });

  it('converts a EUR transfer to the NOK account at the reference rate and adds the fee to the first transfer only', () => {
    const plan = planExecution({ id: 'p', product: 'norwegian-cross-border-credit-transfers', feeMinor: 12_925n, feeCurrency: 'NOK', transfers: [transfer(100_000n, 'EUR'), transfer(100n, 'EUR', 1)] }, account('NOK'), rates);
    assert.ok(plan.ok);
    assert.equal(plan.transfers[0]!.amountInAccountCurrency, 1_170_000n, 'EUR 1 000.00 at 11.70');
    assert.equal(plan.transfers[0]!.feeInAccountCurrency, 12_925n);
    assert.equal(plan.transfers[0]!.debitMinor, 1_182_925n);
    assert.equal(plan.transfers[1]!.feeInAccountCurrency, 0n);
  });

  it('charges a NOK fee on a EUR account in euros', () => {
    const plan = planExecution({ id: 'p', product: 'norwegian-cross-border-credit-transfers', feeMinor: 11_700n, feeCurrency: 'NOK', transfers: [transfer(5_000n, 'EUR')] }, account('EUR'), rates);
    assert.ok(plan.ok);
    assert.equal(plan.transfers[0]!.feeInAccountCurrency, 1_000n, 'NOK 117.00 is EUR 10.00');
  });

  it('refuses to execute from an account that is not in this bank, saying so', () => {
    const plan = planExecution({ id: 'p', product: 'norwegian-domestic-credit-transfers', feeMinor: 0n, feeCurrency: 'NOK', transfers: [transfer(1n, 'NOK')] }, undefined, rates);
    assert.deepEqual(plan, { ok: false, reason: 'the debtor account is not an account in this bank' });
  });

  it('names the status from the transfers executed: ACSC, PART, RJCT', () => {
    assert.equal(executedStatus(3, 3), 'ACSC');
    assert.equal(executedStatus(1, 3), 'PART');
    assert.equal(executedStatus(0, 3), 'RJCT');
  });
});
