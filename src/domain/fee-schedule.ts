import type { Currency } from './currency.js';
import type { Money } from './money.js';

/**
 * The fee schedule (docs/fees.md). Fees are charged in kroner on the debtor account.
 * - Cross-border transfer (norwegian-cross-border-credit-transfers): NOK 100.00 per payment (the
 *   bank's SWIFT transfer fee).
 * - The general cross-border product (cross-border-credit-transfers, under NOK 100 000): NOK 50.00,
 *   as the platform's banks price a standard foreign payment below the large-amount product.
 * - SEPA credit transfer: NOK 15.00, the price Norwegian banks put on a euro payment within SEPA.
 * - Currency conversion, when the instructed currency differs from the debtor account's: 0.25 % of
 *   the amount at the reference rate, at least NOK 25.00 (each of the three above).
 * - Straks (instant domestic): NOK 10.00 per payment, as KLP, a bank of the platform, charges
 *   (docs/fees.md; docs/platform-research.md, KLP).
 * - Domestic credit transfers, single or in a bulk payment: free, as in the bank's online banking
 *   and the platform's recorded answer (NOK 0.00).
 */
export const CROSS_BORDER_FEE_NOK_MINOR = 10_000n;
export const GENERAL_CROSS_BORDER_FEE_NOK_MINOR = 5_000n;
export const SEPA_FEE_NOK_MINOR = 1_500n;
export const STRAKS_FEE_NOK_MINOR = 1_000n;
export const CONVERSION_FEE_BASIS_POINTS = 25n;
export const CONVERSION_FEE_MINIMUM_NOK_MINOR = 2_500n;

export interface Fees {
  total: Money;
  /** Whether the payment incurs a fee (transactionFeeIndicator). */
  charged: boolean;
  conversion: Money | undefined;
}

export function crossBorderFees(instructed: Money, amountNokMinor: bigint, debtorCurrency: Currency): Fees {
  return transferFees(CROSS_BORDER_FEE_NOK_MINOR, instructed, amountNokMinor, debtorCurrency);
}

/** A transfer fee of `feeNokMinor`, plus the conversion fee when the debtor account's currency is not the instructed one. */
export function transferFees(
  feeNokMinor: bigint,
  instructed: Money,
  amountNokMinor: bigint,
  debtorCurrency: Currency,
): Fees {
  let total = feeNokMinor;
  let conversion: Money | undefined;
  if (instructed.currency !== debtorCurrency) {
    const percentage = (amountNokMinor * CONVERSION_FEE_BASIS_POINTS * 2n + 10_000n) / 20_000n;
    const fee = percentage > CONVERSION_FEE_MINIMUM_NOK_MINOR ? percentage : CONVERSION_FEE_MINIMUM_NOK_MINOR;
    conversion = { minor: fee, currency: 'NOK' };
    total += fee;
  }
  return { total: { minor: total, currency: 'NOK' }, charged: total > 0n, conversion };
}

export function domesticBulkFees(): Fees {
  return domesticFees();
}

/** A domestic credit transfer (NDCT), single or in a bulk: free. */
export function domesticFees(): Fees {
  return { total: { minor: 0n, currency: 'NOK' }, charged: false, conversion: undefined };
}

/** A Straks payment: its one fee, in kroner from a kroner account (no conversion). */
export function straksFees(): Fees {
  return { total: { minor: STRAKS_FEE_NOK_MINOR, currency: 'NOK' }, charged: true, conversion: undefined };
}
