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

/** What became of one entry (transfer) of a payment when it executed: a bulk's entries each have their own. */
export interface EntryOutcome {
  /** The entry's place in the payment's `payments`, from 0. */
  seq: number;
  status: TransactionStatus;
  /** Why it was rejected (starting with its ISO 20022 code); undefined for one executed. */
  statusReason: string | undefined;
}
