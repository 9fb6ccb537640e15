import { type Kysely, type Selectable, sql } from 'kysely';
import type { ConsentStatus } from '../../domain/ais-consent.js';
import type { CustomerType } from '../../domain/bank.js';
import type { AuthorisationKind, AuthorisationStatus } from '../../domain/sca.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type {
  AuthorisationRecord,
  ConsentSummary,
  CustomerAccounts,
  PaymentHistory,
  PaymentSummary,
} from '../bank-overview-records.js';
import type { Database, PaymentTable } from '../database.js';
import { accountOf } from './account-rows.js';
import { cardAccountOf } from './card-account-rows.js';
import { transfersOfPayments } from './transfer-rows.js';

/**
 * A bank's payments, consents and accounts read as lists (bank-overview-records.ts), for its console.
 * Every read names the bank and stops at its limit.
 */

type PaymentRow = Pick<
  Selectable<PaymentTable>,
  | 'id'
  | 'service'
  | 'product'
  | 'status'
  | 'status_reason'
  | 'created_at'
  | 'updated_at'
  | 'authorised_at'
  | 'requested_execution_date'
  | 'debtor_bban'
  | 'debtor_iban'
  | 'entry_count'
>;

const PAYMENT_COLUMNS = [
  'id',
  'service',
  'product',
  'status',
  'status_reason',
  'created_at',
  'updated_at',
  'authorised_at',
  'requested_execution_date',
  'debtor_bban',
  'debtor_iban',
  'entry_count',
] as const;

/**
 * The TPP's payments in the bank, newest first, read on payments_bank_created (migration 020), a
 * partial index of sandbox banks: the read names its predicate, `bank <> ''`, as the index has it.
 */
