import type { Problem } from './api-error.js';

/** Payment services in the path: /v1/{service}/{product}. */
export const PAYMENT_SERVICES = ['payments', 'bulk-payments', 'periodic-payments'] as const;
export type PaymentService = (typeof PAYMENT_SERVICES)[number];

export const CROSS_BORDER = 'norwegian-cross-border-credit-transfers';
export const DOMESTIC = 'norwegian-domestic-credit-transfers';
export const STRAKS = 'instant-norwegian-domestic-credit-transfers-straks';
export const SEPA = 'sepa-credit-transfers';
export const GENERAL_CROSS_BORDER = 'cross-border-credit-transfers';
export type PaymentProduct =
  typeof CROSS_BORDER | typeof DOMESTIC | typeof STRAKS | typeof SEPA | typeof GENERAL_CROSS_BORDER;

/**
 * Which product this interface offers in which service: the specification's endpoints 2 and 3, and
 * the platform's single payments of every product (its developer portal, docs/decisions/0212).
 */
const OFFERED: Record<PaymentProduct, readonly PaymentService[]> = {
  [CROSS_BORDER]: ['payments'],
  [DOMESTIC]: ['payments', 'bulk-payments', 'periodic-payments'],
  [STRAKS]: ['payments'],
  [SEPA]: ['payments'],
  [GENERAL_CROSS_BORDER]: ['payments'],
};

export function isPaymentProduct(value: string): value is PaymentProduct {
  return Object.hasOwn(OFFERED, value);
}

/** PRODUCT_UNKNOWN (404) for a product the bank does not have; PRODUCT_INVALID (403) for one it has in another form. */
export function productProblem(service: string, product: string): Problem | undefined {
  if (!isPaymentProduct(product)) {
    const offered = Object.entries(OFFERED).map(([name, services]) => `${name} (${services.join(', ')})`);
    return {
      code: 'PRODUCT_UNKNOWN',
      path: 'path:payment-product',
      text: `payment product '${product}' is not offered; this interface offers ${offered.join(', ')}`,
    };
  }
  const services = OFFERED[product];
  if (!services.includes(service as PaymentService)) {
    return {
      code: 'PRODUCT_INVALID',
      path: 'path:payment-product',
      text: `${product} is offered as ${services.join(', ')}, not as ${service}`,
    };
  }
  return undefined;
}
