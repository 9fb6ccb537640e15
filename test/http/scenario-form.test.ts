import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SCENARIO_KINDS } from '../../src/domain/sandbox-scenarios.js';
import { SCENARIO_FIELDS, readScenarioForm } from '../../src/http/console-pages/scenario-form.js';

/** The console's scenario form read into the body POST /v1/sandbox/scenarios takes (src/http/console-pages/scenario-form.ts). */

const now = new Date('2026-11-26T10:00:00.000Z');
const operations = new Set(['getAccountList', 'initiatePaymentNorwegianDomesticCreditTransfers']);
const read = (kind: (typeof SCENARIO_KINDS)[number], form: Record<string, string>) =>
  readScenarioForm(kind, { kind, ...form }, now, operations);

describe('the console scenario form', () => {
  it('holds a payment for hours of the bank’s clock, matched by its account, amount and end-to-end id', () => {
    assert.deepEqual(
      read('payment-pending', {
        debtorBban: '15061012343',
        amount: '250.00',
        currency: 'nok',
        endToEnd: 'E2E-1',
        holdHours: '24',
        then: 'RJCT',
        reasonCode: 'AM04',
        reasonText: '',
        times: '2',
      }),
      {
        body: {
          kind: 'payment-pending',
          match: {
            debtorAccount: { bban: '15061012343' },
            instructedAmount: { amount: '250.00', currency: 'NOK' },
            endToEndIdentification: 'E2E-1',
          },
          until: '2026-11-27T10:00:00.000Z',
          then: 'RJCT',
          reasonCode: 'AM04',
          times: 2,
        },
      },
    );
  });

  it('gives no reason to a payment that settles, and no match when the fields are empty', () => {
    assert.deepEqual(read('payment-held', { debtorBban: '', amount: '', holdHours: '1', times: '' }), {
      body: { kind: 'payment-held', until: '2026-11-26T11:00:00.000Z' },
    });
    assert.deepEqual(read('payment-pending', { holdHours: '1', then: 'ACSC', reasonCode: 'AC06' }), {
      body: { kind: 'payment-pending', until: '2026-11-26T11:00:00.000Z', then: 'ACSC' },
    });
  });

  it('opens a maintenance window from minutes ahead, for minutes; names an operation or every one', () => {
    assert.deepEqual(read('bank-maintenance', { operationId: '', startsInMinutes: '30', lastsMinutes: '60' }), {
      body: { kind: 'bank-maintenance', from: '2026-11-26T10:30:00.000Z', until: '2026-11-26T11:30:00.000Z' },
    });
    assert.deepEqual(read('bank-slow', { operationId: 'getAccountList', delayMs: '5000', unlimited: 'yes' }), {
      body: { kind: 'bank-slow', operationId: 'getAccountList', delayMs: 5000, times: 'unlimited' },
    });
  });

  it('names each field that is not as the form asks, and takes only the fields of the kind', () => {
    assert.deepEqual(read('payment-rejected', { debtorBban: '1506', amount: '1,5', reasonCode: 'XX99', times: '0' }), {
      wrong: ['debtorBban', 'amount', 'reasonCode', 'times'],
    });
    assert.deepEqual(read('bank-error', { operationId: '' }), { wrong: ['operationId'] });
    assert.deepEqual(read('bank-throttled', { operationId: 'getSandboxClock', retryAfterSeconds: '3601' }), {
      wrong: ['operationId', 'retryAfterSeconds'],
    });
    for (const kind of SCENARIO_KINDS) {
      const reading = read(kind, {
        debtorBban: '15061012343',
        operationId: 'getAccountList',
        delayMs: '1',
        holdHours: '1',
        retryAfterSeconds: '1',
        startsInMinutes: '0',
        lastsMinutes: '1',
        reasonCode: 'MS03',
        then: 'RJCT',
      });
      assert.ok('body' in reading, kind);
      const fields = new Set(['kind', 'match', 'until', 'from', ...SCENARIO_FIELDS[kind]]);
      for (const field of Object.keys(reading.body)) assert.ok(fields.has(field), `${kind} takes no ${field}`);
    }
  });
});
