import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { reportMisfit } from '../../domain/core-report-fit.js';
import { BEFORE_HANDOVER } from '../../domain/payment-lifecycle.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type { CoreReport, PaymentOrder } from '../core-records.js';
import type { Database } from '../database.js';
import type { ClaimedHandover, UnsentCancellation } from '../handover-store.js';
import { cancelPaymentIn } from './payment-queries.js';

/** Statuses a payment never leaves: the core's later word does not change them (docs/core.md). */
const FINAL: ReadonlySet<string> = new Set(['ACSC', 'ACCC', 'PART', 'RJCT', 'CANC']);

/** Writes the hand-over of payments just authorised, in the caller's transaction (decidePayments). */
export async function insertHandovers(trx: Kysely<Database>, paymentIds: readonly string[], at: Date): Promise<void> {
  if (paymentIds.length === 0) return;
  const rows = await trx.selectFrom('payments').select(['id', 'bank']).where('id', 'in', paymentIds).execute();
  const now = at.toISOString();
  await trx
    .insertInto('core_handovers')
    .values(rows.map((r) => ({ payment_id: r.id, bank: r.bank, created_at: now, next_attempt_at: now })))
    .onConflict((oc) => oc.column('payment_id').doNothing())
    .execute();
}

export async function claimHandovers(
  db: Kysely<Database>,
  instance: string,
  now: Date,
  until: Date,
  limit: number,
): Promise<ClaimedHandover[]> {
  const at = now.toISOString();
  // The condition is written once more in the update: on PostgreSQL an instance that waited for
  // another's row lock reads the row again, finds it claimed, and leaves it.
  const free = (eb: ExpressionBuilder<Database, 'core_handovers'>) =>
    eb.and([
      eb('handed_at', 'is', null),
      eb('cancelled_at', 'is', null),
      eb('next_attempt_at', '<=', at),
      eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]),
    ]);
  const due = await db
    .selectFrom('core_handovers')
    .select('payment_id')
    .where(free)
    .orderBy('next_attempt_at')
    .orderBy('payment_id')
    .limit(limit)
    .execute();
  if (due.length === 0) return [];
  const claimed = await db
    .updateTable('core_handovers')
    .set({ claimed_by: instance, claimed_until: until.toISOString() })
    .where(
      'payment_id',
      'in',
      due.map((d) => d.payment_id),
    )
    .where(free)
    .returning(['payment_id', 'bank', 'attempts'])
    .execute();
  return claimed.map((r) => ({ paymentId: r.payment_id, bank: r.bank, attempts: Number(r.attempts) }));
}

export async function handoverOrders(db: Kysely<Database>, paymentIds: readonly string[]): Promise<PaymentOrder[]> {
  if (paymentIds.length === 0) return [];
  const rows = await db
    .selectFrom('payments')
    .select(['id', 'service', 'product', 'body', 'fee_minor', 'fee_currency', 'signed_by_customer_id', 'authorised_at'])
    .where('id', 'in', paymentIds)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return paymentIds.flatMap((id) => {
    const row = byId.get(id);
    if (row === undefined || row.authorised_at === null) return [];
    return [
      {
        paymentId: row.id,
        paymentService: row.service,
        paymentProduct: row.product,
        initiation: JSON.parse(row.body) as unknown,
        transactionFees: { amountMinor: BigInt(row.fee_minor), currency: row.fee_currency },
        signerCustomerId: row.signed_by_customer_id ?? undefined,
        authorisedAt: new Date(row.authorised_at),
      },
    ];
  });
}

export async function completeHandovers(db: Kysely<Database>, reports: readonly CoreReport[], at: Date): Promise<void> {
  if (reports.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('core_handovers')
      .set({ handed_at: at.toISOString(), claimed_by: null, claimed_until: null, last_error: null })
      .where(
        'payment_id',
        'in',
        reports.map((r) => r.paymentId),
      )
      .execute();
    await applyReports(trx, reports, at);
  });
}

export async function deferHandover(
  db: Kysely<Database>,
  paymentId: string,
  instance: string,
  nextAttemptAt: Date,
  error: string,
): Promise<void> {
  await db
    .updateTable('core_handovers')
    .set({
      attempts: sql<number>`attempts + 1`,
      next_attempt_at: nextAttemptAt.toISOString(),
      claimed_by: null,
      claimed_until: null,
      last_error: error,
    })
    .where('payment_id', '=', paymentId)
    .where('claimed_by', '=', instance)
    .execute();
}

