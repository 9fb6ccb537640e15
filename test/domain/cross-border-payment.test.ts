import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  REGULATORY_REPORTING_THRESHOLD_NOK_MINOR,
  validateCrossBorderPayment,
} from '../../src/domain/payments/cross-border-payment.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';

const CONTEXT = { today: '2026-11-21', rates: new ReferenceRates(SANDBOX_REFERENCE_RATES) };
const SE_IBAN = 'SE4550000000058398257466';

type Body = Record<string, unknown>;

/** A minimal valid body: NOK 150 000.00, so the regulatory reporting fields are present. */
function body(changes: Body = {}): Body {
  return {
    instructedAmount: { amount: '150000.00', currency: 'NOK' },
    creditorName: 'Svenska Leverantör AB',
    creditorAccount: { iban: SE_IBAN, currency: 'SEK' },
    debtorAccount: { bban: '12345678903', currency: 'NOK' },
    regulatoryReportingCode: '14',
    regulatoryReportingInformation: 'Import of goods',
    ...changes,
  };
}

function withoutRegulatoryReporting(changes: Body = {}): Body {
  const result = body(changes);
  delete result.regulatoryReportingCode;
  delete result.regulatoryReportingInformation;
  return result;
}

function codesAndPaths(value: unknown): [string, string | undefined][] {
  return validateCrossBorderPayment(value, CONTEXT).problems.map((problem) => [problem.code, problem.path]);
}

const REGULATORY_PROBLEMS: [string, string][] = [
  ['FORMAT_ERROR', '$.regulatoryReportingCode'],
  ['FORMAT_ERROR', '$.regulatoryReportingInformation'],
];

describe('validateCrossBorderPayment, a valid body', () => {
  it('passes a minimal valid body with no problems and no warnings', () => {
    const { problems, payment } = validateCrossBorderPayment(body(), CONTEXT);
    assert.deepEqual(problems, []);
    assert.ok(payment !== undefined);
    assert.deepEqual(payment.warnings, []);
    assert.deepEqual(payment.debtor, { bban: '12345678903', iban: undefined, currency: 'NOK' });
    assert.equal(payment.requestedExecutionDate, undefined);
    assert.equal(payment.transfers.length, 1);
    const [transfer] = payment.transfers;
    assert.deepEqual(transfer?.amount, { minor: 15_000_000n, currency: 'NOK' });
    assert.equal(transfer?.creditorName, 'Svenska Leverantör AB');
    assert.equal(transfer?.creditorAccount, SE_IBAN);
    assert.equal(transfer?.path, '$');
    assert.match(transfer?.duplicateKey ?? '', /^[0-9a-f]{64}$/);
  });

  it('charges NOK 100.00 without conversion for a NOK payment from a NOK account', () => {
    const fees = validateCrossBorderPayment(body(), CONTEXT).payment?.fees;
    assert.deepEqual(fees, { total: { minor: 10_000n, currency: 'NOK' }, charged: true, conversion: undefined });
  });

  it('adds the conversion fee on the NOK amount for a EUR payment from a NOK account', () => {
    const fees = validateCrossBorderPayment(
      body({ instructedAmount: { amount: '150000.00', currency: 'EUR' } }),
      CONTEXT,
    ).payment?.fees;
    // EUR 150 000.00 at 11.70 is NOK 1 755 000.00; 0.25 % of it is NOK 4 387.50.
    assert.deepEqual(fees?.conversion, { minor: 438_750n, currency: 'NOK' });
    assert.deepEqual(fees?.total, { minor: 448_750n, currency: 'NOK' });
  });

  it("names the creditor account by its IBAN, and counts the creditor's bank in the duplicate key", () => {
    const payment = validateCrossBorderPayment(body({ creditorAgent: 'essesessxxx' }), CONTEXT).payment;
    assert.equal(payment?.transfers[0]?.creditorAccount, SE_IBAN);
    const atAnotherBank = validateCrossBorderPayment(body({ creditorAgent: 'DNBANOKKXXX' }), CONTEXT).payment;
    assert.notEqual(atAnotherBank?.transfers[0]?.duplicateKey, payment?.transfers[0]?.duplicateKey);
  });

  it('keeps a valid requested execution date', () => {
    const { problems, payment } = validateCrossBorderPayment(body({ requestedExecutionDate: '2026-11-21' }), CONTEXT);
    assert.deepEqual(problems, []);
    assert.equal(payment?.requestedExecutionDate, '2026-11-21');
  });
});

