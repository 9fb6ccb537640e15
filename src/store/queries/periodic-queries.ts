import { type Insertable, type Kysely } from 'kysely';
import { type BookedPayment, ChunkLedger, creditorKey, creditorNumbers } from '../../domain/payment-execution.js';
import { STANDING_ORDER_DEBIT } from '../../domain/payments/periodic-payment.js';
import { entriesOf } from '../../domain/payments/transfer-entries.js';
import { timeOrderedId } from '../../domain/time-ordered-id.js';
import type { Execution } from '../../domain/periodic/schedule.js';
import { PERIODIC_EXECUTIONS_PER_TRANSACTION } from '../../domain/limits.js';
import { LIFECYCLE, isRunningOrder } from '../../domain/payment-lifecycle.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type { Database, PeriodicExecutionTable } from '../database.js';
import { STANDING_ORDER_RUNNING } from './payment-index-conditions.js';
import type { Planner } from '../ledger-records.js';
import { paymentRow, transferRows } from '../payment-rows.js';
import type { NextExecution, PeriodicOrderState, PeriodicOutcome, RunningStandingOrder } from '../periodic-records.js';
import { insertRecords } from './insert-rows.js';
import { CLAIMED_COLUMNS, lockAccounts, signerLimits, toExecute } from './claimed-payments.js';
import { customerNames, insertBookings } from './ledger-bookings.js';
import { TRANSFER_COLUMNS, type TransferRow } from './transfer-rows.js';

/** How many of a standing order's executions its reads show, newest first. */
export const PERIODIC_EXECUTIONS_SHOWN = 12;

/**
 * The bank's standing orders authorised and running whose next execution is due on a date (on or
 * before it), earliest first: the first entries of payments_periodic_due (migration 014), whose
 * condition is written out as literals so that both engines use it.
 */
export async function findDuePeriodicPayments(
  db: Kysely<Database>,
  bank: string,
  date: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('payments')
    .select('id')
    .where('bank', '=', bank)
    .where(STANDING_ORDER_RUNNING)
    .where('requested_execution_date', '<=', date)
    .orderBy('requested_execution_date')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** One execution booked (or rejected) in the transaction. */
interface Claimed {
  booked: BookedPayment;
  execution: Execution;
}

/**
 * Executes the due execution of each of these standing orders, in one transaction:
 * 1. claims the orders (an update of their rows, which on PostgreSQL waits for another instance's
 *    claim and then finds the order's next date moved past `date`, or the order ended or cancelled);
 * 2. reads, under that claim, the last execution each has made, so the one due now is computed from
 *    what is committed, not from what the caller saw;
 * 3. books each execution due by `date` (several of an order that catches up), in date order, as the
 *    batch run books a payment (ChunkLedger: the debit and its fee only where the balance and credit
 *    line cover them, else the execution is rejected), on its own date;
 * 4. records each execution under the primary key (order, seq), which no second booking can pass,
 *    and moves each order to its next execution, or ends it (ACSC) when its schedule has none.
 * A run that dies part-way commits all of a chunk or nothing of it (docs/batch.md, "Standing orders").
 */
export async function executePeriodicPayments(
  db: Kysely<Database>,
  bank: string,
  paymentIds: readonly string[],
  date: string,
  at: Date,
  plan: Planner,
  next: NextExecution,
): Promise<PeriodicOutcome[]> {
  const unique = [...new Set(paymentIds)];
  if (unique.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    const now = at.toISOString();
    const orders = await claimOrders(trx, bank, unique, date, now, next);
    if (orders.length === 0) return [];
    const { due, following } = dueExecutions(orders, date, next);
    const keys = orders.flatMap((o) => [
      ...(o.debtorKey === undefined ? [] : [o.debtorKey]),
      ...o.payment.transfers.map((t) => creditorKey(t.creditorAccount)),
    ]);
    const ledger = new ChunkLedger(await lockAccounts(trx, bank, keys));
    const claimed: Claimed[] = due.map((d) => ({
      booked: ledger.book(d.order.payment, d.order.debtorKey, plan),
      execution: d.execution,
    }));
    await bookExecutions(trx, claimed, now);
    for (const account of ledger.changedAccounts()) {
      await trx
        .updateTable('accounts')
        .set({ balance_minor: account.balanceMinor, transaction_count: account.transactionCount })
        .where('id', '=', account.id)
        .execute();
    }
    await recordExecutions(trx, bank, claimed, following, now);
    return claimed.map((c) => ({
      paymentId: c.booked.paymentId,
      seq: c.execution.seq,
      executionDate: c.execution.date,
      status: c.booked.status,
    }));
  });
}

/** A claimed order: the payment as the ledger executes it, its body, and its execution due first. */
type ClaimedOrder = ReturnType<typeof toExecute> & { body: unknown; first: Execution };

