import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CoreReport } from '../../src/core/core-records.js';
import { reportFromWire, reportToWire, statusReportsFromWire } from '../../src/core/http/core-wire.js';
import { ContractViolation, amount, reasonText, wireReason } from '../../src/core/http/wire-values.js';

const REPORT: CoreReport = {
  paymentId: 'p1',
  transactionStatus: 'PART',
  statusReason: undefined,
  entries: [
    { seq: 0, status: 'ACSC', statusReason: undefined },
    { seq: 1, status: 'RJCT', statusReason: 'AM04 insufficient funds' },
  ],
  executions: undefined,
  nextExecutionDate: undefined,
  at: new Date('2026-11-29T10:00:00.000Z'),
};

describe('the contract on the wire', () => {
  it('maps the server’s reasons to ISO 20022 {code, text} and back', () => {
    assert.deepEqual(wireReason('AM04 insufficient funds'), { code: 'AM04', text: 'insufficient funds' });
    assert.deepEqual(wireReason('not authorised in time'), { code: 'NARR', text: 'not authorised in time' });
    assert.equal(reasonText({ code: 'AM04', text: 'insufficient funds' }), 'AM04 insufficient funds');
    assert.equal(reasonText({ code: 'NARR', text: 'not authorised in time' }), 'not authorised in time');
    assert.equal(reasonText({ code: 'AC01', text: '' }), 'AC01');
  });

  it('reads amounts as text into minor units, never through a float', () => {
    assert.deepEqual(amount({ a: { amount: '120.00', currency: 'NOK' } }, 'a', 'x'), {
      minor: 12_000n,
      currency: 'NOK',
    });
    assert.deepEqual(amount({ a: { amount: '-0.5', currency: 'NOK' } }, 'a', 'x'), { minor: -50n, currency: 'NOK' });
    assert.deepEqual(
      amount({ a: { amount: '9007199254740993.00', currency: 'NOK' } }, 'a', 'x').minor,
      900719925474099300n,
    );
    assert.throws(() => amount({ a: { amount: 120, currency: 'NOK' } }, 'a', 'x'), ContractViolation);
    assert.throws(() => amount({ a: { amount: '1.001', currency: 'NOK' } }, 'a', 'x'), ContractViolation);
    assert.throws(() => amount({ a: { amount: '1.5', currency: 'JPY' } }, 'a', 'x'), ContractViolation);
    assert.throws(() => amount({ a: { amount: '1.00', currency: 'XXY' } }, 'a', 'x'), ContractViolation);
  });

  it('writes a report and reads it back the same; the ledger’s ACTC is the core’s ACSP', () => {
    assert.deepEqual(reportFromWire(JSON.parse(JSON.stringify(reportToWire(REPORT)))), REPORT);
    const authorised = reportToWire({ ...REPORT, transactionStatus: 'ACTC', entries: undefined });
    assert.equal(authorised['transactionStatus'], 'ACSP');
  });

  it('reads the callback’s body, and refuses one that is not the contract', () => {
    const body = { reports: [reportToWire(REPORT)] };
    assert.deepEqual(statusReportsFromWire(JSON.parse(JSON.stringify(body))), [REPORT]);
    assert.throws(() => statusReportsFromWire({ reports: [] }), ContractViolation);
    assert.throws(
      () => statusReportsFromWire({ reports: [{ ...reportToWire(REPORT), transactionStatus: 'DONE' }] }),
      ContractViolation,
    );
    assert.throws(() => statusReportsFromWire([]), ContractViolation);
  });
});
