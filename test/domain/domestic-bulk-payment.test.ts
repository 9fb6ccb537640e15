import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mod11CheckDigit } from '../../src/domain/kid.js';
import { validateDomesticBulkPayment } from '../../src/domain/payments/domestic-bulk-payment.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';

const CONTEXT = { today: '2026-11-21', rates: new ReferenceRates(SANDBOX_REFERENCE_RATES) };
const CREDITORS = ['12345678911', '12345678938', '12345678946'];

type Body = Record<string, unknown>;

function entry(index: number, changes: Body = {}): Body {
  return {
    instructedAmount: { amount: `${100 + index}.50`, currency: 'NOK' },
    creditorName: `Kreditor ${index}`,
    creditorAccount: { bban: CREDITORS[index % CREDITORS.length], currency: 'NOK' },
    creditorAddress: { street: 'Storgata', buildingNumber: '1', postalCode: '0155', city: 'Oslo', country: 'NO' },
    remittanceInformationUnstructured: `Faktura ${index}`,
    ...changes,
  };
}

/** An entry with structured remittance only. */
function structuredEntry(index: number, structured: Body): Body {
  const result = entry(index, structured);
  delete result.remittanceInformationUnstructured;
  return result;
}

function body(payments: unknown[] = [entry(0), entry(1)], changes: Body = {}): Body {
  return {
    paymentInformationId: 'PI-1',
    debtorAccount: { bban: '12345678903', currency: 'NOK' },
    payments,
    ...changes,
  };
}

function codesAndPaths(value: unknown): [string, string | undefined][] {
  return validateDomesticBulkPayment(value, CONTEXT).problems.map((problem) => [problem.code, problem.path]);
}

describe('validateDomesticBulkPayment, a valid body', () => {
  it('passes a minimal valid body with no problems, one transfer per entry and no fee', () => {
    const { problems, payment } = validateDomesticBulkPayment(body(), CONTEXT);
    assert.deepEqual(problems, []);
    assert.ok(payment !== undefined);
    assert.deepEqual(payment.debtor, { bban: '12345678903', iban: undefined, currency: 'NOK' });
    assert.deepEqual(payment.warnings, []);
    assert.deepEqual(payment.fees, { total: { minor: 0n, currency: 'NOK' }, charged: false, conversion: undefined });
    assert.deepEqual(
      payment.transfers.map((t) => [t.path, t.amount.minor, t.amount.currency, t.creditorAccount, t.creditorName]),
      [
        ['$.payments[0]', 10_050n, 'NOK', '12345678911', 'Kreditor 0'],
        ['$.payments[1]', 10_150n, 'NOK', '12345678938', 'Kreditor 1'],
      ],
    );
  });

  it('passes entries without any remittance information', () => {
    const plain = entry(0);
    delete plain.remittanceInformationUnstructured;
    assert.deepEqual(codesAndPaths(body([plain])), []);
  });

  it('passes an entry with a valid KID in the single structured field or in the array', () => {
    const mod10 = '2345676';
    const mod11 = '12345678903';
    const dash = `1234567892${mod11CheckDigit('1234567892')}`;
    assert.equal(dash, '1234567892-');
    assert.deepEqual(
      codesAndPaths(
        body([
          structuredEntry(0, { remittanceInformationStructured: { reference: mod10, referenceType: 'SCOR' } }),
          structuredEntry(1, { remittanceInformationStructured: { reference: mod11 } }),
          structuredEntry(2, {
            remittanceInformationStructuredArray: [
              { reference: dash, referenceType: 'SCOR' },
              { reference: 'INV-2026-17', referenceType: 'CINV' },
            ],
          }),
        ]),
      ),
      [],
    );
  });

  it('keeps a valid requested execution date', () => {
    const { problems, payment } = validateDomesticBulkPayment(
      body(undefined, { requestedExecutionDate: '2027-11-21' }),
      CONTEXT,
    );
    assert.deepEqual(problems, []);
    assert.equal(payment?.requestedExecutionDate, '2027-11-21');
  });
});

