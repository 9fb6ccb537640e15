import { type Kysely, type Selectable, sql } from 'kysely';
import type { ConsentResource, ConsentResourceKind, ConsentStatus } from '../../domain/ais-consent.js';
import type { CustomerType, EngagementRole } from '../../domain/bank.js';
import type { PsuContext } from '../../domain/psu.js';
import type {
  AisCardAccount,
  AisCardTransaction,
  AisConsent,
  AisTransaction,
  AisTransactionQuery,
  NewAisConsent,
  PendingPayment,
  Shareable,
} from '../ais-records.js';
import type { AisConsentTable, Database } from '../database.js';
import type { NewAuthorisation } from '../sca-records.js';
import type { StoredTppRequest, TppRequestRecord } from '../store.js';
import type { TransactionLock } from './basket-queries.js';
import { TRANSFER_COLUMNS, transfersToExecute } from './transfer-rows.js';
import { tppRequestRow } from '../payment-rows.js';
import { findStoredRequest } from './tpp-request-queries.js';
import { TRANSACTION_COLUMNS, toTransaction } from './sandbox-queries.js';
import { createAuthorisation } from './sca-queries.js';

/** Account information: consents, what a PSU may share, transaction pages, pending payments, unattended reads. */

/**
 * Stores a consent (received) with its SCA link's authorisation and the request that created it, in
 * one transaction, unless the TPP sent this X-Request-ID before: then the stored request is returned
 * and nothing is written. The request's lock serialises two creates sent with one X-Request-ID.
 */
export async function createConsent(
  db: Kysely<Database>,
  lock: TransactionLock,
  consent: NewAisConsent,
  authorisation: NewAuthorisation,
  request: TppRequestRecord,
): Promise<StoredTppRequest | undefined> {
  return db.transaction().execute(async (trx) => {
    await lock(trx, `request|${request.tppId}|${request.requestId}`);
    const earlier = await findStoredRequest(trx, request.tppId, request.requestId);
    if (earlier !== undefined) return earlier;
    await insertConsent(trx, consent, authorisation);
    await trx
      .insertInto('tpp_requests')
      .values(tppRequestRow(request, null, consent.createdAt.toISOString()))
      .execute();
    return undefined;
  });
}

/** A consent made by a read's 401 challenge: no request to keep (a read is not replayed). */
export async function createChallengeConsent(
  db: Kysely<Database>,
  consent: NewAisConsent,
  authorisation: NewAuthorisation,
): Promise<void> {
  await db.transaction().execute((trx) => insertConsent(trx, consent, authorisation));
}

