import { randomBytes } from 'node:crypto';
import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { SORTED_BASE64URL, timePart } from '../../domain/time-ordered-id.js';
import {
  type AccountKey,
  type BookedPayment,
  ChunkLedger,
  type LedgerAccount,
  type PaymentToExecute,
  creditorKey,
  creditorNumbers,
  rejectedPayment,
} from '../../domain/payment-execution.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type { AccountTransactionTable, Database, PaymentTable } from '../database.js';
import { BATCH_TAKES, SCENARIO_HOLDS } from '../../domain/payment-lifecycle.js';
import { HELD_BY_SCENARIO, WAITING_FOR_RUN } from './payment-index-conditions.js';
import type { ExecutionOutcome, Planner } from '../ledger-records.js';
import { INSERT_CHUNK } from './insert-chunk.js';
import { TRANSFER_COLUMNS, type TransferRow, transfersToExecute } from './transfer-rows.js';
import { accountOf } from './account-rows.js';
import { coursesOf, holdPayments } from './payment-course-queries.js';

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
    const claimed = new Map(
      (
        await trx
          .updateTable('payments')
          .set({ status: 'ACSP', updated_at: now })
          .where('id', 'in', unique)
          .where('bank', '=', bank)
          // Waiting for a run, or held by a scenario until a time that has come (migration 019).
          .where((eb) =>
            eb.or([
              eb.and([eb('status', 'in', BATCH_TAKES), eb('held_until', 'is', null)]),
              eb.and([eb('status', 'in', SCENARIO_HOLDS), eb('held_until', '<=', now)]),
            ]),
          )
          // Standing orders execute on their own dates (periodic-queries.ts), never as one payment.
          .where('service', '<>', 'periodic-payments')
          .returning([...CLAIMED_COLUMNS, 'held_until', 'held_then', 'held_reason'])
          .execute()
      ).map((row) => [row.id, row]),
    );
    if (claimed.size === 0) return [];
    const limits = await signerLimits(trx, [...claimed.values()]);
    const ids = unique.filter((id) => claimed.has(id));
    const transfers = new Map<string, TransferRow[]>(ids.map((id) => [id, []]));
    const transferRows = await trx
      .selectFrom('transfers')
      .select(TRANSFER_COLUMNS)
      .where('payment_id', 'in', ids)
      .execute();
    for (const row of transferRows) transfers.get(row.payment_id)!.push(row);

    const payments = ids.map((id) =>
      toExecute(
        claimed.get(id)!,
        transfers.get(id)!.sort((a, b) => Number(a.seq) - Number(b.seq)),
        limits,
      ),
    );
    const courses = await coursesOf(
      trx,
      bank,
      payments.map((p) => {
        const row = claimed.get(p.payment.id)!;
        return {
          payment: p.payment,
          debtorBban: row.debtor_bban,
          debtorIban: row.debtor_iban,
          heldUntil: row.held_until,
          heldThen: row.held_then,
          heldReason: row.held_reason,
        };
      }),
      at,
      scenarios,
    );
    const holds = payments.flatMap((p) => {
      const course = courses.get(p.payment.id)!;
      return course.kind === 'hold' ? [{ id: p.payment.id, course }] : [];
    });
    await holdPayments(trx, holds, now);
    const executing = payments.filter((p) => courses.get(p.payment.id)!.kind !== 'hold');
    const keys = [
      ...executing.map((p) => p.debtorKey).filter((k): k is AccountKey => k !== undefined),
      ...executing.flatMap((p) => p.payment.transfers.map((t) => creditorKey(t.creditorAccount))),
    ];
    const ledger = new ChunkLedger(await lockAccounts(trx, bank, keys));
    const booked = executing.map((p) => {
      const course = courses.get(p.payment.id)!;
      return course.kind === 'reject'
        ? rejectedPayment(p.payment, undefined, course.reason)
        : ledger.book(p.payment, p.debtorKey, plan);
    });

    const debtorNames = await customerNames(
      trx,
      booked.flatMap((b) => (b.bookings.length > 0 && b.debtor !== undefined ? [b.debtor.customerId] : [])),
    );
    await insertBookings(trx, booked, debtorNames, bookingDate, now);
    for (const account of ledger.changedAccounts()) {
      await trx
        .updateTable('accounts')
        .set({ balance_minor: account.balanceMinor, transaction_count: account.transactionCount })
        .where('id', '=', account.id)
        .execute();
    }
    await finish(trx, booked, now);
    return [
      ...booked.map((b) => ({ paymentId: b.paymentId, status: b.status })),
      ...holds.map((h) => ({ paymentId: h.id, status: h.course.status })),
    ];
  });
}

