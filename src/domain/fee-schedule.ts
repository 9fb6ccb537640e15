import type { Currency } from './currency.js';
import type { Money } from './money.js';

/**
 * The fee schedule (docs/fees.md). Fees are charged in kroner on the debtor account.
 * - Cross-border transfer: NOK 100.00 per payment (the bank's SWIFT transfer fee).
 * - Currency conversion, when the instructed currency differs from the debtor account's: 0.25 % of
 *   the amount at the reference rate, at least NOK 25.00.
 * - Domestic credit transfers in a bulk payment: free, as in the bank's online banking.
 */
export const CROSS_BORDER_FEE_NOK_MINOR = 10_000n;
export const CONVERSION_FEE_BASIS_POINTS = 25n;
export const CONVERSION_FEE_MINIMUM_NOK_MINOR = 2_500n;

export interface Fees {
  total: Money;
  /** Whether the payment incurs a fee (transactionFeeIndicator). */
  charged: boolean;
  conversion: Money | undefined;
}

export function crossBorderFees(instructed: Money, amountNokMinor: bigint, debtorCurrency: Currency): Fees {
  let total = CROSS_BORDER_FEE_NOK_MINOR;
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
  return { total: { minor: 0n, currency: 'NOK' }, charged: false, conversion: undefined };
}