/** Steps 1 and 2: the orders claimed (in id order), each with the execution due first as committed. */
async function claimOrders(
  trx: Kysely<Database>,
  bank: string,
  ids: readonly string[],
  date: string,
  now: string,
  next: NextExecution,
): Promise<ClaimedOrder[]> {
  const rows = await trx
    .updateTable('payments')
    .set({ updated_at: now })
    .where('id', 'in', ids)
    .where('bank', '=', bank)
    .where(STANDING_ORDER_RUNNING)
    .where('requested_execution_date', '<=', date)
    .returning([...CLAIMED_COLUMNS, 'requested_execution_date'])
    .execute();
  if (rows.length === 0) return [];
  const limits = await signerLimits(trx, rows);
  rows.sort((a, b) => compare(a.id, b.id));
  const claimed = rows.map((r) => r.id);
  const last = new Map(
    (
      await trx
        .selectFrom('periodic_executions')
        .select(['payment_id', (eb) => eb.fn.max('seq').as('seq')])
        .where('payment_id', 'in', claimed)
        .groupBy('payment_id')
        .execute()
    ).map((r) => [r.payment_id, Number(r.seq)]),
  );
  const transfers = new Map<string, TransferRow[]>(claimed.map((id) => [id, []]));
  for (const row of await trx
    .selectFrom('transfers')
    .select(TRANSFER_COLUMNS)
    .where('payment_id', 'in', claimed)
    .execute())
    transfers.get(row.payment_id)!.push(row);
  return rows.map((row) => {
    const body: unknown = JSON.parse(row.body);
    const first = next(body, last.get(row.id));
    // The order's date is its next execution's, written with the one before: anything else is a broken store.
    if (first === undefined || first.date !== row.requested_execution_date)
      throw new Error(
        `standing order ${row.id}: next execution ${JSON.stringify(first)} is not the date stored, ${row.requested_execution_date}`,
      );
    return { ...toExecute(row, transfers.get(row.id)!, limits), body, first };
  });
}

/**
 * Every execution due by `date`, in date order (an account that cannot cover every one pays the
 * earliest), and the execution each order that executes goes on to. A catch-up over months books
 * several of an order here rather than one per transaction; at most PERIODIC_EXECUTIONS_PER_TRANSACTION,
 * the rest in the next transaction.
 */
