import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import * as payments from '../queries/payment-queries.js';
import * as periodic from '../queries/periodic-queries.js';
import * as sca from '../queries/sca-queries.js';
import type { CancelResult } from '../store.js';
import type { EntryOutcome } from '../ledger-records.js';
import type { PaymentChange, PaymentChangeQuery, PaymentStore } from '../payment-store.js';
import type { PaymentDecision, ScaPayment } from '../sca-records.js';
import type { PeriodicOrderState } from '../periodic-records.js';
import { findEntryOutcomes } from '../queries/entry-outcome-queries.js';
import { paymentChanges } from '../queries/payment-change-queries.js';

/** The payments' part of the Kysely store: reading, cancelling and deciding them, and the changes a core's feed reads. */
export class KyselyPayments implements Omit<PaymentStore, 'createPayment' | 'findPayment'> {
  constructor(private readonly db: Kysely<Database>) {}

  cancelPayment(tppId: string, paymentId: string, at: Date, requestId: string): Promise<CancelResult> {
    return payments.cancelPayment(this.db, tppId, paymentId, at, requestId);
  }

  findPaymentsForSca(tppId: string, paymentIds: readonly string[]): Promise<ScaPayment[]> {
    return sca.findPaymentsForSca(this.db, tppId, paymentIds);
  }

  decidePayments(
    decisions: readonly PaymentDecision[],
    signerCustomerId: string | undefined,
    at: Date,
    handOver?: boolean,
  ): Promise<string[]> {
    return sca.decidePayments(this.db, decisions, signerCustomerId, at, handOver);
  }

  findEntryOutcomes(paymentId: string): Promise<EntryOutcome[]> {
    return findEntryOutcomes(this.db, paymentId);
  }

  findPeriodicOrder(paymentId: string): Promise<PeriodicOrderState | undefined> {
    return periodic.findPeriodicOrder(this.db, paymentId);
  }

  paymentChanges(tppId: string, bank: string, query: PaymentChangeQuery): Promise<PaymentChange[]> {
    return paymentChanges(this.db, tppId, bank, query);
  }
}
