import type { NewPayment } from '../domain/payments/payment.js';
import type { Execution } from '../domain/periodic/schedule.js';
import type { TransactionStatus } from '../domain/transaction-status.js';

/** Records the standing orders' executions exchange with the services (docs/batch.md, "Standing orders"). */

/** The execution of a standing order after the one numbered `afterSeq` (the first when undefined), from its body as stored; undefined when its schedule has ended. */
export type NextExecution = (body: unknown, afterSeq: number | undefined) => Execution | undefined;

/** What one execution of a standing order did. */
export interface PeriodicOutcome {
  paymentId: string;
  seq: number;
  executionDate: string;
  /** ACSC (booked) or RJCT (not booked: without funds, or not payable from this bank). */
  status: TransactionStatus;
}

export interface PeriodicExecutionRecord {
  seq: number;
  executionDate: string;
  status: TransactionStatus;
  statusReason: string | undefined;
}

/** A standing order as its reads show it: its next execution's date while it runs, and its latest executions, newest first. */
export interface PeriodicOrderState {
  nextExecutionDate: string | undefined;
  executions: PeriodicExecutionRecord[];
}

/**
 * A standing order of a bank's data (the sandbox's default data set): authorised and running, with
 * the executions it has made, booked on its debtor account (whose balance is the one after them).
 */
export interface RunningStandingOrder {
  /** Its tppId is the bank's: the TPP whose sandbox bank it is may read it. */
  payment: NewPayment;
  debtorAccountId: string;
  authorisedAt: Date;
  executed: Execution[];
}

/** A standing order running from an account, as the sandbox lists it (its body as submitted, parsed). */
export interface StandingOrderListing {
  paymentId: string;
  product: string;
  status: string;
  body: unknown;
  nextExecutionDate: string | undefined;
}
