import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import * as handovers from '../queries/core-handover-queries.js';
import type { ClaimedHandover, UnsentCancellation, HandoverStore } from '../handover-store.js';
import type { CoreReport, PaymentOrder } from '../core-records.js';

/** The hand-overs to a bank's own core, the Kysely store's part. */
export class KyselyHandovers implements HandoverStore {
  constructor(private readonly db: Kysely<Database>) {}

  // Payments handed to a bank's own core (handover-store.ts).
  claimHandovers(instance: string, now: Date, until: Date, limit: number): Promise<ClaimedHandover[]> {
    return handovers.claimHandovers(this.db, instance, now, until, limit);
  }

  handoverOrders(paymentIds: readonly string[]): Promise<PaymentOrder[]> {
    return handovers.handoverOrders(this.db, paymentIds);
  }

  completeHandovers(reports: readonly CoreReport[], at: Date): Promise<void> {
    return handovers.completeHandovers(this.db, reports, at);
  }

  deferHandover(paymentId: string, instance: string, nextAttemptAt: Date, error: string): Promise<void> {
    return handovers.deferHandover(this.db, paymentId, instance, nextAttemptAt, error);
  }

  cancelUnsentHandover(tppId: string, paymentId: string, at: Date, requestId: string): Promise<UnsentCancellation> {
    return handovers.cancelUnsentHandover(this.db, tppId, paymentId, at, requestId);
  }

  applyCoreReports(reports: readonly CoreReport[], at: Date): Promise<string[]> {
    return this.db.transaction().execute((trx) => handovers.applyReports(trx, reports, at));
  }

  claimReportPoll(
    name: string,
    instance: string,
    now: Date,
    until: Date,
  ): Promise<{ cursor: string | undefined } | undefined> {
    return handovers.claimReportPoll(this.db, name, instance, now, until);
  }

  saveReportCursor(name: string, instance: string, cursor: string | undefined, at: Date): Promise<void> {
    return handovers.saveReportCursor(this.db, name, instance, cursor, at);
  }

  countPendingHandovers(): Promise<number> {
    return handovers.countPendingHandovers(this.db);
  }
}