/** The columns of a payment that executing it reads. */
export const CLAIMED_COLUMNS = [
  'id',
  'service',
  'product',
  'fee_minor',
  'fee_currency',
  'body',
  'debtor_bban',
  'debtor_iban',
  'signed_by_customer_id',
] as const;

export type ClaimedRow = Pick<Selectable<PaymentTable>, (typeof CLAIMED_COLUMNS)[number]>;

/** The payment limits (øre) of the customers who signed these payments, of those who have one (sandbox data, migration 019). */
export async function signerLimits(
  trx: Kysely<Database>,
  rows: readonly Pick<ClaimedRow, 'signed_by_customer_id'>[],
): Promise<Map<string, bigint>> {
  const ids = [...new Set(rows.flatMap((r) => (r.signed_by_customer_id === null ? [] : [r.signed_by_customer_id])))];
  if (ids.length === 0) return new Map();
  const found = await trx
    .selectFrom('customers')
    .select(['id', 'payment_limit_minor'])
    .where('id', 'in', ids)
    .where('payment_limit_minor', 'is not', null)
    .execute();
  return new Map(found.map((r) => [r.id, BigInt(r.payment_limit_minor!)]));
}

export function toExecute(
  row: ClaimedRow,
  transfers: TransferRow[],
  limits: ReadonlyMap<string, bigint>,
): { payment: PaymentToExecute; debtorKey: AccountKey | undefined } {
  const payment: PaymentToExecute = {
    id: row.id,
    product: row.product,
    feeMinor: BigInt(row.fee_minor),
    feeCurrency: row.fee_currency,
    transfers: transfersToExecute(transfers, row.body, row.service),
    signerLimitMinor: row.signed_by_customer_id === null ? undefined : limits.get(row.signed_by_customer_id),
  };
  const debtorKey =
    row.debtor_iban !== null
      ? { iban: row.debtor_iban.toUpperCase() }
      : row.debtor_bban !== null
        ? { bban: row.debtor_bban }
        : undefined;
  return { payment, debtorKey };
}

