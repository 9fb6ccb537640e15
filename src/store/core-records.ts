import type { TransactionStatus } from '../domain/transaction-status.js';
import type { EntryOutcome } from './ledger-records.js';
import type { PeriodicExecutionRecord } from './periodic-records.js';

/**
 * An authorised payment as it is handed to the core (docs/core-api.yaml, PaymentOrder): the payment
 * as the TPP initiated it, in Berlin Group's own field names (`initiation`), with what the interface
 * decided about it. The paymentId is the idempotency key of the hand-over.
 */
export interface PaymentOrder {
  paymentId: string;
  /** payments, bulk-payments or periodic-payments. */
  paymentService: string;
  paymentProduct: string;
  /** The body the TPP sent, as it sent it (Berlin Group NextGenPSD2 names). */
  initiation: unknown;
  /** The fee the interface announced to the TPP, in minor units of its currency. */
  transactionFees: { amountMinor: bigint; currency: string };
  /** The customer (the core's id) who signed it. */
  signerCustomerId: string | undefined;
  /** When the PSU authorised it, by the bank's clock. */
  authorisedAt: Date;
}

/** A status the core reports for a payment (ISO 20022 pain.002 semantics). */
export interface CoreReport {
  paymentId: string;
  /** ACSP (accepted), PDNG (waiting for its date), ACSC (executed), PART (a bulk in part), RJCT, CANC. */
  transactionStatus: TransactionStatus;
  /** Why, starting with the ISO 20022 reason code (AM04 …); for RJCT, CANC and a held payment. */
  statusReason: string | undefined;
  /** A bulk's entries once it executed, each with its own status. */
  entries: EntryOutcome[] | undefined;
  /**
   * A standing order's executions so far, newest first, and its next one while it runs: the core owns
   * a standing order's schedule once it is handed over (docs/core.md, "Standing orders").
   */
  executions: PeriodicExecutionRecord[] | undefined;
  nextExecutionDate: string | undefined;
  /** When the core changed it. */
  at: Date;
}

export interface CoreReportPage {
  reports: CoreReport[];
  /** Where the next page starts; the same cursor when nothing changed. */
  cursor: string | undefined;
}

/** What the core says to a cancellation: done, or too late (with the status the payment has). */
export type CoreCancellation =
  { outcome: 'cancelled' } | { outcome: 'not-cancellable'; transactionStatus: TransactionStatus };
