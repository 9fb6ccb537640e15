/** spec: TransactionStatus. */
export const TRANSACTION_STATUSES = [
  'ACCP',
  'ACSC',
  'ACSP',
  'ACTC',
  'ACWC',
  'ACWP',
  'RCVD',
  'PDNG',
  'RJCT',
  'CANC',
  'PART',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Statuses after which nothing more happens to a payment (Berlin Group: finalised). */
export const FINAL_STATUSES: ReadonlySet<TransactionStatus> = new Set(['ACSC', 'RJCT', 'CANC', 'PART']);

/**
 * A payment can be cancelled until the batch run takes it for settlement: received, authorised, or
 * waiting for its execution date.
 */
export const CANCELLABLE_STATUSES: ReadonlySet<TransactionStatus> = new Set(['RCVD', 'ACTC', 'ACCP', 'ACWC', 'PDNG']);

/**
 * The platform (docs/platform-research.md §3.5, "an authorisation is always mandated if the payment is
 * previously authorised"): a payment the PSU authorised and the bank has not executed is cancelled
 * only through a cancellation SCA; one still waiting for its SCA (RCVD) is cancelled by the DELETE.
 */
export function needsCancellationSca(status: TransactionStatus): boolean {
  return status !== 'RCVD' && CANCELLABLE_STATUSES.has(status);
}