/** A received consent and the authorisation of its SCA link; the caller gives the transaction. */
async function insertConsent(
  trx: Kysely<Database>,
  consent: NewAisConsent,
  authorisation: NewAuthorisation,
): Promise<void> {
  const at = consent.createdAt.toISOString();
  await trx
    .insertInto('ais_consents')
    .values({
      id: consent.id,
      bank: consent.bank,
      tpp_id: consent.tppId,
      tpp_session_id: consent.tppSessionId,
      status: 'received',
      psu_context: consent.psuContext,
      agreement_id: consent.agreementId ?? null,
      customer_id: null,
      sca_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await createAuthorisation(trx, authorisation);
}

/** The valid consent of a TPP's session that a customer gave (the latest, should two be valid). */
export async function findSessionConsent(
  db: Kysely<Database>,
  tppId: string,
  tppSessionId: string,
  customerId: string,
): Promise<AisConsent | undefined> {
  const row = await db
    .selectFrom('ais_consents')
    .selectAll()
    .where('tpp_id', '=', tppId)
    .where('tpp_session_id', '=', tppSessionId)
    .where('status', '=', 'valid')
    .where('customer_id', '=', customerId)
    .orderBy('sca_at', 'desc')
    .executeTakeFirst();
  return row === undefined ? undefined : toConsent(row);
}

/**
 * The PSU's choice: the consent, while still received, becomes valid with these accounts, and an
 * earlier valid consent of the same session and customer is replaced (a renewed SCA, or a new choice,
 * takes its place). False when the consent was decided already.
 */
export async function giveConsent(
  db: Kysely<Database>,
  consentId: string,
  customerId: string,
  resources: readonly ConsentResource[],
  at: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const now = at.toISOString();
    const updated = await trx
      .updateTable('ais_consents')
      .set({ status: 'valid', customer_id: customerId, sca_at: now, updated_at: now })
      .where('id', '=', consentId)
      .where('status', '=', 'received')
      .returning(['tpp_id', 'tpp_session_id'])
      .executeTakeFirst();
    if (updated === undefined) return false;
    if (resources.length > 0) {
      await trx
        .insertInto('ais_consent_accounts')
        .values(resources.map((r) => ({ consent_id: consentId, kind: r.kind, resource_id: r.id })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await trx
      .updateTable('ais_consents')
      .set({ status: 'replaced', updated_at: now })
      .where('tpp_id', '=', updated.tpp_id)
      .where('tpp_session_id', '=', updated.tpp_session_id)
      .where('customer_id', '=', customerId)
      .where('status', '=', 'valid')
      .where('id', '<>', consentId)
      .execute();
    return true;
  });
}

export async function refuseConsent(db: Kysely<Database>, consentId: string, at: Date): Promise<void> {
  await db
    .updateTable('ais_consents')
    .set({ status: 'rejected', updated_at: at.toISOString() })
    .where('id', '=', consentId)
    .where('status', '=', 'received')
    .execute();
}

export async function consentResources(db: Kysely<Database>, consentId: string): Promise<ConsentResource[]> {
  const rows = await db
    .selectFrom('ais_consent_accounts')
    .select(['kind', 'resource_id'])
    .where('consent_id', '=', consentId)
    .execute();
  return rows.map((r) => ({ kind: r.kind as ConsentResourceKind, id: r.resource_id }));
}

/**
 * What a customer may share: in the private context the accounts and card accounts they own; acting
 * for a corporate agreement, the agreement's accounts on which they have the role VIEW (a card
 * account is no account of an agreement). Accounts in number order, card accounts by masked number.
 */
export async function shareable(
  db: Kysely<Database>,
  bank: string,
  customerId: string,
  agreementId: string | undefined,
): Promise<Shareable> {
  const accountColumns = [
    'a.id',
    'a.customer_id',
    'a.bban',
    'a.iban',
    'a.currency',
    'a.name',
    'a.product',
    'a.cash_account_type',
    'a.credit_line_minor',
    'a.balance_minor',
    'c.name as owner_name',
    'c.type as owner_type',
  ] as const;
  if (agreementId !== undefined) {
    const rows = await db
      .selectFrom('engagements as e')
      .innerJoin('accounts as a', 'a.id', 'e.account_id')
      .innerJoin('customers as c', 'c.id', 'a.customer_id')
      .select([...accountColumns, 'e.roles'])
      .where('e.bank', '=', bank)
      .where('e.agreement_id', '=', agreementId)
      .where('e.customer_id', '=', customerId)
      .orderBy('a.bban')
      .execute();
    return {
      accounts: rows.filter((r) => (JSON.parse(r.roles) as EngagementRole[]).includes('VIEW')).map(toAccount),
      cards: [],
    };
  }
  const accounts = await db
    .selectFrom('accounts as a')
    .innerJoin('customers as c', 'c.id', 'a.customer_id')
    .select(accountColumns)
    .where('a.bank', '=', bank)
    .where('a.customer_id', '=', customerId)
    .orderBy('a.bban')
    .execute();
  const cards = await db
    .selectFrom('card_accounts as k')
    .innerJoin('customers as c', 'c.id', 'k.customer_id')
    .select([
      'k.id',
      'k.customer_id',
      'k.masked_pan',
      'k.name',
      'k.product',
      'k.currency',
      'k.credit_limit_minor',
      'k.body',
      'c.name as owner_name',
      'c.type as owner_type',
    ])
    .where('k.bank', '=', bank)
    .where('k.customer_id', '=', customerId)
    .orderBy('k.masked_pan')
    .orderBy('k.id')
    .execute();
  return {
    accounts: accounts.map(toAccount),
    cards: cards.map((k): AisCardAccount => ({
      id: k.id,
      customerId: k.customer_id,
      maskedPan: k.masked_pan,
      name: k.name,
      product: k.product,
      currency: k.currency,
      creditLimitMinor: BigInt(k.credit_limit_minor),
      body: JSON.parse(k.body) as Record<string, unknown>,
      ownerName: k.owner_name,
      ownerType: k.owner_type as CustomerType,
    })),
  };
}

function toAccount(r: {
  id: string;
  customer_id: string;
  bban: string;
  iban: string;
  currency: string;
  name: string;
  product: string;
  cash_account_type: string;
  credit_line_minor: bigint;
  balance_minor: bigint;
  owner_name: string;
  owner_type: string;
}) {
  return {
    id: r.id,
    customerId: r.customer_id,
    bban: r.bban,
    iban: r.iban,
    currency: r.currency,
    name: r.name,
    product: r.product,
    cashAccountType: r.cash_account_type,
    creditLineMinor: BigInt(r.credit_line_minor),
    balanceMinor: BigInt(r.balance_minor),
    ownerName: r.owner_name,
    ownerType: r.owner_type as CustomerType,
  };
}

/** The sandbox's transaction columns (sandbox-queries.ts), of the table the page joins as `t`. */
const PAGE_COLUMNS = TRANSACTION_COLUMNS.map((column) => `t.${column}` as const);

/**
 * A page of an account's booked transactions in booking-date order, then posting order, after a
 * position: one range of the (account, booking date, seq) index (migration 004), however deep the
 * page, and a primary-key look-up of the payment that booked each (to know a bulk payment's entries).
 */
export async function transactionsPage(
  db: Kysely<Database>,
  accountId: string,
  query: AisTransactionQuery,
): Promise<AisTransaction[]> {
  let select = db
    .selectFrom('account_transactions as t')
    .leftJoin('payments as p', 'p.id', 't.payment_id')
    .select([...PAGE_COLUMNS, 'p.service'])
    .where('t.account_id', '=', accountId);
  const after = startAfter(query);
  if (after !== undefined)
    select = select.where(sql<boolean>`(t.booking_date, t.seq) > (${after.bookingDate}, ${after.seq})`);
  else if (query.dateFrom !== undefined) select = select.where('t.booking_date', '>=', query.dateFrom);
  if (query.dateTo !== undefined) select = select.where('t.booking_date', '<=', query.dateTo);
  const rows = await select.orderBy('t.booking_date').orderBy('t.seq').limit(query.limit).execute();
  return rows.map((row) => ({ ...toTransaction(row, accountId), bulk: row.service === 'bulk-payments' }));
}

/**
 * The one lower bound a page is read from: the cursor when it is at or after dateFrom (it implies
 * dateFrom), else dateFrom. Given both, SQLite ranged the index on dateFrom and filtered every row from
 * there to the cursor: a page deep in 1 000 000 transactions took 1.5 s instead of milliseconds.
 */
function startAfter(query: AisTransactionQuery): AisTransactionQuery['after'] {
  return query.after !== undefined && (query.dateFrom === undefined || query.after.bookingDate >= query.dateFrom)
    ? query.after
    : undefined;
}

/** A page of a card account's transactions in booking-date order, then posting order, after a position (migration 011's index). */
export async function cardTransactionsPage(
  db: Kysely<Database>,
  cardAccountId: string,
  query: AisTransactionQuery,
): Promise<AisCardTransaction[]> {
  let select = db
    .selectFrom('card_transactions')
    .select(['id', 'seq', 'booking_date', 'body'])
    .where('card_account_id', '=', cardAccountId);
  const after = startAfter(query);
  if (after !== undefined)
    select = select.where(sql<boolean>`(booking_date, seq) > (${after.bookingDate}, ${after.seq})`);
  else if (query.dateFrom !== undefined) select = select.where('booking_date', '>=', query.dateFrom);
  if (query.dateTo !== undefined) select = select.where('booking_date', '<=', query.dateTo);
  const rows = await select.orderBy('booking_date').orderBy('seq').limit(query.limit).execute();
  return rows.map((r) => ({
    id: r.id,
    seq: Number(r.seq),
    bookingDate: r.booking_date,
    body: JSON.parse(r.body) as Record<string, unknown>,
  }));
}

/**
 * The payments authorised and not yet executed from an account (statuses ACTC and PDNG), oldest
 * authorisation first, at most `limit`, with their transfers. Read in the order of payments_due
 * (migration 008), the bank's payments waiting for the next batch run, filtered by debtor: an index
 * of its own on payments would make every authorisation and execution of a payment write it, for
 * the sake of a read bounded by one batch interval's payments.
 */
export async function pendingPayments(
  db: Kysely<Database>,
  bank: string,
  account: { bban: string; iban: string },
  limit: number,
): Promise<PendingPayment[]> {
  const rows = await db
    .selectFrom('payments')
    .select(['id', 'service', 'product', 'fee_minor', 'fee_currency', 'body', 'requested_execution_date'])
    .where('bank', '=', bank)
    .where(sql<boolean>`status in ('ACTC', 'PDNG')`)
    .where((eb) => eb.or([eb('debtor_bban', '=', account.bban), eb('debtor_iban', '=', account.iban)]))
    .orderBy('authorised_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const transfers = await db
    .selectFrom('transfers')
    .select(TRANSFER_COLUMNS)
    .where(
      'payment_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('payment_id')
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    service: r.service,
    product: r.product,
    feeMinor: BigInt(r.fee_minor),
    feeCurrency: r.fee_currency,
    requestedExecutionDate: r.requested_execution_date ?? undefined,
    transfers: transfersToExecute(
      transfers.filter((t) => t.payment_id === r.id),
      r.body,
      r.service,
    ),
  }));
}

/**
 * Counts one read without the PSU present and returns the day's count, this read included. The
 * first read of a day removes the key's earlier days, so the table holds about a day per key.
 */
export async function countUnattendedRead(
  db: Kysely<Database>,
  tppId: string,
  key: string,
  day: string,
): Promise<number> {
  const row = await db
    .insertInto('ais_unattended_reads')
    .values({ tpp_id: tppId, resource_key: key, day, reads: 1 })
    .onConflict((oc) =>
      oc.columns(['tpp_id', 'resource_key', 'day']).doUpdateSet({ reads: sql<number>`ais_unattended_reads.reads + 1` }),
    )
    .returning('reads')
    .executeTakeFirstOrThrow();
  const reads = Number(row.reads);
  if (reads === 1)
    await db
      .deleteFrom('ais_unattended_reads')
      .where('tpp_id', '=', tppId)
      .where('resource_key', '=', key)
      .where('day', '<', day)
      .execute();
  return reads;
}

function toConsent(row: Selectable<AisConsentTable>): AisConsent {
  return {
    id: row.id,
    bank: row.bank,
    tppId: row.tpp_id,
    tppSessionId: row.tpp_session_id,
    status: row.status as ConsentStatus,
    psuContext: row.psu_context as PsuContext,
    agreementId: row.agreement_id ?? undefined,
    customerId: row.customer_id ?? undefined,
    scaAt: row.sca_at === null ? undefined : new Date(row.sca_at),
    createdAt: new Date(row.created_at),
  };
}
