import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entriesOf } from '../../src/domain/payments/transfer-entries.js';

describe('entriesOf', () => {
  it('reads the one transfer of a single payment, its endToEndIdentification with it (release 1.21.18)', () => {
    assert.deepEqual(
      entriesOf(
        {
          remittanceInformationUnstructured: 'Invoice 12',
          ultimateDebtor: 'Kari',
          purposeCode: 'SALA',
          endToEndIdentification: 'E2E-12',
        },
        'payments',
      ),
      [{ remittance: 'Invoice 12', ultimateDebtor: 'Kari', purposeCode: 'SALA', endToEndId: 'E2E-12' }],
    );
  });

  it('reads each entry of a bulk in order, structured references joined, absent fields empty', () => {
    const body = {
      payments: [
        {
          remittanceInformationStructured: { reference: '1234567890128', referenceType: 'SCOR' },
          remittanceInformationStructuredArray: [{ reference: 'INV-1' }, { referenceType: 'SCOR' }],
        },
        { remittanceInformationUnstructured: 'Rent' },
      ],
    };
    assert.deepEqual(entriesOf(body, 'bulk-payments'), [
      { remittance: '1234567890128 INV-1', ultimateDebtor: '', purposeCode: '', endToEndId: '' },
      { remittance: 'Rent', ultimateDebtor: '', purposeCode: '', endToEndId: '' },
    ]);
  });
});
