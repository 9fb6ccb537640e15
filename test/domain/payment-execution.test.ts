import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Account } from '../../src/domain/bank.js';
import {
  ChunkLedger,
  type LedgerAccount,
  creditorKey,
  creditorNumbers,
  executedStatus,
  planExecution,
} from '../../src/domain/payment-execution.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';

const rates = new ReferenceRates(SANDBOX_REFERENCE_RATES);
const account = (currency: string): Account => ({
  id: 'a',
  customerId: 'c',
  bban: '90412263056',
  iban: 'NO5490412263056',
  currency,
  name: 'x',
  product: 'x',
  cashAccountType: 'CACC',
  creditLineMinor: 0n,
  balanceMinor: 0n,
  status: 'enabled',
});
const transfer = (amountMinor: bigint, currency: string, seq = 0) => ({
  seq,
  amountMinor,
  currency,
  creditorName: 'C',
  creditorAccount: '12345678911',
  remittance: '',
  ultimateDebtor: '',
  purposeCode: '',
  endToEndId: '',
});

describe('planExecution', () => {
  it('debits a domestic transfer in NOK as it is, with the domestic debit code', () => {
    const plan = planExecution(
      {
        id: 'p',
        product: 'norwegian-domestic-credit-transfers',
        feeMinor: 0n,
        feeCurrency: 'NOK',
        transfers: [transfer(12_345n, 'NOK')],
      },
      account('NOK'),
      rates,
    );
    assert.ok(plan.ok);
    assert.equal(plan.transfers[0]!.debitMinor, 12_345n);
    assert.equal(plan.transfers[0]!.bankTransactionCode, 'PMNT-ICDT-DMCT');
  });

  it('converts a EUR transfer to the NOK account at the reference rate and adds the fee to the first transfer only', () => {
    const plan = planExecution(
      {
        id: 'p',
        product: 'norwegian-cross-border-credit-transfers',
        feeMinor: 12_925n,
        feeCurrency: 'NOK',
        transfers: [transfer(100_000n, 'EUR'), transfer(100n, 'EUR', 1)],
      },
      account('NOK'),
      rates,
    );
    assert.ok(plan.ok);
    assert.equal(plan.transfers[0]!.amountInAccountCurrency, 1_170_000n, 'EUR 1 000.00 at 11.70');
    assert.equal(plan.transfers[0]!.feeInAccountCurrency, 12_925n);
    assert.equal(plan.transfers[0]!.debitMinor, 1_182_925n);
    assert.equal(plan.transfers[1]!.feeInAccountCurrency, 0n);
  });

  it('charges a NOK fee on a EUR account in euros', () => {
    const plan = planExecution(
      {
        id: 'p',
        product: 'norwegian-cross-border-credit-transfers',
        feeMinor: 11_700n,
        feeCurrency: 'NOK',
        transfers: [transfer(5_000n, 'EUR')],
      },
      account('EUR'),
      rates,
    );
    assert.ok(plan.ok);
    assert.equal(plan.transfers[0]!.feeInAccountCurrency, 1_000n, 'NOK 117.00 is EUR 10.00');
  });

  it('refuses to execute from an account that is not in this bank, saying so', () => {
    const plan = planExecution(
      {
        id: 'p',
        product: 'norwegian-domestic-credit-transfers',
        feeMinor: 0n,
        feeCurrency: 'NOK',
        transfers: [transfer(1n, 'NOK')],
      },
      undefined,
      rates,
    );
    assert.deepEqual(plan, { ok: false, reason: 'AC01 the debtor account is not an account in this bank' });
  });

  it('names the status from the transfers executed: ACSC, PART, RJCT', () => {
    assert.equal(executedStatus(3, 3), 'ACSC');
    assert.equal(executedStatus(1, 3), 'PART');
    assert.equal(executedStatus(0, 3), 'RJCT');
  });
});

