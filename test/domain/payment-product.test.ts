import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CROSS_BORDER,
  DOMESTIC,
  GENERAL_CROSS_BORDER,
  SEPA,
  STRAKS,
  isPaymentProduct,
  productProblem,
} from '../../src/domain/payment-product.js';

describe('productProblem', () => {
  it('accepts the cross-border product as a single payment', () => {
    assert.equal(CROSS_BORDER, 'norwegian-cross-border-credit-transfers');
    assert.equal(productProblem('payments', CROSS_BORDER), undefined);
  });

  it('accepts the domestic product as a bulk payment', () => {
    assert.equal(DOMESTIC, 'norwegian-domestic-credit-transfers');
    assert.equal(productProblem('bulk-payments', DOMESTIC), undefined);
  });

  it('refuses the cross-border product as a bulk payment with PRODUCT_INVALID', () => {
    const problem = productProblem('bulk-payments', CROSS_BORDER);
    assert.equal(problem?.code, 'PRODUCT_INVALID');
    assert.equal(problem?.path, 'path:payment-product');
    assert.match(problem?.text ?? '', /offered as payments, not as bulk-payments/);
  });

  it('accepts every product of the platform as a single payment: NDCT, Straks, SEPA and the general cross-border product', () => {
    for (const product of [DOMESTIC, STRAKS, SEPA, GENERAL_CROSS_BORDER])
      assert.equal(productProblem('payments', product), undefined);
    assert.equal(STRAKS, 'instant-norwegian-domestic-credit-transfers-straks');
    assert.equal(SEPA, 'sepa-credit-transfers');
    assert.equal(GENERAL_CROSS_BORDER, 'cross-border-credit-transfers');
  });

  it('refuses Straks, SEPA and the general cross-border product as bulk payments with PRODUCT_INVALID', () => {
    for (const product of [STRAKS, SEPA, GENERAL_CROSS_BORDER])
      assert.equal(productProblem('bulk-payments', product)?.code, 'PRODUCT_INVALID');
  });

  it('offers the domestic credit transfer as a periodic payment (a standing order), and refuses the others with PRODUCT_INVALID', () => {
    assert.equal(productProblem('periodic-payments', DOMESTIC), undefined);
    for (const product of [CROSS_BORDER, STRAKS, SEPA, GENERAL_CROSS_BORDER])
      assert.equal(productProblem('periodic-payments', product)?.code, 'PRODUCT_INVALID', product);
  });

  it('refuses a product the bank does not offer with PRODUCT_UNKNOWN, in any service', () => {
    for (const service of ['payments', 'bulk-payments', 'periodic-payments']) {
      const problem = productProblem(service, 'instant-sepa-credit-transfers');
      assert.equal(problem?.code, 'PRODUCT_UNKNOWN', service);
      assert.equal(problem?.path, 'path:payment-product');
    }
  });

  it('does not take inherited object properties for products', () => {
    assert.equal(isPaymentProduct('toString'), false);
    assert.equal(productProblem('payments', 'constructor')?.code, 'PRODUCT_UNKNOWN');
    assert.equal(productProblem('payments', '__proto__')?.code, 'PRODUCT_UNKNOWN');
  });

  it('matches product names exactly', () => {
    assert.equal(productProblem('payments', 'Norwegian-Cross-Border-Credit-Transfers')?.code, 'PRODUCT_UNKNOWN');
  });
});
