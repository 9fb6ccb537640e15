import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validatePeriodicPayment } from '../../src/domain/payments/periodic-payment.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';

const CONTEXT = { today: '2026-11-26', rates: new ReferenceRates(SANDBOX_REFERENCE_RATES) };

type Body = Record<string, unknown>;

function body(changes: Body = {}): Body {
  return {
    instructedAmount: { amount: '8500.00', currency: 'NOK' },
    creditorName: 'Fjellet Borettslag',
    creditorAccount: { bban: '12345678911', currency: 'NOK' },
    debtorAccount: { bban: '12345678903', currency: 'NOK' },
    remittanceInformationUnstructured: 'Husleie',
    startDate: '2026-12-01',
    frequency: 'Monthly',
    dayOfExecution: '20',
    executionRule: 'following',
    ...changes,
  };
}

function problems(value: Body): [string, string | undefined][] {
  return validatePeriodicPayment(value, CONTEXT).problems.map((p) => [p.code, p.path]);
}

describe('validatePeriodicPayment', () => {
  it('makes a standing order of a valid body: one transfer, no fee per execution, its first execution date as its date', () => {
    const { problems: found, payment } = validatePeriodicPayment(body(), CONTEXT);
    assert.deepEqual(found, []);
    assert.equal(payment?.requestedExecutionDate, '2026-12-21', '20 Dec 2026 is a Sunday');
    assert.deepEqual(
      payment?.transfers.map((t) => [t.amount.minor, t.creditorAccount, t.path]),
      [[850_000n, '12345678911', '$']],
    );
    assert.deepEqual(payment?.fees, { total: { minor: 0n, currency: 'NOK' }, charged: false, conversion: undefined });
  });

  it('release 1.18.0: refuses MonthlyVariable without monthsOfExecution, and monthsOfExecution with another frequency', () => {
    assert.deepEqual(problems(body({ frequency: 'MonthlyVariable' })), [['FORMAT_ERROR', '$.monthsOfExecution']]);
    assert.deepEqual(problems(body({ monthsOfExecution: ['1', '7'] })), [['FORMAT_ERROR', '$.monthsOfExecution']]);
    assert.deepEqual(problems(body({ frequency: 'MonthlyVariable', monthsOfExecution: ['1', '7'] })), []);
  });

  it('reads no schedule of MonthlyVariable with an empty monthsOfExecution, which the schema refuses: no problem of its own, no schedule', () => {
    const { problems: found, payment } = validatePeriodicPayment(
      body({ frequency: 'MonthlyVariable', monthsOfExecution: [] }),
      CONTEXT,
    );
    assert.equal(payment, undefined);
    assert.deepEqual(found, []);
  });

  it('refuses an endDate of the year 0000 or 0001 as before startDate, as any earlier date', () => {
    for (const endDate of ['0000-01-01', '0001-01-01', '0999-12-31'])
      assert.deepEqual(problems(body({ endDate })), [['FORMAT_ERROR', '$.endDate']], endDate);
  });

  it('release 1.18.1: refuses MonthlyVariable with a month named twice, naming monthsOfExecution and the month', () => {
    const { problems: found } = validatePeriodicPayment(
      body({ frequency: 'MonthlyVariable', monthsOfExecution: ['3', '9', '3'] }),
      CONTEXT,
    );
    assert.deepEqual(
      found.map((p) => [p.code, p.path]),
      [['FORMAT_ERROR', '$.monthsOfExecution']],
    );
    assert.match(found[0]!.text, /month 3 more than once/);
  });

  it("takes executionRule 'preceeding', the platform's spelling, as 'preceding'", () => {
    const preceding = validatePeriodicPayment(body({ executionRule: 'preceding' }), CONTEXT).payment;
    const platform = validatePeriodicPayment(body({ executionRule: 'preceeding' }), CONTEXT).payment;
    assert.equal(preceding?.requestedExecutionDate, '2026-12-18');
    assert.equal(platform?.requestedExecutionDate, '2026-12-18');
  });

  it('refuses a dayOfExecution that is no weekday for Weekly, and any for Daily', () => {
    assert.deepEqual(problems(body({ frequency: 'Weekly', dayOfExecution: '8' })), [
      ['FORMAT_ERROR', '$.dayOfExecution'],
    ]);
    assert.deepEqual(problems(body({ frequency: 'Weekly', dayOfExecution: '5' })), []);
    assert.deepEqual(problems(body({ frequency: 'Daily', dayOfExecution: '5' })), [
      ['FORMAT_ERROR', '$.dayOfExecution'],
    ]);
  });

  it('refuses a startDate in the past and an endDate before it, and an order with no execution between them', () => {
    assert.deepEqual(problems(body({ startDate: '2026-11-25' })), [['EXECUTION_DATE_INVALID', '$.startDate']]);
    assert.deepEqual(problems(body({ endDate: '2026-11-30' })), [['FORMAT_ERROR', '$.endDate']]);
    assert.deepEqual(problems(body({ endDate: '2026-12-15' })), [['FORMAT_ERROR', '$.endDate']]);
  });

  it('applies the domestic credit transfer rules: NOK, Norwegian accounts, a KID or a message but not both, every problem at once', () => {
    assert.deepEqual(
      problems(
        body({
          instructedAmount: { amount: '10.00', currency: 'SEK' },
          creditorAccount: { bban: '12345678912', currency: 'NOK' },
          remittanceInformationStructured: { reference: '12345678903', referenceType: 'SCOR' },
          frequency: 'MonthlyVariable',
        }),
      ),
      [
        ['FORMAT_ERROR', '$.instructedAmount.currency'],
        ['FORMAT_ERROR', '$.creditorAccount.bban'],
        ['FORMAT_ERROR', '$'],
        ['FORMAT_ERROR', '$.monthsOfExecution'],
      ],
    );
  });
});