describe('validateDomesticBulkPayment, remittance information', () => {
  it('refuses an entry with structured and unstructured remittance information, at the entry', () => {
    assert.deepEqual(
      codesAndPaths(body([entry(0), entry(1, { remittanceInformationStructured: { reference: '2345676' } })])),
      [['FORMAT_ERROR', '$.payments[1]']],
    );
    assert.deepEqual(
      codesAndPaths(body([entry(0, { remittanceInformationStructuredArray: [{ reference: '2345676' }] })])),
      [['FORMAT_ERROR', '$.payments[0]']],
    );
  });

  it('refuses an entry with both the single structured field and the array', () => {
    const both = structuredEntry(0, {
      remittanceInformationStructured: { reference: '2345676' },
      remittanceInformationStructuredArray: [{ reference: '2345676' }],
    });
    assert.deepEqual(codesAndPaths(body([both])), [['FORMAT_ERROR', '$.payments[0].remittanceInformationStructured']]);
  });

  it('refuses a bad KID with KID_INVALID when referenceType is SCOR, KID, OCR (any case) or absent', () => {
    for (const structured of [
      { reference: '2345675', referenceType: 'SCOR' },
      { reference: '2345675' },
      { reference: '2345675', referenceType: 'kid' },
      { reference: '2345675', referenceType: 'OCR' },
    ]) {
      assert.deepEqual(
        codesAndPaths(body([structuredEntry(0, { remittanceInformationStructured: structured })])),
        [['KID_INVALID', '$.payments[0].remittanceInformationStructured.reference']],
        JSON.stringify(structured),
      );
    }
  });

  it('refuses KIDs that are not digits or have the wrong length', () => {
    for (const reference of ['INV-17', '7', '1'.repeat(26), '2345 676']) {
      assert.deepEqual(
        codesAndPaths(
          body([structuredEntry(0, { remittanceInformationStructured: { reference, referenceType: 'SCOR' } })]),
        ),
        [['KID_INVALID', '$.payments[0].remittanceInformationStructured.reference']],
        reference,
      );
    }
  });

  it('refuses a bad KID in the array at the path of its item', () => {
    const value = body([
      structuredEntry(0, {
        remittanceInformationStructuredArray: [
          { reference: '2345676', referenceType: 'SCOR' },
          { reference: '12345678904', referenceType: 'SCOR' },
        ],
      }),
    ]);
    assert.deepEqual(codesAndPaths(value), [
      ['KID_INVALID', '$.payments[0].remittanceInformationStructuredArray[1].reference'],
    ]);
  });

  it('does not check a reference of another type, such as CINV, as a KID', () => {
    assert.deepEqual(
      codesAndPaths(
        body([
          structuredEntry(0, { remittanceInformationStructured: { reference: 'INV-2026-17', referenceType: 'CINV' } }),
        ]),
      ),
      [],
    );
    assert.deepEqual(
      codesAndPaths(
        body([
          structuredEntry(0, { remittanceInformationStructured: { reference: '2345675', referenceType: 'CINV' } }),
        ]),
      ),
      [],
    );
  });
});