function dueExecutions(
  orders: readonly ClaimedOrder[],
  date: string,
  next: NextExecution,
): { due: { order: ClaimedOrder; execution: Execution }[]; following: Map<string, Execution | undefined> } {
  const due: { order: ClaimedOrder; execution: Execution }[] = [];
  const following = new Map<string, Execution | undefined>();
  for (const order of orders) {
    let execution: Execution | undefined = order.first;
    while (execution !== undefined && execution.date <= date && due.length < PERIODIC_EXECUTIONS_PER_TRANSACTION) {
      due.push({ order, execution });
      execution = next(order.body, execution.seq);
    }
    if (execution !== order.first) following.set(order.payment.id, execution);
  }
  due.sort((a, b) => compare(a.execution.date, b.execution.date));
  return { due, following };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The bookings of the executions, each on its execution's date. */
async function bookExecutions(trx: Kysely<Database>, claimed: readonly Claimed[], now: string): Promise<void> {
  const debtorNames = await customerNames(
    trx,
    claimed.flatMap((c) =>
      c.booked.bookings.length > 0 && c.booked.debtor !== undefined ? [c.booked.debtor.customerId] : [],
    ),
  );
  const byDate = new Map<string, BookedPayment[]>();
  for (const c of claimed) {
    const list = byDate.get(c.execution.date) ?? [];
    list.push(c.booked);
    byDate.set(c.execution.date, list);
  }
  for (const [date, booked] of byDate) await insertBookings(trx, booked, debtorNames, date, now);
}

/** Each execution's row, and each order that executed moved to its next execution (one update per next date), or ended. */
async function recordExecutions(
  trx: Kysely<Database>,
  bank: string,
  claimed: readonly Claimed[],
  following: ReadonlyMap<string, Execution | undefined>,
  now: string,
): Promise<void> {
  const rows: Insertable<PeriodicExecutionTable>[] = claimed.map((c) => ({
    payment_id: c.booked.paymentId,
    seq: c.execution.seq,
    bank,
    execution_date: c.execution.date,
    status: c.booked.status,
    status_reason: c.booked.reason ?? null,
    created_at: now,
  }));
  await insertRecords(
    trx,
    'periodic_executions',
    ['payment_id', 'seq', 'bank', 'execution_date', 'status', 'status_reason', 'created_at'],
    rows,
  );
  const byNext = new Map<string, string[]>();
  for (const [paymentId, execution] of following) {
    const key = execution?.date ?? '';
    byNext.set(key, [...(byNext.get(key) ?? []), paymentId]);
  }
  for (const [nextDate, ids] of byNext) {
    const status: TransactionStatus = nextDate === '' ? 'ACSC' : 'ACTC';
    await trx
      .updateTable('payments')
      .set(
        nextDate === '' ? { status, updated_at: now } : { status, requested_execution_date: nextDate, updated_at: now },
      )
      .where('id', 'in', ids)
      .execute();
    if (nextDate === '') await trx.updateTable('transfers').set({ status }).where('payment_id', 'in', ids).execute();
  }
}

/** A standing order's next execution date while it runs, and its latest executions. */
export async function findPeriodicOrder(
  db: Kysely<Database>,
  paymentId: string,
): Promise<PeriodicOrderState | undefined> {
  const order = await db
    .selectFrom('payments')
    .select(['status', 'requested_execution_date'])
    .where('id', '=', paymentId)
    .where('service', '=', 'periodic-payments')
    .executeTakeFirst();
  if (order === undefined) return undefined;
  const executions = await db
    .selectFrom('periodic_executions')
    .select(['seq', 'execution_date', 'status', 'status_reason'])
    .where('payment_id', '=', paymentId)
    .orderBy('seq', 'desc')
    .limit(PERIODIC_EXECUTIONS_SHOWN)
    .execute();
  return {
    nextExecutionDate: isRunningOrder(order.status) ? (order.requested_execution_date ?? undefined) : undefined,
    executions: executions.map((e) => ({
      seq: Number(e.seq),
      executionDate: e.execution_date,
      status: e.status as TransactionStatus,
      statusReason: e.status_reason ?? undefined,
    })),
  };
}

/** The psu_key of the default data set's standing orders: POST /v1/sandbox/initialize ends them before it loads new ones. */
export const DATA_SET_PSU_KEY = 'data-set';

/**
 * Standing orders already running, with the executions they have made booked on their debtor
 * accounts (which hold their balance after them), in the caller's transaction: the bank's data
 * (saveBankData). Each is the bank's TPP's, so that the TPP may read it; a reload of the default
 * data set ends (CANC) the ones loaded before, whose accounts it removes.
 */
export async function saveStandingOrders(
  trx: Kysely<Database>,
  bank: string,
  orders: readonly RunningStandingOrder[],
): Promise<void> {
  await trx
    .updateTable('payments')
    .set({ status: LIFECYCLE.endOrder.to[0], updated_at: new Date().toISOString() })
    .where('bank', '=', bank)
    .where('psu_key', '=', DATA_SET_PSU_KEY)
    .where(STANDING_ORDER_RUNNING)
    .execute();
  for (const order of orders) {
    const payment = { ...order.payment, tppId: bank, psu: { ...order.payment.psu, key: DATA_SET_PSU_KEY } };
    const at = order.authorisedAt.toISOString();
    await trx
      .insertInto('payments')
      .values({ ...paymentRow(payment, bank), authorised_at: at })
      .execute();
    await trx.insertInto('transfers').values(transferRows(payment)).execute();
    if (order.executed.length === 0) continue;
    await trx
      .insertInto('periodic_executions')
      .values(
        order.executed.map((e) => ({
          payment_id: payment.id,
          seq: e.seq,
          bank,
          execution_date: e.date,
          status: 'ACSC',
          status_reason: null,
          created_at: at,
        })),
      )
      .execute();
    await bookPastExecutions(trx, payment, order, at);
  }
}

/** The executions a running order has made, booked on its debtor account at its next positions. */
async function bookPastExecutions(
  trx: Kysely<Database>,
  payment: RunningStandingOrder['payment'],
  order: RunningStandingOrder,
  at: string,
): Promise<void> {
  const account = await trx
    .selectFrom('accounts')
    .innerJoin('customers', 'customers.id', 'accounts.customer_id')
    .select(['accounts.bban', 'accounts.iban', 'accounts.transaction_count', 'customers.name'])
    .where('accounts.id', '=', order.debtorAccountId)
    .executeTakeFirstOrThrow();
  const transfer = payment.transfers[0]!;
  const first = Number(account.transaction_count);
  const entry = entriesOf(payment.body, payment.service)[0]!;
  await trx
    .insertInto('account_transactions')
    .values(
      order.executed.map((e, i) => ({
        id: `enc!!${timeOrderedId()}`,
        account_id: order.debtorAccountId,
        seq: first + i + 1,
        amount_minor: transfer.amount.minor,
        currency: transfer.amount.currency,
        booking_date: e.date,
        value_date: e.date,
        remittance: entry.remittance,
        creditor_name: transfer.creditorName,
        ...creditorColumns(transfer.creditorAccount),
        debtor_name: account.name,
        debtor_iban: account.iban,
        debtor_bban: account.bban,
        bank_transaction_code: STANDING_ORDER_DEBIT,
        ultimate_debtor: entry.ultimateDebtor,
        ultimate_creditor: '',
        purpose_code: entry.purposeCode,
        end_to_end_id: entry.endToEndId,
        payment_id: payment.id,
        created_at: at,
      })),
    )
    .execute();
  await trx
    .updateTable('accounts')
    .set({ transaction_count: first + order.executed.length })
    .where('id', '=', order.debtorAccountId)
    .execute();
}

function creditorColumns(creditorAccount: string): { creditor_iban: string; creditor_bban: string } {
  const numbers = creditorNumbers(creditorAccount);
  return { creditor_iban: numbers.iban, creditor_bban: numbers.bban };
}
