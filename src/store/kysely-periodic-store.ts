import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { EntryOutcome, Planner } from './ledger-records.js';
import { findEntryOutcomes } from './queries/entry-outcome-queries.js';
import type { NextExecution, PeriodicOrderState, PeriodicOutcome, StandingOrderListing } from './periodic-records.js';
import * as periodic from './queries/periodic-queries.js';
import { earliestDueDate } from './queries/due-date-queries.js';
import { listStandingOrders } from './queries/standing-order-list-queries.js';
import { paymentChanges } from './queries/payment-change-queries.js';
import type { PaymentChange, PaymentChangeQuery } from './payment-store.js';

/**
 * The standing orders' part of the Kysely store (kysely-store.ts extends it), when anything of a bank
 * is next due, and what became of each entry of an executed payment: their queries run unchanged on
 * either dialect.
 */
export abstract class KyselyPeriodicStore {
  protected constructor(protected readonly db: Kysely<Database>) {}

  earliestDueDate(bank: string): Promise<string | undefined> {
    return earliestDueDate(this.db, bank);
  }
  findDuePeriodicPayments(bank: string, date: string, limit: number): Promise<string[]> {
    return periodic.findDuePeriodicPayments(this.db, bank, date, limit);
  }
  executePeriodicPayments(
    bank: string,
    paymentIds: readonly string[],
    date: string,
    at: Date,
    plan: Planner,
    next: NextExecution,
  ): Promise<PeriodicOutcome[]> {
    return periodic.executePeriodicPayments(this.db, bank, paymentIds, date, at, plan, next);
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
  listStandingOrders(
    bank: string,
    account: { bban: string; iban: string },
    limit: number,
  ): Promise<StandingOrderListing[]> {
    return listStandingOrders(this.db, bank, account, limit);
  }
}