describe('validateDomesticBulkPayment, currency and accounts', () => {
  it('refuses an entry amount in another currency than NOK', () => {
    assert.deepEqual(codesAndPaths(body([entry(0, { instructedAmount: { amount: '100.50', currency: 'EUR' } })])), [
      ['FORMAT_ERROR', '$.payments[0].instructedAmount.currency'],
    ]);
  });

  it('refuses a creditor account in another currency than NOK', () => {
    assert.deepEqual(codesAndPaths(body([entry(0, { creditorAccount: { bban: '12345678911', currency: 'SEK' } })])), [
      ['FORMAT_ERROR', '$.payments[0].creditorAccount.currency'],
    ]);
  });

  it('refuses a debtor account in another currency than NOK', () => {
    assert.deepEqual(codesAndPaths(body(undefined, { debtorAccount: { bban: '12345678903', currency: 'EUR' } })), [
      ['FORMAT_ERROR', '$.debtorAccount.currency'],
    ]);
  });

  it('refuses creditor and debtor BBANs that fail MOD11', () => {
    assert.deepEqual(codesAndPaths(body([entry(0, { creditorAccount: { bban: '12345678904', currency: 'NOK' } })])), [
      ['FORMAT_ERROR', '$.payments[0].creditorAccount.bban'],
    ]);
    assert.deepEqual(codesAndPaths(body(undefined, { debtorAccount: { bban: '12345678904', currency: 'NOK' } })), [
      ['FORMAT_ERROR', '$.debtorAccount.bban'],
    ]);
  });

  it('reads only the bban of a creditor account: an iban there is not checked, and a missing bban is left to the schema', () => {
    assert.deepEqual(
      codesAndPaths(
        body([entry(0, { creditorAccount: { bban: '12345678911', iban: 'NO9486011117947', currency: 'NOK' } })]),
      ),
      [],
    );
    assert.deepEqual(
      codesAndPaths(body([entry(0, { creditorAccount: { iban: 'NO9386011117947', currency: 'NOK' } })])),
      [],
    );
    assert.deepEqual(codesAndPaths(body([entry(0, { creditorAccount: { currency: 'NOK' } })])), []);
  });

  it('leaves a debtor account without bban to the schema', () => {
    assert.deepEqual(codesAndPaths(body(undefined, { debtorAccount: { currency: 'NOK' } })), []);
  });

  it('leaves a requested execution date that is not a calendar day to the schema', () => {
    assert.deepEqual(codesAndPaths(body(undefined, { requestedExecutionDate: '2020-02-30' })), []);
    assert.deepEqual(codesAndPaths(body(undefined, { requestedExecutionDate: '2020-1-1' })), []);
  });

  it('refuses an entry amount with more fraction digits than NOK has', () => {
    assert.deepEqual(codesAndPaths(body([entry(0, { instructedAmount: { amount: '100.505', currency: 'NOK' } })])), [
      ['FORMAT_ERROR', '$.payments[0].instructedAmount.amount'],
    ]);
  });

  it('refuses a requested execution date in the past', () => {
    assert.deepEqual(codesAndPaths(body(undefined, { requestedExecutionDate: '2026-11-20' })), [
      ['EXECUTION_DATE_INVALID', '$.requestedExecutionDate'],
    ]);
  });

  it('reports the problems of every entry at once', () => {
    const value = body([
      entry(0, { instructedAmount: { amount: '1.00', currency: 'EUR' } }),
      entry(1),
      entry(2, { creditorAccount: { bban: '12345678904', currency: 'NOK' } }),
    ]);
    assert.deepEqual(codesAndPaths(value), [
      ['FORMAT_ERROR', '$.payments[0].instructedAmount.currency'],
      ['FORMAT_ERROR', '$.payments[2].creditorAccount.bban'],
    ]);
    assert.equal(validateDomesticBulkPayment(value, CONTEXT).payment, undefined);
  });
});

