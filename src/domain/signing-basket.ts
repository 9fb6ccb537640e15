import type { TransactionStatus } from './transaction-status.js';

/** spec, signing basket read result: one of these. */
export const BASKET_STATUSES = ['RCVD', 'ACTC', 'PATC', 'RJCT'] as const;
export type BasketStatus = (typeof BASKET_STATUSES)[number];

/**
 * Payments in one basket. Berlin Group banks allow 10 (adorsys' default); 25 lets a PSU sign a day's
 * supplier payments at once and keeps the signing page readable.
 */
export const MAX_BASKET_ENTRIES = 25;

/**
 * spec, rules 1 and 2: the basket operation is not atomic, and its status stands for the worst case
 * among its payments. From worst to best: RJCT (a payment is rejected or cancelled), RCVD (none is
 * authorised yet), PATC (some are authorised, some not yet), ACTC (all are authorised or further).
 */
export function basketStatus(statuses: readonly TransactionStatus[]): BasketStatus {
  if (statuses.some((s) => s === 'RJCT' || s === 'CANC')) return 'RJCT';
  const authorised = statuses.filter((s) => s !== 'RCVD').length;
  if (authorised === 0) return 'RCVD';
  return authorised === statuses.length ? 'ACTC' : 'PATC';
}