export async function listPayments(
  db: Kysely<Database>,
  tppId: string,
  bank: string,
  limit: number,
): Promise<PaymentSummary[]> {
  const rows = await db
    .selectFrom('payments')
    .select(PAYMENT_COLUMNS)
    .where('bank', '=', bank)
    .where(sql<boolean>`bank <> ''`)
    .where('tpp_id', '=', tppId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return summaries(db, rows);
}

/** The payments with the sum and first creditor of their transfers, read in one statement for all of them. */
async function summaries(db: Kysely<Database>, rows: readonly PaymentRow[]): Promise<PaymentSummary[]> {
  if (rows.length === 0) return [];
  const transfers = await transfersOfPayments(
    db,
    rows.map((r) => r.id),
  );
  const totals = new Map<string, { amountMinor: bigint; currency: string; name: string; account: string }>();
  for (const t of transfers) {
    const total = totals.get(t.payment_id);
    if (total === undefined)
      totals.set(t.payment_id, {
        amountMinor: BigInt(t.amount_minor),
        currency: t.currency,
        name: t.creditor_name,
        account: t.creditor_account,
      });
    else total.amountMinor += BigInt(t.amount_minor);
  }
  return rows.map((row) => {
    const total = totals.get(row.id);
    return {
      id: row.id,
      service: row.service,
      product: row.product,
      status: row.status as TransactionStatus,
      statusReason: row.status_reason ?? undefined,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      authorisedAt: row.authorised_at ?? undefined,
      requestedExecutionDate: row.requested_execution_date ?? undefined,
      debtorAccount: row.debtor_bban ?? row.debtor_iban ?? undefined,
      amountMinor: total?.amountMinor ?? 0n,
      currency: total?.currency ?? '',
      creditorName: total?.name ?? '',
      creditorAccount: total?.account ?? '',
      entryCount: Number(row.entry_count),
    };
  });
}

/**
 * A payment with what its history is read from: its authorisations (its own, its basket's, its
 * cancellation's), the transactions its execution booked on the bank's accounts, and a standing
 * order's executions. Each list keeps the newest `limit`, in time order.
 */
export async function paymentHistory(
  db: Kysely<Database>,
  tppId: string,
  bank: string,
  paymentId: string,
  limit: number,
): Promise<PaymentHistory | undefined> {
  const row = await db
    .selectFrom('payments as p')
    .leftJoin('basket_payments as b', 'b.payment_id', 'p.id')
    .select(PAYMENT_COLUMNS.map((c) => `p.${c}` as const))
    .select(['p.fee_minor', 'p.fee_currency', 'b.basket_id', 'p.held_until', 'p.held_then', 'p.held_reason'])
    .where('p.id', '=', paymentId)
    .where('p.bank', '=', bank)
    .where('p.tpp_id', '=', tppId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const [summary] = await summaries(db, [row]);
  const objects = row.basket_id === null ? [paymentId] : [paymentId, row.basket_id];
  const [authorisations, bookings, executions] = await Promise.all([
    historyAuthorisations(db, tppId, objects, limit),
    historyBookings(db, bank, paymentId, row.created_at, limit),
    historyExecutions(db, bank, paymentId, limit),
  ]);
  return {
    payment: {
      ...summary!,
      feeMinor: BigInt(row.fee_minor),
      feeCurrency: row.fee_currency,
      basketId: row.basket_id ?? undefined,
      hold:
        row.held_until === null
          ? undefined
          : {
              until: row.held_until,
              then: (row.held_then ?? 'ACSC') as TransactionStatus,
              reason: row.held_reason ?? undefined,
            },
    },
    authorisations,
    bookings,
    executions,
  };
}

/** The newest `limit` authorisations of the payment or its basket (`objects`), in time order. */
async function historyAuthorisations(
  db: Kysely<Database>,
  tppId: string,
  objects: string[],
  limit: number,
): Promise<PaymentHistory['authorisations']> {
  const rows = await db
    .selectFrom('authorisations')
    .select(['id', 'kind', 'stage', 'status', 'created_at', 'updated_at', 'expires_at'])
    .where('object_id', 'in', objects)
    .where('kind', 'in', ['payment', 'basket', 'cancellation'])
    .where('tpp_id', '=', tppId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((a): AuthorisationRecord => ({
    id: a.id,
    kind: a.kind as AuthorisationKind,
    stage: a.stage as AuthorisationRecord['stage'],
    status: a.status as AuthorisationStatus,
    createdAt: new Date(a.created_at),
    updatedAt: new Date(a.updated_at),
    expiresAt: new Date(a.expires_at),
  }));
}

/**
 * The newest `limit` transactions the payment's execution booked on the bank's accounts, in time
 * order: those booked since the payment was made (`createdAt`; the booking index's range of each of
 * the bank's accounts), of this payment, as a booking's date is never before its payment's.
 */
async function historyBookings(
  db: Kysely<Database>,
  bank: string,
  paymentId: string,
  createdAt: string,
  limit: number,
): Promise<PaymentHistory['bookings']> {
  const rows = await db
    .selectFrom('account_transactions as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select([
      'a.bban',
      't.debtor_bban',
      't.amount_minor',
      't.currency',
      't.booking_date',
      't.seq',
      't.bank_transaction_code',
      't.created_at',
    ])
    .where('a.bank', '=', bank)
    .where('t.booking_date', '>=', createdAt.slice(0, 10))
    .where('t.payment_id', '=', paymentId)
    .orderBy('t.booking_date', 'desc')
    .orderBy('t.created_at', 'desc')
    .orderBy('t.seq', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((t) => ({
    accountBban: t.bban,
    direction: t.debtor_bban === t.bban ? 'debit' : 'credit',
    amountMinor: BigInt(t.amount_minor),
    currency: t.currency,
    bookingDate: t.booking_date,
    bankTransactionCode: t.bank_transaction_code,
    createdAt: t.created_at,
  }));
}

/** The newest `limit` executions of a standing order, in time order. */
async function historyExecutions(
  db: Kysely<Database>,
  bank: string,
  paymentId: string,
  limit: number,
): Promise<PaymentHistory['executions']> {
  const rows = await db
    .selectFrom('periodic_executions')
    .select(['seq', 'execution_date', 'status', 'status_reason', 'created_at'])
    .where('payment_id', '=', paymentId)
    .where('bank', '=', bank)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((e) => ({
    executionDate: e.execution_date,
    status: e.status as TransactionStatus,
    statusReason: e.status_reason ?? undefined,
    createdAt: e.created_at,
  }));
}

/**
 * The TPP's consents in the bank, newest first, with the customer who gave each and what it shares.
 * Read on the index that leads with the TPP (ais_consents_session): a sandbox bank's consents are its
 * TPP's.
 */
export async function listConsents(
  db: Kysely<Database>,
  tppId: string,
  bank: string,
  limit: number,
): Promise<ConsentSummary[]> {
  const rows = await db
    .selectFrom('ais_consents as s')
    .leftJoin('customers as c', 'c.id', 's.customer_id')
    .select([
      's.id',
      's.tpp_session_id',
      's.status',
      's.psu_context',
      's.agreement_id',
      's.sca_at',
      's.created_at',
      's.updated_at',
      'c.customer_number',
      'c.name',
    ])
    .where('s.tpp_id', '=', tppId)
    .where('s.bank', '=', bank)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [accounts, cards] = await Promise.all([
    db
      .selectFrom('ais_consent_accounts as r')
      .innerJoin('accounts as a', 'a.id', 'r.resource_id')
      .select(['r.consent_id', 'a.bban as number', 'a.name'])
      .where('r.consent_id', 'in', ids)
      .where('r.kind', '=', 'account')
      .orderBy('a.bban')
      .execute(),
    db
      .selectFrom('ais_consent_accounts as r')
      .innerJoin('card_accounts as k', 'k.id', 'r.resource_id')
      .select(['r.consent_id', 'k.masked_pan as number', 'k.name'])
      .where('r.consent_id', 'in', ids)
      .where('r.kind', '=', 'card')
      .orderBy('k.masked_pan')
      .execute(),
  ]);
  const shared = new Map<string, ConsentSummary['shared']>(ids.map((id) => [id, []]));
  for (const a of accounts) shared.get(a.consent_id)!.push({ kind: 'account', number: a.number, name: a.name });
  for (const k of cards) shared.get(k.consent_id)!.push({ kind: 'card', number: k.number, name: k.name });
  return rows.map((row) => ({
    id: row.id,
    tppSessionId: row.tpp_session_id,
    status: row.status as ConsentStatus,
    psuContext: row.psu_context,
    customerNumber: row.customer_number ?? undefined,
    customerName: row.name ?? undefined,
    agreementId: row.agreement_id ?? undefined,
    scaAt: row.sca_at === null ? undefined : new Date(row.sca_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    shared: shared.get(row.id)!,
  }));
}

/** The accounts and card accounts of these customers of the bank (accounts_customer, card_accounts_customer). */
export async function customerAccounts(
  db: Kysely<Database>,
  bank: string,
  customerIds: readonly string[],
): Promise<CustomerAccounts> {
  if (customerIds.length === 0) return { accounts: [], cards: [] };
  const ids = [...customerIds];
  const [accounts, cards] = await Promise.all([
    db
      .selectFrom('accounts as a')
      .innerJoin('customers as c', 'c.id', 'a.customer_id')
      .selectAll('a')
      .select(['c.customer_number', 'c.type as customer_type'])
      .where('a.customer_id', 'in', ids)
      .where('a.bank', '=', bank)
      .orderBy('a.created_at')
      .orderBy('a.bban')
      .execute(),
    db
      .selectFrom('card_accounts as k')
      .innerJoin('customers as c', 'c.id', 'k.customer_id')
      .selectAll('k')
      .select(['c.customer_number'])
      .where('k.customer_id', 'in', ids)
      .where('k.bank', '=', bank)
      .orderBy('k.created_at')
      .orderBy('k.masked_pan')
      .execute(),
  ]);
  return {
    accounts: accounts.map((row) => ({
      ...accountOf(row),
      customerNumber: row.customer_number,
      customerType: row.customer_type as CustomerType,
      transactionCount: Number(row.transaction_count),
    })),
    cards: cards.map((row) => cardAccountOf(row, row.customer_number)),
  };
}