describe('validateDomesticBulkPayment, equal entries', () => {
  it('refuses a second entry equal to the first, at the path of the second naming the first', () => {
    const { problems, payment } = validateDomesticBulkPayment(body([entry(0), entry(1), entry(0)]), CONTEXT);
    assert.deepEqual(
      problems.map((problem) => [problem.code, problem.path]),
      [['FORMAT_ERROR', '$.payments[2]']],
    );
    assert.match(problems[0]!.text, /\$\.payments\[2\] is equal to \$\.payments\[0\]/);
    assert.equal(payment, undefined);
  });

  it('takes entries differing only in creditor name or in case and spacing of the message for equal', () => {
    const twin = entry(0, { creditorName: 'Another name', remittanceInformationUnstructured: '  FAKTURA   0 ' });
    assert.deepEqual(codesAndPaths(body([entry(0), twin])), [['FORMAT_ERROR', '$.payments[1]']]);
  });

  it('takes entries with the same KID for equal', () => {
    const kid = { remittanceInformationStructured: { reference: '2345676', referenceType: 'SCOR' } };
    assert.deepEqual(codesAndPaths(body([structuredEntry(0, kid), structuredEntry(0, kid)])), [
      ['FORMAT_ERROR', '$.payments[1]'],
    ]);
  });

  it('accepts entries differing only in amount, creditor account or remittance', () => {
    assert.deepEqual(
      codesAndPaths(
        body([
          entry(0),
          entry(0, { instructedAmount: { amount: '100.51', currency: 'NOK' } }),
          entry(0, { creditorAccount: { bban: '12345678954', currency: 'NOK' } }),
          entry(0, { remittanceInformationUnstructured: 'Faktura 0b' }),
          structuredEntry(0, { remittanceInformationStructured: { reference: '2345676' } }),
          structuredEntry(0, { remittanceInformationStructured: { reference: '12345678903' } }),
        ]),
      ),
      [],
    );
  });

  it('gives the entries of a bulk different duplicate keys, and the same entries the same keys again', () => {
    const first = validateDomesticBulkPayment(body([entry(0), entry(1), entry(2)]), CONTEXT).payment;
    const again = validateDomesticBulkPayment(body([entry(0), entry(1), entry(2)]), CONTEXT).payment;
    const keys = first?.transfers.map((t) => t.duplicateKey) ?? [];
    assert.equal(keys.length, 3);
    assert.equal(new Set(keys).size, 3);
    assert.deepEqual(
      again?.transfers.map((t) => t.duplicateKey),
      keys,
    );
  });

  it('gives an entry a different key on another execution date or from another debtor account', () => {
    const keyOf = (changes: Body) =>
      validateDomesticBulkPayment(body([entry(0)], changes), CONTEXT).payment?.transfers[0]?.duplicateKey;
    const keys = [
      keyOf({}),
      keyOf({ requestedExecutionDate: '2026-12-01' }),
      keyOf({ debtorAccount: { bban: '86011117947', currency: 'NOK' } }),
    ];
    assert.ok(keys.every((key) => key !== undefined));
    assert.equal(new Set(keys).size, 3);
  });
});

describe('validateDomesticBulkPayment, wrongly typed fields', () => {
  it('skips an amount given as a number without throwing or reporting it (the schema does)', () => {
    const { problems, payment } = validateDomesticBulkPayment(
      body([entry(0, { instructedAmount: { amount: 12, currency: 'NOK' } }), entry(1)]),
      CONTEXT,
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(
      payment?.transfers.map((t) => t.path),
      ['$.payments[1]'],
    );
  });

  it('does not throw on bodies and fields of any type', () => {
    const values: unknown[] = [
      null,
      undefined,
      42,
      'text',
      [],
      body('not an array' as unknown as unknown[]),
      body([null, 42, 'entry', [entry(0)]]),
      body([entry(0, { instructedAmount: [] })]),
      body([entry(0, { creditorAccount: '12345678911' })]),
      body([entry(0, { creditorAccount: { bban: 12345678911, currency: 578 } })]),
      body([entry(0, { remittanceInformationUnstructured: 17 })]),
      body([structuredEntry(0, { remittanceInformationStructured: '2345676' })]),
      body([structuredEntry(0, { remittanceInformationStructured: { reference: 2345676, referenceType: 7 } })]),
      body([structuredEntry(0, { remittanceInformationStructuredArray: [null, 1, '2345676', { reference: [] }] })]),
      body([structuredEntry(0, { remittanceInformationStructuredArray: { reference: '2345676' } })]),
      body(undefined, { debtorAccount: 'NO' }),
      body(undefined, { debtorAccount: { bban: 12345678903, currency: 'NOK' } }),
      body(undefined, { requestedExecutionDate: 20261121 }),
    ];
    for (const value of values) {
      assert.doesNotThrow(() => validateDomesticBulkPayment(value, CONTEXT), JSON.stringify(value));
    }
  });

  it('skips entries that are not objects', () => {
    const { problems, payment } = validateDomesticBulkPayment(body([null, 42, entry(0)]), CONTEXT);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      payment?.transfers.map((t) => t.path),
      ['$.payments[2]'],
    );
  });
});
