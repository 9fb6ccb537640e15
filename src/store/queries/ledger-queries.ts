import type { Kysely, Selectable } from 'kysely';
import {
  type AccountKey,
  type BookedPayment,
  ChunkLedger,
  creditorKey,
  rejectedPayment,
} from '../../domain/payment-execution.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type { Database, PaymentTable } from '../database.js';
import { LIFECYCLE, TAKEN } from '../../domain/payment-lifecycle.js';
import { HELD_BY_SCENARIO, WAITING_FOR_RUN } from './payment-index-conditions.js';
import type { ExecutionOutcome, Planner } from '../ledger-records.js';
import { TRANSFER_COLUMNS, type TransferRow } from './transfer-rows.js';
import { coursesOf, holdPayments } from './payment-course-queries.js';
import { CLAIMED_COLUMNS, type ClaimedRow, lockAccounts, signerLimits, toExecute } from './claimed-payments.js';
import { customerNames, insertBookings } from './ledger-bookings.js';

/**
 * Payments authorised and due on a date (no date, or a date not after it), oldest authorisation
 * first. The statuses are literals so that both engines read the partial index payments_due
 * (migration 005; without standing orders since migration 014: rule 6) in its order and stop at
 * `limit`, rather than sorting every authorised payment.
 */
export async function findDuePaymentIds(
  db: Kysely<Database>,
  bank: string,
  date: string,
  limit: number,
  authorisedBy?: Date,
): Promise<string[]> {
  // Payments a sandbox scenario held until a time that has come by the run's slot settle first (payments_held).
  const held =
    authorisedBy === undefined
      ? []
      : await db
          .selectFrom('payments')
          .select('id')
          .where('bank', '=', bank)
          .where(HELD_BY_SCENARIO)
          .where('held_until', '<=', authorisedBy.toISOString())
          .orderBy('held_until')
          .orderBy('id')
          .limit(limit)
          .execute();
  if (held.length >= limit) return held.map((r) => r.id);
  let query = db.selectFrom('payments').select('id').where('bank', '=', bank).where(WAITING_FOR_RUN);
  // A run executes what was authorised before its slot: a slot caught up late takes nothing authorised after it.
  if (authorisedBy !== undefined) query = query.where('authorised_at', '<=', authorisedBy.toISOString());
  const rows = await query
    .where((eb) => eb.or([eb('requested_execution_date', 'is', null), eb('requested_execution_date', '<=', date)]))
    .orderBy('authorised_at')
    .orderBy('id')
    .limit(limit - held.length)
    .execute();
  return [...held, ...rows].map((r) => r.id);
}

/**
 * Executes payments in one transaction, with a few statements per chunk rather than a dozen per
 * payment:
 * 1. claims them all in one update (ACTC/PDNG → ACSP): a payment that another run or instance took,
 *    or that a killed run already committed, is not claimed and is skipped (on PostgreSQL a second
 *    claimer waits for the first's row locks, then finds the payments no longer claimable);
 * 1b. decides each one's course (payment-course-queries.ts): one a sandbox scenario held until now
 *    settles, one an armed scenario takes is held (PDNG, ACSP) or rejected, every other is booked;
 * 2. reads their transfers and the accounts they name, and locks those accounts one by one in the
 *    order of their ids (so that two runs cannot deadlock), reading each one's balance and count
 *    under its lock;
 * 3. books the payments in order against those accounts in memory (ChunkLedger): every debit only
 *    where the balance plus credit line covers it, so no account is overdrawn;
 * 4. writes the transactions (multi-row inserts), each account's new balance and count, and the
 *    payments' and transfers' statuses, grouped by outcome.
 * Nothing of a run that dies part-way is left half done: the transaction commits all of its payments or none.
 */
