import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CONVERSION_FEE_BASIS_POINTS,
  CONVERSION_FEE_MINIMUM_NOK_MINOR,
  CROSS_BORDER_FEE_NOK_MINOR,
  GENERAL_CROSS_BORDER_FEE_NOK_MINOR,
  SEPA_FEE_NOK_MINOR,
  crossBorderFees,
  domesticBulkFees,
  domesticFees,
  straksFees,
  transferFees,
} from '../../src/domain/fee-schedule.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';

const rates = new ReferenceRates(SANDBOX_REFERENCE_RATES);

describe('fee schedule constants', () => {
  it('are NOK 100.00 per transfer, 0.25 % for conversion, at least NOK 25.00', () => {
    assert.equal(CROSS_BORDER_FEE_NOK_MINOR, 10_000n);
    assert.equal(CONVERSION_FEE_BASIS_POINTS, 25n);
    assert.equal(CONVERSION_FEE_MINIMUM_NOK_MINOR, 2_500n);
  });
});

describe('crossBorderFees', () => {
  it("charges NOK 100.00 and no conversion when the instructed currency is the debtor account's", () => {
    const fees = crossBorderFees({ minor: 15_000_000n, currency: 'NOK' }, 15_000_000n, 'NOK');
    assert.deepEqual(fees, { total: { minor: 10_000n, currency: 'NOK' }, charged: true, conversion: undefined });
  });

  it('charges no conversion for a EUR payment from a EUR account', () => {
    const fees = crossBorderFees({ minor: 15_000_000n, currency: 'EUR' }, 175_500_000n, 'EUR');
    assert.equal(fees.conversion, undefined);
    assert.deepEqual(fees.total, { minor: 10_000n, currency: 'NOK' });
  });

  it('adds 0.25 % of the NOK amount when the currencies differ: EUR 150 000.00 from a NOK account', () => {
    const nok = rates.toNokMinor(15_000_000n, 'EUR')!;
    const fees = crossBorderFees({ minor: 15_000_000n, currency: 'EUR' }, nok, 'NOK');
    // 0.25 % of NOK 1 755 000.00 is NOK 4 387.50.
    assert.deepEqual(fees.conversion, { minor: 438_750n, currency: 'NOK' });
    assert.deepEqual(fees.total, { minor: 448_750n, currency: 'NOK' });
    assert.equal(fees.charged, true);
  });

  it('charges the conversion fee on a NOK payment from a foreign-currency account as well', () => {
    const fees = crossBorderFees({ minor: 20_000_000n, currency: 'NOK' }, 20_000_000n, 'EUR');
    assert.deepEqual(fees.conversion, { minor: 50_000n, currency: 'NOK' });
    assert.deepEqual(fees.total, { minor: 60_000n, currency: 'NOK' });
  });

  it('applies the minimum conversion fee of NOK 25.00 to small amounts', () => {
    // EUR 100.00 is NOK 1 170.00; 0.25 % would be NOK 2.93.
    const fees = crossBorderFees({ minor: 10_000n, currency: 'EUR' }, 117_000n, 'NOK');
    assert.deepEqual(fees.conversion, { minor: 2_500n, currency: 'NOK' });
    assert.deepEqual(fees.total, { minor: 12_500n, currency: 'NOK' });
  });

  it('switches from the minimum to the percentage at NOK 10 000.00', () => {
    assert.equal(crossBorderFees({ minor: 1n, currency: 'EUR' }, 999_999n, 'NOK').conversion?.minor, 2_500n);
    assert.equal(crossBorderFees({ minor: 1n, currency: 'EUR' }, 1_000_000n, 'NOK').conversion?.minor, 2_500n);
    assert.equal(crossBorderFees({ minor: 1n, currency: 'EUR' }, 1_000_400n, 'NOK').conversion?.minor, 2_501n);
  });

  it('rounds the percentage half up to whole øre', () => {
    // 0.25 % of 1 000 200 øre is 2 500.5 øre; of 1 000 199 øre, 2 500.4975.
    assert.equal(crossBorderFees({ minor: 1n, currency: 'EUR' }, 1_000_200n, 'NOK').conversion?.minor, 2_501n);
    assert.equal(crossBorderFees({ minor: 1n, currency: 'EUR' }, 1_000_199n, 'NOK').conversion?.minor, 2_500n);
  });
});

describe('domesticBulkFees', () => {
  it('is NOK 0 and not charged', () => {
    assert.deepEqual(domesticBulkFees(), {
      total: { minor: 0n, currency: 'NOK' },
      charged: false,
      conversion: undefined,
    });
  });
});

describe('the fees of the single payments of issue 30', () => {
  it('charges NDCT nothing, Straks NOK 10.00, SEPA NOK 15.00 and the general cross-border product NOK 50.00, plus conversion from another currency', () => {
    assert.deepEqual(domesticFees(), { total: { minor: 0n, currency: 'NOK' }, charged: false, conversion: undefined });
    assert.deepEqual(straksFees().total, { minor: 1_000n, currency: 'NOK' });
    assert.equal(straksFees().charged, true);
    const sepa = transferFees(SEPA_FEE_NOK_MINOR, { minor: 10_000n, currency: 'EUR' }, 117_000n, 'NOK');
    assert.deepEqual(sepa.total, { minor: 4_000n, currency: 'NOK' });
    assert.deepEqual(transferFees(SEPA_FEE_NOK_MINOR, { minor: 10_000n, currency: 'EUR' }, 117_000n, 'EUR').total, {
      minor: 1_500n,
      currency: 'NOK',
    });
    assert.equal(
      transferFees(GENERAL_CROSS_BORDER_FEE_NOK_MINOR, { minor: 100n, currency: 'NOK' }, 100n, 'NOK').total.minor,
      5_000n,
    );
  });
});
