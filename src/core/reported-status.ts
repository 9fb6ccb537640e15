import { LIFECYCLE } from '../domain/payment-lifecycle.js';
import type { TransactionStatus } from '../domain/transaction-status.js';

/**
 * The statuses a core reports for a payment handed to it (ISO 20022 pain.002): accepted (ACSP),
 * waiting for its date (PDNG), executed (ACSC), a bulk in part (PART), rejected (RJCT), cancelled (CANC).
 */
export const REPORTED_STATUSES: readonly TransactionStatus[] = LIFECYCLE.report.to;

const REPORTED: ReadonlySet<TransactionStatus> = new Set(REPORTED_STATUSES);

/**
 * The status a core reports for one the embedded ledger keeps: an authorised payment waiting for the
 * batch (ACTC, or RCVD for the instant between its hand-over and its decision) is, to the core, a
 * payment it accepted for settlement (ACSP).
 */
export function reportedStatus(status: TransactionStatus): TransactionStatus {
  return REPORTED.has(status) ? status : 'ACSP';
}

export function isReportedStatus(value: string): value is TransactionStatus {
  return REPORTED.has(value as TransactionStatus);
}