export async function executePayments(
  db: Kysely<Database>,
  bank: string,
  paymentIds: readonly string[],
  bookingDate: string,
  at: Date,
  plan: Planner,
  scenarios = false,
): Promise<ExecutionOutcome[]> {
  const unique = [...new Set(paymentIds)];
  if (unique.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    const now = at.toISOString();
    const claimed = await claimPayments(trx, bank, unique, now);
    if (claimed.size === 0) return [];
    const payments = await paymentsToExecute(
      trx,
      unique.filter((id) => claimed.has(id)),
      claimed,
    );
    const courses = await coursesOf(
      trx,
      bank,
      payments.map((p) => courseInput(p.payment, claimed.get(p.payment.id)!)),
      at,
      scenarios,
    );
    const holds = payments.flatMap((p) => {
      const course = courses.get(p.payment.id)!;
      return course.kind === 'hold' ? [{ id: p.payment.id, course }] : [];
    });
    await holdPayments(trx, holds, now);
    const booked = await book(
      trx,
      bank,
      payments.filter((p) => courses.get(p.payment.id)!.kind !== 'hold'),
      (id) => {
        const course = courses.get(id)!;
        return course.kind === 'reject' ? course.reason : undefined;
      },
      plan,
    );
    const debtorNames = await customerNames(
      trx,
      booked.flatMap((b) => (b.bookings.length > 0 && b.debtor !== undefined ? [b.debtor.customerId] : [])),
    );
    await insertBookings(trx, booked, debtorNames, bookingDate, now);
    await finish(trx, booked, now);
    return [
      ...booked.map((b) => ({ paymentId: b.paymentId, status: b.status })),
      ...holds.map((h) => ({ paymentId: h.id, status: h.course.status })),
    ];
  });
}

type ClaimedPayment = ClaimedRow & Pick<Selectable<PaymentTable>, 'held_until' | 'held_then' | 'held_reason'>;
type ToExecute = ReturnType<typeof toExecute>;

/**
 * Takes the payments in one update (the lifecycle's take and release: ACTC/PDNG, or what a scenario
 * held until now, → ACSP): one another run or instance took, or a killed run already committed, is
 * not claimed and is skipped (on PostgreSQL a second claimer waits for the first's row locks, then
 * finds the payments no longer claimable).
 */
