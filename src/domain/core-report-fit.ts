import type { TransactionStatus } from './transaction-status.js';

/**
 * Why a core's report cannot be of this payment, or undefined when it can: a bulk's status (PART)
 * or its entries for a payment that is no bulk, an entry the bulk does not have, executions for a
 * payment that is no standing order. Such a report is not applied: the core would have the payment
 * read as something it cannot be (docs/decisions/0374).
 */
export function reportMisfit(
  report: {
    transactionStatus: TransactionStatus;
    entries: readonly { seq: number }[] | undefined;
    executions: readonly unknown[] | undefined;
  },
  payment: { service: string; entryCount: number },
): string | undefined {
  const bulk = payment.service === 'bulk-payments';
  if (!bulk && report.transactionStatus === 'PART') return 'PART is the status of a bulk only';
  if (!bulk && report.entries !== undefined && report.entries.length > 0) return 'entries are a bulk’s only';
  const missing = report.entries?.find((e) => !Number.isInteger(e.seq) || e.seq < 0 || e.seq >= payment.entryCount);
  if (missing !== undefined) return `the bulk has no entry ${missing.seq}`;
  if (payment.service !== 'periodic-payments' && report.executions !== undefined && report.executions.length > 0)
    return 'executions are a standing order’s only';
  return undefined;
}
