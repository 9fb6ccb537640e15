import {
  CROSS_BORDER,
  DOMESTIC,
  GENERAL_CROSS_BORDER,
  type PaymentProduct,
  type PaymentService,
  SEPA,
  STRAKS,
} from '../payment-product.js';
import { type ProductContext, type ProductValidation, validateCrossBorderPayment } from './cross-border-payment.js';
import { validateDomesticBulkPayment } from './domestic-bulk-payment.js';
import { validateDomesticPayment, validateStraksPayment } from './domestic-payment.js';
import { validateGeneralCrossBorderPayment } from './general-cross-border-payment.js';
import { validatePeriodicPayment } from './periodic-payment.js';
import { validateSepaPayment } from './sepa-payment.js';

/** What a product of a service is, beyond its body's schema: adding a product is an entry here and its validator. */
export interface ProductRules {
  /** The rules of its body a schema cannot state, and the payment they make of it. */
  validate: (body: unknown, context: ProductContext) => ProductValidation;
  /** Executed at once when the PSU approves it (Straks), not by the batch run. */
  instant: boolean;
  /** May be signed in a signing basket (docs/decisions/0222). */
  inBasket: boolean;
  /** The text the PSU is told at the create (psuMessage). */
  psuMessage: 'cross-border' | 'domestic' | 'bulk' | 'standing-order';
  /**
   * transactionFeeIndicator: `priced`, true whatever the fee, as the platform answers its own products
   * (its recorded NDCT: true with NOK 0.00); `charged`, true only when the fee is more than zero, as the
   * specification defines it for its products (docs/decisions/0225).
   */
  feeIndicator: 'priced' | 'charged';
}

const RULES: Partial<Record<`${PaymentService} ${PaymentProduct}`, ProductRules>> = {
  [`payments ${CROSS_BORDER}`]: {
    validate: validateCrossBorderPayment,
    instant: false,
    inBasket: true,
    psuMessage: 'cross-border',
    feeIndicator: 'charged',
  },
  [`payments ${DOMESTIC}`]: {
    validate: validateDomesticPayment,
    instant: false,
    inBasket: true,
    psuMessage: 'domestic',
    feeIndicator: 'priced',
  },
  [`payments ${STRAKS}`]: {
    validate: validateStraksPayment,
    instant: true,
    inBasket: false,
    psuMessage: 'domestic',
    feeIndicator: 'priced',
  },
  [`payments ${SEPA}`]: {
    validate: validateSepaPayment,
    instant: false,
    inBasket: true,
    psuMessage: 'cross-border',
    feeIndicator: 'priced',
  },
  [`payments ${GENERAL_CROSS_BORDER}`]: {
    validate: validateGeneralCrossBorderPayment,
    instant: false,
    inBasket: true,
    psuMessage: 'cross-border',
    feeIndicator: 'priced',
  },
  // spec, rule 4: a periodic payment is never in a basket; its executions are not the batch's (rule 6).
  [`periodic-payments ${DOMESTIC}`]: {
    validate: validatePeriodicPayment,
    instant: false,
    inBasket: false,
    psuMessage: 'standing-order',
    feeIndicator: 'priced',
  },
  // spec, rule 4: a bulk payment is never in a basket.
  [`bulk-payments ${DOMESTIC}`]: {
    validate: validateDomesticBulkPayment,
    instant: false,
    inBasket: false,
    psuMessage: 'bulk',
    feeIndicator: 'charged',
  },
};

/** The rules of a product in a service; undefined for a form the bank does not offer (payment-product.ts says which). */
export function productRules(service: string, product: string): ProductRules | undefined {
  const key = `${service} ${product}`;
  return Object.hasOwn(RULES, key) ? RULES[key as keyof typeof RULES] : undefined;
}
