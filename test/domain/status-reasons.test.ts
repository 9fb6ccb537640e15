import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AccountStatus } from '../../src/domain/bank.js';
import {
  ChunkLedger,
  type LedgerAccount,
  type PaymentToExecute,
  paymentReason,
  planExecution,
} from '../../src/domain/payment-execution.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';
import { INSUFFICIENT_FUNDS, creditorRefusal, limitRefusal, statusReason } from '../../src/domain/status-reasons.js';

/**
 * The reasons the bank rejects a payment for when it executes (docs/scenarios.md): each starts with
 * its ISO 20022 code, and the ledger books nothing of a transfer it refuses.
 */
const rates = new ReferenceRates(SANDBOX_REFERENCE_RATES);
const OWN = new Set(['1506']);

const held = (
  bban: string,
  balanceMinor: bigint,
  status: AccountStatus = 'enabled',
  currency = 'NOK',
): LedgerAccount => ({
  id: bban,
  customerId: 'c',
  bban,
  iban: `NO00${bban}`,
  currency,
  name: 'x',
  product: 'x',
  cashAccountType: 'CACC',
  creditLineMinor: 0n,
  balanceMinor,
  status,
  transactionCount: 0,
});

const transfer = (amountMinor: bigint, creditorAccount: string, seq = 0, currency = 'NOK') => ({
  seq,
  amountMinor,
  currency,
  creditorName: 'C',
  creditorAccount,
  remittance: '',
  ultimateDebtor: '',
  purposeCode: '',
  endToEndId: '',
});

const payment = (transfers: ReturnType<typeof transfer>[], signerLimitMinor?: bigint): PaymentToExecute => ({
  id: 'p',
  product: 'norwegian-domestic-credit-transfers',
  feeMinor: 0n,
  feeCurrency: 'NOK',
  transfers,
  signerLimitMinor,
});

/** Books one payment from 15061012343 against these accounts, with the sandbox's registration numbers. */
function book(accounts: LedgerAccount[], p: PaymentToExecute) {
  const ledger = new ChunkLedger(accounts);
  const booked = ledger.book(p, { bban: '15061012343' }, (pay, debtor, creditorOf) =>
    planExecution(pay, debtor, rates, { creditorOf, registrationNumbers: OWN }),
  );
  return { booked, changed: ledger.changedAccounts() };
}

describe('the reasons a payment is rejected for when it executes', () => {
  it('rejects the whole payment from a blocked (AC06) or closed (AC04) debtor account, booking nothing', () => {
    for (const [status, code] of [
      ['blocked', 'AC06'],
      ['deleted', 'AC04'],
    ] as const) {
      const { booked, changed } = book(
        [held('15061012343', 100_000n, status)],
        payment([transfer(100n, '12345678911')]),
      );
      assert.equal(booked.status, 'RJCT');
      assert.equal(booked.reason?.slice(0, 4), code);
      assert.match(booked.reason ?? '', /debtor account 15061012343/);
      assert.deepEqual(booked.bookings, []);
      assert.deepEqual(changed, []);
    }
  });

  it('rejects a transfer to a blocked (AC06) or closed (AC04) creditor account of the bank, and to none there (AC01)', () => {
    const cases = [
      ['blocked', '15061012351', 'AC06 the creditor account 15061012351 is blocked'],
      ['deleted', '15061012351', 'AC04 the creditor account 15061012351 is closed'],
      [undefined, '15069999990', 'AC01 the creditor account 15069999990 does not exist'],
      [undefined, 'NO0215069999990', 'AC01 the creditor account NO0215069999990 does not exist'],
    ] as const;
    for (const [status, creditor, reason] of cases) {
      const accounts = [held('15061012343', 100_000n)];
      if (status !== undefined) accounts.push(held('15061012351', 0n, status));
      const { booked } = book(accounts, payment([transfer(100n, creditor)]));
      assert.deepEqual([booked.status, booked.reason, booked.bookings.length], ['RJCT', reason, 0], creditor);
    }
  });

  it('pays an account number at another registration number, which the bank cannot know', () => {
    const { booked } = book([held('15061012343', 100_000n)], payment([transfer(100n, '12345678911')]));
    assert.equal(booked.status, 'ACSC');
    assert.equal(
      creditorRefusal('12345678911', undefined, new Set()),
      undefined,
      'production knows no registration number',
    );
    assert.equal(creditorRefusal('15069999990', undefined, new Set()), undefined);
  });

  it("rejects a transfer over the signing PSU's limit (AM02), in NOK at the reference rates; one at the limit executes", () => {
    assert.equal(limitRefusal(500_00n, 500_00n), undefined);
    assert.equal(limitRefusal(500_01n, 500_00n), "AM02 the amount, NOK 500.01, exceeds the PSU's limit of NOK 500.00");
    assert.equal(limitRefusal(500_01n, undefined), undefined);
    const over = book([held('15061012343', 100_000_00n)], payment([transfer(500_01n, '12345678911')], 500_00n));
    assert.deepEqual([over.booked.status, over.booked.reason?.slice(0, 4)], ['RJCT', 'AM02']);
    // EUR 100 is NOK 1 170 at the sandbox's rate: over a limit of NOK 1 000.
    const euro = book(
      [held('15061012343', 100_000_00n)],
      payment([transfer(100_00n, 'SE4550000000058398257466', 0, 'EUR')], 1_000_00n),
    );
    assert.match(euro.booked.reason ?? '', /^AM02 the amount, NOK 1170\.00/);
  });

  it("executes a bulk in part with each entry's own reason, and sums the payment's reasons up", () => {
    const { booked } = book(
      [held('15061012343', 1_000_00n)],
      payment(
        [
          transfer(100_00n, '12345678911', 0),
          transfer(600_00n, '12345678911', 1),
          transfer(100_00n, '15069999990', 2),
          transfer(950_00n, '12345678911', 3),
        ],
        800_00n,
      ),
    );
    assert.equal(booked.status, 'PART');
    assert.deepEqual(booked.transferStatuses, ['ACSC', 'ACSC', 'RJCT', 'RJCT']);
    assert.deepEqual(
      booked.transferReasons.map((r) => r?.slice(0, 4)),
      [undefined, undefined, 'AC01', 'AM02'],
    );
    assert.match(booked.reason ?? '', /^entries were rejected for 2 reasons.*the first: AC01/);
  });

  it('names the one reason when every rejected entry shares it, and none when all executed', () => {
    assert.equal(paymentReason([undefined, INSUFFICIENT_FUNDS, INSUFFICIENT_FUNDS]), INSUFFICIENT_FUNDS);
    assert.equal(paymentReason([undefined, undefined]), undefined);
    assert.equal(INSUFFICIENT_FUNDS.slice(0, 4), 'AM04');
    assert.equal(statusReason('MS03'), 'MS03 the bank rejected the payment');
  });
});