describe('ChunkLedger', () => {
  const held = (
    bban: string,
    balanceMinor: bigint,
    transactionCount: number,
    creditLineMinor = 0n,
    currency = 'NOK',
  ): LedgerAccount => ({
    ...account(currency),
    id: bban,
    bban,
    iban: `NO00${bban}`,
    balanceMinor,
    creditLineMinor,
    transactionCount,
  });
  const plan = (p: Parameters<typeof planExecution>[0], d: Parameters<typeof planExecution>[1]) =>
    planExecution(p, d, rates);
  const payment = (id: string, product: string, feeMinor: bigint, ...transfers: ReturnType<typeof transfer>[]) => ({
    id,
    product,
    feeMinor,
    feeCurrency: 'NOK',
    transfers,
  });

  it("books each debit, its fee and the credit at the accounts' next positions, and moves both balances", () => {
    const ledger = new ChunkLedger([held('11111111111', 100_000n, 7), held('12345678911', 0n, 2)]);
    const booked = ledger.book(
      payment('p', 'norwegian-cross-border-credit-transfers', 10_000n, transfer(5_000n, 'NOK')),
      { bban: '11111111111' },
      plan,
    );
    assert.equal(booked.status, 'ACSC');
    assert.equal(booked.fundsAvailable, true);
    assert.deepEqual(
      booked.bookings.map((b) => [b.account.bban, b.seq, b.amountMinor, b.kind]),
      [
        ['11111111111', 8, -5_000n, 'debit'],
        ['11111111111', 9, -10_000n, 'fee'],
        ['12345678911', 3, 5_000n, 'credit'],
      ],
    );
    assert.deepEqual(
      ledger.changedAccounts().map((a) => [a.bban, a.balanceMinor, a.transactionCount]),
      [
        ['11111111111', 85_000n, 9],
        ['12345678911', 5_000n, 3],
      ],
    );
  });

  it('never overdraws: in order, a transfer the balance and credit line no longer cover is rejected, and nothing is booked for it', () => {
    const ledger = new ChunkLedger([held('11111111111', 1_000n, 0, 500n)]);
    const first = ledger.book(
      payment('a', 'norwegian-domestic-credit-transfers', 0n, transfer(1_200n, 'NOK'), transfer(400n, 'NOK', 1)),
      { bban: '11111111111' },
      plan,
    );
    const second = ledger.book(
      payment('b', 'norwegian-domestic-credit-transfers', 0n, transfer(300n, 'NOK')),
      { bban: '11111111111' },
      plan,
    );
    assert.deepEqual(
      [first.status, first.transferStatuses, first.reason !== undefined],
      ['PART', ['ACSC', 'RJCT'], true],
    );
    assert.deepEqual([second.status, second.transferStatuses, second.fundsAvailable], ['ACSC', ['ACSC'], true]);
    assert.deepEqual(
      ledger.changedAccounts().map((a) => [a.balanceMinor, a.transactionCount]),
      [[-500n, 2]],
    );
  });

  it('rejects a payment from an account it does not hold, booking nothing and moving nothing', () => {
    const ledger = new ChunkLedger([held('12345678911', 0n, 0)]);
    const booked = ledger.book(
      payment('p', 'norwegian-domestic-credit-transfers', 0n, transfer(100n, 'NOK')),
      { bban: '99999999999' },
      plan,
    );
    assert.deepEqual(
      [booked.status, booked.fundsAvailable, booked.reason, booked.bookings],
      ['RJCT', undefined, 'AC01 the debtor account is not an account in this bank', []],
    );
    assert.deepEqual(ledger.changedAccounts(), []);
  });
});

describe('creditor accounts', () => {
  it('reads an account that starts like an IBAN as one (a Norwegian IBAN gives its BBAN too), any other as a BBAN', () => {
    assert.deepEqual(creditorNumbers('NO5490412263056'), { iban: 'NO5490412263056', bban: '90412263056' });
    assert.deepEqual(creditorNumbers('SE4550000000058398257466'), { iban: 'SE4550000000058398257466', bban: '' });
    assert.deepEqual(creditorNumbers('90412263056'), { iban: '', bban: '90412263056' });
    assert.deepEqual(creditorKey('no5490412263056'), { bban: 'no5490412263056' });
    assert.deepEqual(creditorKey('NO5490412263056'), { iban: 'NO5490412263056' });
  });
});
