import type { Account } from '../domain/bank.js';
import type { ExecutionPlan, PaymentToExecute } from '../domain/payment-execution.js';
import type { TransactionStatus } from '../domain/transaction-status.js';

/** Records the ledger and the batch runs exchange with the services (docs/batch.md). */

/**
 * Plans a payment against its debtor account: the service's rules (the reference rates, the fees, the
 * bank's registration numbers), run inside the store's transaction, with the creditor accounts of
 * this bank as the transaction holds them.
 */
export type Planner = (
  payment: PaymentToExecute,
  debtor: Account | undefined,
  creditorOf: (creditorAccount: string) => Account | undefined,
) => ExecutionPlan;

export interface ExecutionOutcome {
  paymentId: string;
  status: TransactionStatus;
}