/** The accounts of this bank that the keys name, each locked (in id order) and read under its lock. */
export async function lockAccounts(
  trx: Kysely<Database>,
  bank: string,
  keys: readonly AccountKey[],
): Promise<LedgerAccount[]> {
  const ibans = [...new Set(keys.flatMap((k) => ('iban' in k ? [k.iban] : [])))];
  const bbans = [...new Set(keys.flatMap((k) => ('bban' in k ? [k.bban] : [])))];
  if (ibans.length === 0 && bbans.length === 0) return [];
  const found = await trx
    .selectFrom('accounts')
    .select('id')
    .where('bank', '=', bank)
    .where((eb) =>
      eb.or([
        ...(ibans.length > 0 ? [eb('iban', 'in', ibans)] : []),
        ...(bbans.length > 0 ? [eb('bban', 'in', bbans)] : []),
      ]),
    )
    .execute();
  const accounts: LedgerAccount[] = [];
  for (const id of found.map((a) => a.id).sort()) {
    // An update that changes nothing takes the row lock on PostgreSQL (SQLite's transaction holds the
    // whole database already) and answers the row as it is once the lock is held.
    const row = await trx
      .updateTable('accounts')
      .set({ transaction_count: sql<number>`transaction_count` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (row === undefined) continue;
    accounts.push({ ...accountOf(row), transactionCount: Number(row.transaction_count) });
  }
  return accounts;
}

export async function customerNames(
  trx: Kysely<Database>,
  customerIds: readonly string[],
): Promise<Map<string, string>> {
  const ids = [...new Set(customerIds)];
  if (ids.length === 0) return new Map();
  const rows = await trx.selectFrom('customers').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * Every booking as an account transaction; the debtor side is the payment's debtor account. As a
 * TPP's test transactions (sandbox-rules.ts transactionDirection), the side the account is on says
 * debit or credit, and the amount is the amount moved, positive (the ledger's signed amount changed
 * the balance): a debit has the account as debtorAccount, a credit as creditorAccount.
 */
export async function insertBookings(
  trx: Kysely<Database>,
  booked: readonly BookedPayment[],
  debtorNames: Map<string, string>,
  bookingDate: string,
  now: string,
): Promise<void> {
  const rows: Insertable<AccountTransactionTable>[] = [];
  const ids = new LedgerIds(booked.reduce((n, b) => n + b.bookings.length, 0));
  for (const payment of booked) {
    const debtor = payment.debtor;
    if (debtor === undefined) continue;
    const debtorName = debtorNames.get(debtor.customerId) ?? '';
    for (const b of payment.bookings) {
      // The creditor's numbers as this bank knows them when the transfer was credited here, else as the payment gives them.
      const credited =
        b.kind === 'credit'
          ? b.account
          : payment.bookings.find((x) => x.kind === 'credit' && x.transfer === b.transfer)?.account;
      const given = creditorNumbers(b.transfer.creditorAccount);
      const creditorIban = b.kind === 'fee' ? '' : (credited?.iban ?? given.iban);
      const creditorBban = b.kind === 'fee' ? '' : (credited?.bban ?? given.bban);
      rows.push({
        id: ids.next(),
        account_id: b.account.id,
        seq: b.seq,
        amount_minor: b.amountMinor < 0n ? -b.amountMinor : b.amountMinor,
        currency: b.account.currency,
        booking_date: bookingDate,
        value_date: bookingDate,
        remittance: b.kind === 'fee' ? `Fee, payment ${payment.paymentId}` : b.transfer.remittance,
        creditor_name: b.kind === 'fee' ? 'Sandbox Bank ASA' : b.transfer.creditorName,
        creditor_iban: creditorIban,
        creditor_bban: creditorBban,
        debtor_name: debtorName,
        debtor_iban: debtor.iban,
        debtor_bban: debtor.bban,
        bank_transaction_code: b.bankTransactionCode,
        ultimate_debtor: b.transfer.ultimateDebtor,
        ultimate_creditor: '',
        purpose_code: b.transfer.purposeCode,
        end_to_end_id: b.kind === 'fee' ? '' : b.transfer.endToEndId,
        payment_id: payment.paymentId,
        created_at: now,
      });
    }
  }
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await trx
      .insertInto('account_transactions')
      .values(rows.slice(start, start + INSERT_CHUNK))
      .execute();
  }
}

/**
 * Ids of booked transactions, in the form of every id the bank gives (`enc!!` and 24 base64url
 * characters): the first 8 encode the milliseconds of the clock, the other 16 are random (96 bits), as
 * timeOrderedId's, with the random bytes taken ahead for a whole run.
 * Ids made later sort after earlier ones, so a chunk's rows go to the end of the primary key's index
 * instead of to as many random pages of it as there are rows, each written whole at each commit: a
 * large part of a batch run's time with wholly random ids (bench/README.md, "Figures behind the
 * source's reasons").
 */
class LedgerIds {
  private readonly random: Buffer;
  private readonly prefix: string;
  private used = 0;

  constructor(count: number) {
    this.random = randomBytes(16 * count);
    this.prefix = `enc!!${timePart(Date.now())}`;
  }

  next(): string {
    let id = this.prefix;
    for (let k = 16 * this.used; k < 16 * (this.used + 1); k++) id += SORTED_BASE64URL[this.random[k]! & 63]!;
    this.used += 1;
    return id;
  }
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
