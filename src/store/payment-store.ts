import type { NewPayment } from '../domain/payments/payment.js';
import type { EntryOutcome } from './ledger-records.js';
import type { PeriodicOrderState } from './periodic-records.js';
import type { NewAuthorisation, PaymentDecision, ScaPayment } from './sca-records.js';
import type { TransactionStatus } from '../domain/transaction-status.js';
import type { TppRequestRecord, StoredTppRequest } from './tpp-request-records.js';

/** A recent payment of the same PSU equal to one being created. */
export interface LogicalDuplicate {
  /** JSON path of the transfer in the new request. */
  path: string;
  paymentId: string;
  createdAt: string;
}

export type CreatePaymentResult =
  | { outcome: 'created' }
  | { outcome: 'replayed'; request: StoredTppRequest }
  | { outcome: 'duplicate'; duplicates: LogicalDuplicate[] };

export interface CreatePaymentOptions {
  /** Refuse the payment when one of its transfers equals one of the same PSU created at or after this instant; null allows duplicates. */
  duplicatesSince: Date | null;
  /** The SCA authorisation whose link the answer carries, stored in the same transaction. */
  authorisation?: NewAuthorisation | undefined;
  /** The bank whose accounts the batch run pays from (src/services/banks.ts); production's when left out. */
  bank?: string | undefined;
}

export interface StoredPayment {
  id: string;
  tppId: string;
  service: string;
  product: string;
  status: TransactionStatus;
  body: unknown;
  fundsAvailable: boolean | undefined;
  statusReason: string | undefined;
  createdAt: string;
  /** The business clock offset of the bank the read named (0 when the bank has none), read with the payment. */
  bankClockOffsetMs: bigint;
}

/** A payment as its status last changed: what the reference core's status reports are made of. */
export interface PaymentChange {
  paymentId: string;
  service: string;
  status: TransactionStatus;
  statusReason: string | undefined;
  /** When its status last changed (ISO 8601), by the clock of the change. */
  updatedAt: string;
  /** Its last change's place in the order changes are made (migrations 030, 031); 0, 0 for a payment outside the reference core's ledger. */
  place: ChangePlace;
}

/**
 * A change's place in the feed's order: the transaction that made it (PostgreSQL's id of it; 0 on
 * SQLite, where one writer at a time makes the numbers the commit order), then its number.
 */
export interface ChangePlace {
  transaction: number;
  seq: number;
}

/** The place before every change: where a feed without a cursor, or one that starts again, reads from. */
export const FEED_BEGINNING: ChangePlace = { transaction: 0, seq: 0 };

/**
 * The changes after a place in their order, at most `limit`, of transactions no longer running when
 * asked, none of which can still add a change before them; or one payment's.
 */
export type PaymentChangeQuery = { after: ChangePlace; limit: number } | { paymentId: string };

export type CancelResult =
  { outcome: 'cancelled' } | { outcome: 'not-cancellable'; status: TransactionStatus } | { outcome: 'unknown' };

/** The payments as the TPPs initiated them, and their status as the TPP sees it. */
export interface PaymentStore {
  /**
   * Stores a payment and the request that created it in one durable transaction, unless the TPP
   * sent this X-Request-ID before (replayed: the stored request is returned and nothing is written)
   * or a transfer is a logical duplicate. Concurrent calls with one X-Request-ID create one payment.
   */
  createPayment(
    payment: NewPayment,
    request: TppRequestRecord,
    options: CreatePaymentOptions,
  ): Promise<CreatePaymentResult>;
  /** The payment, when it exists and the TPP created it, with the clock offset of `bank` (the TPP's bank, Banks.of) read in the same statement. */
  findPayment(tppId: string, paymentId: string, bank: string): Promise<StoredPayment | undefined>;
  /**
   * Cancels a payment of the TPP that has not yet been taken for execution, noting the DELETE's
   * X-Request-ID; a payment this X-Request-ID cancelled already is 'cancelled' again.
   */
  cancelPayment(tppId: string, paymentId: string, at: Date, requestId: string): Promise<CancelResult>;
  findPaymentsForSca(tppId: string, paymentIds: readonly string[]): Promise<ScaPayment[]>;
  /** Applies SCA outcomes to payments still RCVD; returns the ids it changed. */
  decidePayments(
    decisions: readonly PaymentDecision[],
    signerCustomerId: string | undefined,
    at: Date,
    /** Also write each authorised payment's hand-over to a bank's own core, in the same transaction (docs/core.md). */
    handOver?: boolean,
  ): Promise<string[]>;
  /** Each entry of a payment with what became of it when it executed (a bulk's status read lists them), in entry order. */
  findEntryOutcomes(paymentId: string): Promise<EntryOutcome[]>;
  /** A standing order's next execution date while it runs, and its latest executions. Ending one is cancelPayment. */
  findPeriodicOrder(paymentId: string): Promise<PeriodicOrderState | undefined>;
  /** Payments a creator (`tppId`) made in a bank, in the order their status changed, oldest first (PaymentChangeQuery; migration 030: the reference core's ledger only). */
  paymentChanges(tppId: string, bank: string, query: PaymentChangeQuery): Promise<PaymentChange[]>;
}