describe('validateCrossBorderPayment, regulatory reporting', () => {
  it('has its threshold at NOK 100 000.00', () => {
    assert.equal(REGULATORY_REPORTING_THRESHOLD_NOK_MINOR, 10_000_000n);
  });

  it('requires both regulatory reporting fields at exactly NOK 100 000.00', () => {
    const value = withoutRegulatoryReporting({ instructedAmount: { amount: '100000.00', currency: 'NOK' } });
    assert.deepEqual(codesAndPaths(value), REGULATORY_PROBLEMS);
    assert.equal(validateCrossBorderPayment(value, CONTEXT).payment, undefined);
  });

  it('requires the one regulatory reporting field that is missing', () => {
    const value = body({ instructedAmount: { amount: '100000.00', currency: 'NOK' } });
    delete value.regulatoryReportingInformation;
    assert.deepEqual(codesAndPaths(value), [['FORMAT_ERROR', '$.regulatoryReportingInformation']]);
  });

  it('does not require them at NOK 99 999.99 and warns with PRODUCT_INVALID instead', () => {
    const { problems, payment } = validateCrossBorderPayment(
      withoutRegulatoryReporting({ instructedAmount: { amount: '99999.99', currency: 'NOK' } }),
      CONTEXT,
    );
    assert.deepEqual(problems, []);
    assert.equal(payment?.warnings.length, 1);
    const [warning] = payment?.warnings ?? [];
    assert.equal(warning?.category, 'WARNING');
    assert.equal(warning?.code, 'PRODUCT_INVALID');
    assert.equal(warning?.path, '$.instructedAmount');
  });

  it('requires them for EUR 8 547.01, which is NOK 100 000.02 at 11.70', () => {
    const { problems } = validateCrossBorderPayment(
      withoutRegulatoryReporting({ instructedAmount: { amount: '8547.01', currency: 'EUR' } }),
      CONTEXT,
    );
    assert.deepEqual(
      problems.map((problem) => [problem.code, problem.path]),
      REGULATORY_PROBLEMS,
    );
    assert.match(problems[0]!.text, /EUR 8547\.01 \(NOK 100000\.02 at the bank's reference rate\)/);
  });

  it('does not require them for EUR 8 547.00, which is NOK 99 999.90 at 11.70', () => {
    const { problems, payment } = validateCrossBorderPayment(
      withoutRegulatoryReporting({ instructedAmount: { amount: '8547.00', currency: 'EUR' } }),
      CONTEXT,
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(
      payment?.warnings.map((warning) => warning.code),
      ['PRODUCT_INVALID'],
    );
  });

  it('converts currencies with other minor units before comparing: JPY and KWD', () => {
    // JPY 1 408 451 at 0.071 is NOK 100 000.02; JPY 1 408 450 is NOK 99 999.95.
    assert.deepEqual(
      codesAndPaths(withoutRegulatoryReporting({ instructedAmount: { amount: '1408451', currency: 'JPY' } })),
      REGULATORY_PROBLEMS,
    );
    assert.deepEqual(
      codesAndPaths(withoutRegulatoryReporting({ instructedAmount: { amount: '1408450', currency: 'JPY' } })),
      [],
    );
    // KWD 2 840.910 at 35.20 is NOK 100 000.03; KWD 2 840.908 is NOK 99 999.96.
    assert.deepEqual(
      codesAndPaths(withoutRegulatoryReporting({ instructedAmount: { amount: '2840.910', currency: 'KWD' } })),
      REGULATORY_PROBLEMS,
    );
    assert.deepEqual(
      codesAndPaths(withoutRegulatoryReporting({ instructedAmount: { amount: '2840.908', currency: 'KWD' } })),
      [],
    );
  });

  it('compares the NOK amount rounded to whole øre with the threshold', () => {
    // KWD 2 840.909 at 35.20 is NOK 99 999.9968, which is NOK 100 000.00 in øre.
    assert.deepEqual(
      codesAndPaths(withoutRegulatoryReporting({ instructedAmount: { amount: '2840.909', currency: 'KWD' } })),
      REGULATORY_PROBLEMS,
    );
  });

  it('refuses a currency without a reference rate with PAYMENT_FAILED', () => {
    // The sandbox table has every currency; a bank's own table (REFERENCE_RATES) may lack one.
    const context = { ...CONTEXT, rates: new ReferenceRates({ EUR: '11.70' }) };
    const { problems, payment } = validateCrossBorderPayment(
      body({ instructedAmount: { amount: '500000.00', currency: 'AED' } }),
      context,
    );
    assert.deepEqual(
      problems.map((problem) => [problem.code, problem.path]),
      [['PAYMENT_FAILED', '$.instructedAmount.currency']],
    );
    assert.match(problems[0]!.text, /no reference rate for AED/);
    assert.equal(payment, undefined);
  });
});

describe('validateCrossBorderPayment, amount and date', () => {
  it('refuses an amount with more fraction digits than the currency has, at $.instructedAmount.amount', () => {
    assert.deepEqual(codesAndPaths(body({ instructedAmount: { amount: '150000.001', currency: 'NOK' } })), [
      ['FORMAT_ERROR', '$.instructedAmount.amount'],
    ]);
    assert.deepEqual(codesAndPaths(body({ instructedAmount: { amount: '1500000.5', currency: 'JPY' } })), [
      ['FORMAT_ERROR', '$.instructedAmount.amount'],
    ]);
  });

  it('refuses a zero amount', () => {
    assert.deepEqual(codesAndPaths(body({ instructedAmount: { amount: '0.00', currency: 'NOK' } })), [
      ['FORMAT_ERROR', '$.instructedAmount.amount'],
    ]);
  });

  it('refuses a requested execution date in the past or more than 365 days ahead', () => {
    assert.deepEqual(codesAndPaths(body({ requestedExecutionDate: '2026-11-20' })), [
      ['EXECUTION_DATE_INVALID', '$.requestedExecutionDate'],
    ]);
    assert.deepEqual(codesAndPaths(body({ requestedExecutionDate: '2027-11-22' })), [
      ['EXECUTION_DATE_INVALID', '$.requestedExecutionDate'],
    ]);
    assert.deepEqual(codesAndPaths(body({ requestedExecutionDate: '2027-11-21' })), []);
  });

  it('leaves a requested execution date that is not a calendar day to the schema', () => {
    assert.deepEqual(codesAndPaths(body({ requestedExecutionDate: '2020-02-30' })), []);
    assert.deepEqual(codesAndPaths(body({ requestedExecutionDate: '21.11.2020' })), []);
  });
});

describe('validateCrossBorderPayment, accounts and creditorAgent', () => {
  it('requires creditorAgent when creditorAccount has a bban only', () => {
    const value = body({ creditorAccount: { bban: '5000000005839825', currency: 'SEK' } });
    assert.deepEqual(codesAndPaths(value), [['FORMAT_ERROR', '$.creditorAgent']]);
    assert.deepEqual(codesAndPaths({ ...value, creditorAgent: 'ESSESESSXXX' }), []);
  });

  it('does not require creditorAgent when creditorAccount has an iban', () => {
    assert.deepEqual(codesAndPaths(body({ creditorAccount: { iban: SE_IBAN, currency: 'SEK' } })), []);
  });

  it('refuses a creditorAgent that is not a BIC', () => {
    assert.deepEqual(codesAndPaths(body({ creditorAgent: 'DNB' })), [['FORMAT_ERROR', '$.creditorAgent']]);
  });

  it('checks the creditor bban by MOD11 when creditorAgent is in Norway', () => {
    const creditorAgent = 'DNBANOKKXXX';
    assert.deepEqual(
      codesAndPaths(body({ creditorAgent, creditorAccount: { bban: '12345678904', currency: 'NOK' } })),
      [['FORMAT_ERROR', '$.creditorAccount.bban']],
    );
    assert.deepEqual(
      codesAndPaths(body({ creditorAgent, creditorAccount: { bban: '12345678903', currency: 'NOK' } })),
      [],
    );
  });

  it('does not check a creditor bban by MOD11 when creditorAgent is abroad', () => {
    assert.deepEqual(
      codesAndPaths(body({ creditorAgent: 'ESSESESSXXX', creditorAccount: { bban: '12345678904', currency: 'SEK' } })),
      [],
    );
  });

  it('refuses creditor and debtor accounts with neither bban nor iban, at the account', () => {
    assert.deepEqual(codesAndPaths(body({ creditorAccount: { currency: 'SEK' } })), [
      ['FORMAT_ERROR', '$.creditorAccount'],
    ]);
    assert.deepEqual(codesAndPaths(body({ debtorAccount: { currency: 'NOK' } })), [
      ['FORMAT_ERROR', '$.debtorAccount'],
    ]);
  });

  it('refuses a debtor account that is not Norwegian or fails MOD11', () => {
    assert.deepEqual(codesAndPaths(body({ debtorAccount: { iban: SE_IBAN, currency: 'SEK' } })), [
      ['FORMAT_ERROR', '$.debtorAccount.iban'],
    ]);
    assert.deepEqual(codesAndPaths(body({ debtorAccount: { bban: '12345678904', currency: 'NOK' } })), [
      ['FORMAT_ERROR', '$.debtorAccount.bban'],
    ]);
  });

  it('accepts a debtor account given by Norwegian IBAN', () => {
    const { problems, payment } = validateCrossBorderPayment(
      body({ debtorAccount: { iban: 'NO9386011117947', currency: 'NOK' } }),
      CONTEXT,
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(payment?.debtor, { bban: undefined, iban: 'NO9386011117947', currency: 'NOK' });
  });

  it('reports every problem of a body at once', () => {
    const value = withoutRegulatoryReporting({
      creditorAgent: 'DNB',
      debtorAccount: { bban: '12345678904', currency: 'NOK' },
      requestedExecutionDate: '2020-01-01',
    });
    assert.deepEqual(codesAndPaths(value), [
      ['FORMAT_ERROR', '$.creditorAgent'],
      ['FORMAT_ERROR', '$.debtorAccount.bban'],
      ['EXECUTION_DATE_INVALID', '$.requestedExecutionDate'],
      ...REGULATORY_PROBLEMS,
    ]);
  });
});

describe('validateCrossBorderPayment, duplicate keys', () => {
  const keyOf = (value: Body) => validateCrossBorderPayment(value, CONTEXT).payment?.transfers[0]?.duplicateKey;

  it('gives equal payments equal keys', () => {
    assert.equal(
      keyOf(body({ remittanceInformationUnstructured: 'Invoice 1' })),
      keyOf(body({ remittanceInformationUnstructured: 'Invoice 1' })),
    );
  });

  it('gives payments differing in amount, currency, creditor, debtor, date or remittance different keys', () => {
    const keys = [
      keyOf(body()),
      keyOf(body({ instructedAmount: { amount: '150000.01', currency: 'NOK' } })),
      keyOf(body({ instructedAmount: { amount: '150000.00', currency: 'SEK' } })),
      keyOf(body({ creditorAccount: { iban: 'DE89370400440532013000', currency: 'EUR' } })),
      keyOf(body({ debtorAccount: { bban: '86011117947', currency: 'NOK' } })),
      keyOf(body({ requestedExecutionDate: '2026-12-01' })),
      keyOf(body({ remittanceInformationUnstructured: 'Invoice 2' })),
    ];
    assert.ok(keys.every((key) => key !== undefined));
    assert.equal(new Set(keys).size, keys.length);
  });
});

describe('validateCrossBorderPayment, wrongly typed fields', () => {
  it('skips an amount given as a number without throwing or reporting it (the schema does)', () => {
    const { problems, payment } = validateCrossBorderPayment(
      body({ instructedAmount: { amount: 12, currency: 'NOK' } }),
      CONTEXT,
    );
    assert.deepEqual(problems, []);
    assert.equal(payment, undefined);
  });

  it('does not throw on bodies and fields of any type', () => {
    const values: unknown[] = [
      null,
      undefined,
      42,
      'text',
      [],
      [body()],
      body({ instructedAmount: 'NOK 100' }),
      body({ instructedAmount: { amount: '150000.00', currency: 578 } }),
      body({ instructedAmount: { amount: '150000.00', currency: 'XYZ' } }),
      body({ creditorAccount: 'SE45' }),
      body({ creditorAccount: { iban: 12, bban: [], currency: 'SEK' } }),
      body({ creditorAgent: 12, creditorAccount: { bban: '5000000005839825', currency: 'SEK' } }),
      body({ debtorAccount: null }),
      body({ debtorAccount: { bban: 12345678903, currency: 'NOK' } }),
      body({ requestedExecutionDate: 20261121 }),
      body({ requestedExecutionDate: '21.11.2026' }),
      body({ remittanceInformationUnstructured: { text: 'x' } }),
    ];
    for (const value of values) {
      assert.doesNotThrow(() => validateCrossBorderPayment(value, CONTEXT), JSON.stringify(value));
    }
  });

  it('reports nothing for a body that is not an object', () => {
    for (const value of [null, 42, 'text', []]) {
      assert.deepEqual(validateCrossBorderPayment(value, CONTEXT), { problems: [], payment: undefined });
    }
  });
});