async function claimPayments(
  trx: Kysely<Database>,
  bank: string,
  ids: readonly string[],
  now: string,
): Promise<Map<string, ClaimedPayment>> {
  const rows = await trx
    .updateTable('payments')
    .set({ status: TAKEN, updated_at: now })
    .where('id', 'in', ids)
    .where('bank', '=', bank)
    // Waiting for a run, or held by a scenario until a time that has come (migration 019).
    .where((eb) =>
      eb.or([
        eb.and([eb('status', 'in', LIFECYCLE.take.from), eb('held_until', 'is', null)]),
        eb.and([eb('status', 'in', LIFECYCLE.release.from), eb('held_until', '<=', now)]),
      ]),
    )
    // Standing orders execute on their own dates (periodic-queries.ts), never as one payment.
    .where('service', '<>', 'periodic-payments')
    .returning([...CLAIMED_COLUMNS, 'held_until', 'held_then', 'held_reason'])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** The claimed payments with their transfers in order and their signers' limits, in the order asked. */
async function paymentsToExecute(
  trx: Kysely<Database>,
  ids: readonly string[],
  claimed: ReadonlyMap<string, ClaimedPayment>,
): Promise<ToExecute[]> {
  const limits = await signerLimits(trx, [...claimed.values()]);
  const transfers = new Map<string, TransferRow[]>(ids.map((id) => [id, []]));
  const rows = await trx.selectFrom('transfers').select(TRANSFER_COLUMNS).where('payment_id', 'in', ids).execute();
  for (const row of rows) transfers.get(row.payment_id)!.push(row);
  return ids.map((id) =>
    toExecute(
      claimed.get(id)!,
      transfers.get(id)!.sort((a, b) => Number(a.seq) - Number(b.seq)),
      limits,
    ),
  );
}

function courseInput(payment: ToExecute['payment'], row: ClaimedPayment) {
  return {
    payment,
    debtorBban: row.debtor_bban,
    debtorIban: row.debtor_iban,
    heldUntil: row.held_until,
    heldThen: row.held_then,
    heldReason: row.held_reason,
  };
}

/**
 * Books the payments in order against their accounts, locked one by one in the order of their ids (so
 * that two runs cannot deadlock) and read under the lock: every debit only where the balance plus
 * credit line covers it, so no account is overdrawn. Writes each changed account's balance and count.
 */
async function book(
  trx: Kysely<Database>,
  bank: string,
  executing: readonly ToExecute[],
  rejectedFor: (paymentId: string) => string | undefined,
  plan: Planner,
): Promise<BookedPayment[]> {
  const keys = [
    ...executing.map((p) => p.debtorKey).filter((k): k is AccountKey => k !== undefined),
    ...executing.flatMap((p) => p.payment.transfers.map((t) => creditorKey(t.creditorAccount))),
  ];
  const ledger = new ChunkLedger(await lockAccounts(trx, bank, keys));
  const booked = executing.map((p) => {
    const reason = rejectedFor(p.payment.id);
    return reason !== undefined
      ? rejectedPayment(p.payment, undefined, reason)
      : ledger.book(p.payment, p.debtorKey, plan);
  });
  for (const account of ledger.changedAccounts()) {
    await trx
      .updateTable('accounts')
      .set({ balance_minor: account.balanceMinor, transaction_count: account.transactionCount })
      .where('id', '=', account.id)
      .execute();
  }
  return booked;
}

/**
 * The payments' and transfers' statuses, one update per outcome; per transfer only for a payment whose
 * transfers differ (a bulk executed in part, or one whose entries were rejected for different reasons).
 */
async function finish(trx: Kysely<Database>, booked: readonly BookedPayment[], now: string): Promise<void> {
  const byOutcome = new Map<
    string,
    { status: TransactionStatus; reason: string | undefined; fundsAvailable: boolean | undefined; ids: string[] }
  >();
  const eachTransfer: BookedPayment[] = [];
  const eachTransferIds = new Set<string>();
  for (const b of booked) {
    const key = `${b.status}|${b.fundsAvailable}|${b.reason ?? ''}`;
    let group = byOutcome.get(key);
    if (group === undefined)
      byOutcome.set(key, (group = { status: b.status, reason: b.reason, fundsAvailable: b.fundsAvailable, ids: [] }));
    group.ids.push(b.paymentId);
    if (b.status === 'PART' || b.transferReasons.some((r) => r !== b.reason)) {
      eachTransfer.push(b);
      eachTransferIds.add(b.paymentId);
    }
  }
  for (const group of byOutcome.values()) {
    await trx
      .updateTable('payments')
      .set({
        status: group.status,
        status_reason: group.reason ?? null,
        held_until: null,
        held_then: null,
        held_reason: null,
        updated_at: now,
        funds_available: group.fundsAvailable === undefined ? null : group.fundsAvailable ? 1 : 0,
      })
      .where('id', 'in', group.ids)
      .execute();
    // Every transfer of an ACSC payment executed, every one of an RJCT payment was rejected, for its reason.
    const alike = group.ids.filter((id) => !eachTransferIds.has(id));
    if (alike.length > 0) {
      await trx
        .updateTable('transfers')
        .set({ status: group.status, status_reason: group.status === 'RJCT' ? (group.reason ?? null) : null })
        .where('payment_id', 'in', alike)
        .execute();
    }
  }
  for (const b of eachTransfer) {
    for (const [seq, status] of b.transferStatuses.entries()) {
      await trx
        .updateTable('transfers')
        .set({ status, status_reason: b.transferReasons[seq] ?? null })
        .where('payment_id', '=', b.paymentId)
        .where('seq', '=', seq)
        .execute();
    }
  }
}