export async function cancelUnsentHandover(
  db: Kysely<Database>,
  tppId: string,
  paymentId: string,
  at: Date,
  requestId: string,
): Promise<UnsentCancellation> {
  return db.transaction().execute(async (trx) => {
    const now = at.toISOString();
    const held = await trx
      .updateTable('core_handovers')
      .set({ cancelled_at: now })
      .where('payment_id', '=', paymentId)
      .where('handed_at', 'is', null)
      .where('cancelled_at', 'is', null)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .executeTakeFirst();
    if (Number(held.numUpdatedRows) !== 1) {
      const row = await trx
        .selectFrom('core_handovers')
        .select(['cancelled_at'])
        .where('payment_id', '=', paymentId)
        .executeTakeFirst();
      // Cancelled here by an earlier copy of this cancellation: what it asked for.
      if (row !== undefined && row.cancelled_at === null) return 'in-core';
    }
    const result = await cancelPaymentIn(trx, tppId, paymentId, at, requestId);
    return result.outcome === 'cancelled' ? 'cancelled' : 'not-cancellable';
  });
}

/** Each report applied forward only, in the caller's transaction; the ids of the payments it changed. */
export async function applyReports(trx: Kysely<Database>, reports: readonly CoreReport[], at: Date): Promise<string[]> {
  const changed: string[] = [];
  const now = at.toISOString();
  for (const report of reports) {
    const row = await trx
      .selectFrom('payments')
      .select(['status', 'bank', 'service', 'entry_count'])
      .where('id', '=', report.paymentId)
      .executeTakeFirst();
    if (row === undefined || row.status === 'RCVD' || FINAL.has(row.status)) continue;
    if (reportMisfit(report, { service: row.service, entryCount: Number(row.entry_count) }) !== undefined) continue;
    if (BEFORE_HANDOVER.includes(report.transactionStatus)) continue;
    await trx
      .updateTable('payments')
      .set({
        status: report.transactionStatus,
        status_reason: report.statusReason ?? null,
        updated_at: now,
        ...(report.nextExecutionDate === undefined ? {} : { requested_execution_date: report.nextExecutionDate }),
      })
      .where('id', '=', report.paymentId)
      .execute();
    await applyEntries(trx, report);
    if (report.executions !== undefined && report.executions.length > 0) {
      await trx
        .insertInto('periodic_executions')
        .values(
          report.executions.map((e) => ({
            payment_id: report.paymentId,
            seq: e.seq,
            bank: row.bank,
            execution_date: e.executionDate,
            status: e.status,
            status_reason: e.statusReason ?? null,
            created_at: now,
          })),
        )
        .onConflict((oc) => oc.columns(['payment_id', 'seq']).doNothing())
        .execute();
    }
    changed.push(report.paymentId);
  }
  return changed;
}

/** A bulk's entries each as the core reports them; without entries every transfer takes the payment's status. */
async function applyEntries(trx: Kysely<Database>, report: CoreReport): Promise<void> {
  const reasonOf = (status: TransactionStatus, reason: string | undefined) =>
    status === 'RJCT' ? (reason ?? null) : null;
  if (report.entries === undefined || report.entries.length === 0) {
    await trx
      .updateTable('transfers')
      .set({ status: report.transactionStatus, status_reason: reasonOf(report.transactionStatus, report.statusReason) })
      .where('payment_id', '=', report.paymentId)
      .execute();
    return;
  }
  for (const entry of report.entries) {
    await trx
      .updateTable('transfers')
      .set({ status: entry.status, status_reason: reasonOf(entry.status, entry.statusReason) })
      .where('payment_id', '=', report.paymentId)
      .where('seq', '=', entry.seq)
      .execute();
  }
}

export async function claimReportPoll(
  db: Kysely<Database>,
  name: string,
  instance: string,
  now: Date,
  until: Date,
): Promise<{ cursor: string | undefined } | undefined> {
  const at = now.toISOString();
  await db
    .insertInto('core_report_cursors')
    .values({ name, cursor: null, claimed_by: null, claimed_until: null, updated_at: at })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .updateTable('core_report_cursors')
    .set({ claimed_by: instance, claimed_until: until.toISOString() })
    .where('name', '=', name)
    .where((eb) =>
      eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at), eb('claimed_by', '=', instance)]),
    )
    .returning(['cursor'])
    .executeTakeFirst();
  return row === undefined ? undefined : { cursor: row.cursor ?? undefined };
}

export async function saveReportCursor(
  db: Kysely<Database>,
  name: string,
  instance: string,
  cursor: string | undefined,
  at: Date,
): Promise<void> {
  await db
    .updateTable('core_report_cursors')
    .set({ cursor: cursor ?? null, updated_at: at.toISOString() })
    .where('name', '=', name)
    .where('claimed_by', '=', instance)
    .execute();
}

export async function countPendingHandovers(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('core_handovers')
    .select((eb) => eb.fn.countAll<number | bigint>().as('n'))
    .where('handed_at', 'is', null)
    .where('cancelled_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
