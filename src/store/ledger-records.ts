import type { Account } from '../domain/bank.js';
import type { ExecutionPlan, PaymentToExecute } from '../domain/payment-execution.js';
import type { TransactionStatus } from '../domain/transaction-status.js';

/** Records the ledger and the batch runs exchange with the services (docs/batch.md). */

/** Plans a payment against its debtor account: the service's rules (the reference rates, the fees), run inside the store's transaction. */
export type Planner = (payment: PaymentToExecute, debtor: Account | undefined) => ExecutionPlan;

export interface ExecutionOutcome {
  paymentId: string;
  status: TransactionStatus;
}
