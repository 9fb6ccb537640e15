import { type Kysely, type Selectable, type SelectQueryBuilder, type Transaction, sql } from 'kysely';
import type { CustomerType, EngagementRole } from '../../domain/bank.js';
import type { AccountTransactionTable, Database } from '../database.js';
import type { BankData } from '../sca-records.js';
import type {
  NewSandboxAccount,
  NewSandboxAgreement,
  NewSandboxCardAccount,
  NewSandboxCardTransaction,
  NewSandboxCustomer,
  NewSandboxTransaction,
  SandboxAccount,
  SandboxAgreement,
  SandboxCardAccount,
  SandboxCardTransaction,
  SandboxCustomer,
  SandboxCustomerHoldings,
  SandboxInitializeResult,
  SandboxTransaction,
  TransactionPage,
} from '../sandbox-records.js';
import { saveBankData } from './bank-queries.js';

/**
 * The sandbox's test data (mock-data API): customers, accounts, agreements, card accounts and their
 * transactions. Removing a customer, account or card account removes what hangs on it by the
 * foreign keys' ON DELETE CASCADE.
 */

/** Serialises writers of one key within a transaction (the store's engine-specific lock). */
export type Lock = (trx: Transaction<Database>, key: string) => Promise<void>;

/** Rows inserted per statement: 500 transactions of 20 columns stay far under either engine's bound on parameters. */
const INSERT_CHUNK = 500;

export async function createCustomer(
  db: Kysely<Database>,
  bank: string,
  customer: NewSandboxCustomer,
): Promise<boolean> {
  const result = await db
    .insertInto('customers')
    .values({
      id: customer.id,
      bank,
      customer_number: customer.customerNumber,
      name: customer.name,
      type: customer.type,
      tpp_id: customer.tppId ?? null,
      created_at: customer.createdAt.toISOString(),
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function findCustomer(
  db: Kysely<Database>,
  bank: string,
  by: { id: string } | { customerNumber: string },
): Promise<SandboxCustomer | undefined> {
  const query = db
    .selectFrom('customers')
    .select(['id', 'customer_number', 'name', 'type', 'tpp_id'])
    .where('bank', '=', bank);
  const row = await (
    'id' in by ? query.where('id', '=', by.id) : query.where('customer_number', '=', by.customerNumber)
  ).executeTakeFirst();
  return row === undefined
    ? undefined
    : {
        id: row.id,
        customerNumber: row.customer_number,
        name: row.name,
        type: row.type as CustomerType,
        tppId: row.tpp_id ?? undefined,
      };
}

/** The bank's customers, the default data set first (oldest first), in a stable order. */
export async function listCustomers(
  db: Kysely<Database>,
  bank: string,
  offset: number,
  limit: number,
): Promise<SandboxCustomer[]> {
  const rows = await db
    .selectFrom('customers')
    .select(['id', 'customer_number', 'name', 'type', 'tpp_id'])
    .where('bank', '=', bank)
    .orderBy(sql`case when tpp_id is null then 0 else 1 end`)
    .orderBy('created_at')
    .orderBy('customer_number')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    customerNumber: row.customer_number,
    name: row.name,
    type: row.type as CustomerType,
    tppId: row.tpp_id ?? undefined,
  }));
}

/** For each customer of the bank: the agreements it owns or is engaged on, its accounts and card accounts. */
export async function customerHoldings(
  db: Kysely<Database>,
  bank: string,
  customerIds: readonly string[],
): Promise<Map<string, SandboxCustomerHoldings>> {
  const holdings = new Map<string, SandboxCustomerHoldings>(
    customerIds.map((id) => [id, { agreements: [], accountIds: [], cardAccountIds: [] }]),
  );
  if (customerIds.length === 0) return holdings;
  const ids = [...customerIds];
  const [accounts, cards, owned, engagements] = await Promise.all([
    db
      .selectFrom('accounts')
      .select(['id', 'customer_id'])
      .where('customer_id', 'in', ids)
      .orderBy('created_at')
      .orderBy('bban')
      .execute(),
    db
      .selectFrom('card_accounts')
      .select(['id', 'customer_id'])
      .where('customer_id', 'in', ids)
      .orderBy('created_at')
      .orderBy('masked_pan')
      .execute(),
    db
      .selectFrom('agreements')
      .select(['id', 'name', 'owner_customer_id', 'created_at'])
      .where('owner_customer_id', 'in', ids)
      .where('bank', '=', bank)
      .execute(),
    db
      .selectFrom('engagements as e')
      .innerJoin('agreements as a', (join) => join.onRef('a.bank', '=', 'e.bank').onRef('a.id', '=', 'e.agreement_id'))
      .innerJoin('accounts as acc', 'acc.id', 'e.account_id')
      .select(['e.agreement_id', 'e.customer_id', 'e.account_id', 'a.name', 'a.owner_customer_id', 'a.created_at'])
      .where((eb) => eb.or([eb('e.customer_id', 'in', ids), eb('a.owner_customer_id', 'in', ids)]))
      .where('e.bank', '=', bank)
      .orderBy('acc.created_at')
      .orderBy('acc.bban')
      .execute(),
  ]);
  for (const row of accounts) holdings.get(row.customer_id)!.accountIds.push(row.id);
  for (const row of cards) holdings.get(row.customer_id)!.cardAccountIds.push(row.id);

  const agreementsOf = new Map<
    string,
    Map<string, { id: string; name: string; createdAt: string; accountIds: Set<string> }>
  >();
  const entry = (customerId: string, agreement: { id: string; name: string; createdAt: string }) => {
    let byId = agreementsOf.get(customerId);
    if (byId === undefined) agreementsOf.set(customerId, (byId = new Map()));
    let found = byId.get(agreement.id);
    if (found === undefined) byId.set(agreement.id, (found = { ...agreement, accountIds: new Set() }));
    return found;
  };
  for (const row of owned) entry(row.owner_customer_id, { id: row.id, name: row.name, createdAt: row.created_at });
  for (const row of engagements) {
    const agreement = { id: row.agreement_id, name: row.name, createdAt: row.created_at };
    if (holdings.has(row.owner_customer_id)) entry(row.owner_customer_id, agreement).accountIds.add(row.account_id);
    if (holdings.has(row.customer_id)) entry(row.customer_id, agreement).accountIds.add(row.account_id);
  }
  for (const [customerId, byId] of agreementsOf) {
    holdings.get(customerId)!.agreements = [...byId.values()]
      .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1))
      .map((a) => ({ id: a.id, name: a.name, accountIds: [...a.accountIds] }));
  }
  return holdings;
}

/** Removes the customer and, by cascade, its accounts, card accounts, agreements, transactions and PSU sessions. */
export async function deleteCustomer(db: Kysely<Database>, bank: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('customers').where('bank', '=', bank).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** False when the id, BBAN or IBAN is taken. */
export async function createAccount(db: Kysely<Database>, bank: string, account: NewSandboxAccount): Promise<boolean> {
  const result = await db
    .insertInto('accounts')
    .values({
      id: account.id,
      bank,
      customer_id: account.customerId,
      bban: account.bban,
      iban: account.iban,
      currency: account.currency,
      name: account.name,
      product: account.product,
      cash_account_type: account.cashAccountType,
      credit_line_minor: account.creditLineMinor,
      balance_minor: account.balanceMinor,
      created_at: account.createdAt.toISOString(),
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function findAccount(db: Kysely<Database>, bank: string, id: string): Promise<SandboxAccount | undefined> {
  const row = await db
    .selectFrom('accounts as a')
    .innerJoin('customers as c', 'c.id', 'a.customer_id')
    .selectAll('a')
    .select(['c.customer_number', 'c.type as customer_type'])
    .where('a.bank', '=', bank)
    .where('a.id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    id: row.id,
    customerId: row.customer_id,
    bban: row.bban,
    iban: row.iban,
    currency: row.currency,
    name: row.name,
    product: row.product,
    cashAccountType: row.cash_account_type,
    creditLineMinor: BigInt(row.credit_line_minor),
    balanceMinor: BigInt(row.balance_minor),
    customerNumber: row.customer_number,
    customerType: row.customer_type as CustomerType,
    transactionCount: Number(row.transaction_count),
  };
}

export async function deleteAccount(db: Kysely<Database>, bank: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('accounts').where('bank', '=', bank).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function createAgreement(
  db: Kysely<Database>,
  bank: string,
  agreement: NewSandboxAgreement,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('agreements')
      .values({
        bank,
        id: agreement.id,
        owner_customer_id: agreement.ownerCustomerId,
        name: agreement.name,
        tpp_id: agreement.tppId,
        created_at: agreement.createdAt.toISOString(),
      })
      .execute();
    if (agreement.engagements.length > 0) {
      await trx
        .insertInto('engagements')
        .values(
          agreement.engagements.map((e) => ({
            bank,
            agreement_id: agreement.id,
            customer_id: e.customerId,
            account_id: e.accountId,
            roles: JSON.stringify(e.roles),
          })),
        )
        .execute();
    }
  });
}

export async function findAgreement(
  db: Kysely<Database>,
  bank: string,
  id: string,
): Promise<SandboxAgreement | undefined> {
  const row = await db
    .selectFrom('agreements as a')
    .innerJoin('customers as c', 'c.id', 'a.owner_customer_id')
    .select(['a.id', 'a.name', 'a.owner_customer_id', 'a.tpp_id', 'c.customer_number'])
    .where('a.bank', '=', bank)
    .where('a.id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const engagements = await db
    .selectFrom('engagements as e')
    .innerJoin('customers as c', 'c.id', 'e.customer_id')
    .innerJoin('accounts as acc', 'acc.id', 'e.account_id')
    .select(['e.customer_id', 'c.customer_number', 'e.account_id', 'acc.iban', 'acc.bban', 'e.roles'])
    .where('e.bank', '=', bank)
    .where('e.agreement_id', '=', id)
    .orderBy('c.customer_number')
    .orderBy('acc.bban')
    .execute();
  return {
    id: row.id,
    ownerCustomerId: row.owner_customer_id,
    ownerCustomerNumber: row.customer_number,
    name: row.name,
    tppId: row.tpp_id ?? undefined,
    engagements: engagements.map((e) => ({
      customerId: e.customer_id,
      customerNumber: e.customer_number,
      accountId: e.account_id,
      iban: e.iban,
      bban: e.bban,
      roles: JSON.parse(e.roles) as EngagementRole[],
    })),
  };
}

export async function deleteAgreement(db: Kysely<Database>, bank: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('agreements').where('bank', '=', bank).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** False when the id is taken; masked card numbers need not be unique (real ones collide too). */
export async function createCardAccount(
  db: Kysely<Database>,
  bank: string,
  card: NewSandboxCardAccount,
): Promise<boolean> {
  const result = await db
    .insertInto('card_accounts')
    .values({
      id: card.id,
      bank,
      customer_id: card.customerId,
      masked_pan: card.maskedPan,
      name: card.name,
      product: card.product,
      currency: card.currency,
      credit_limit_minor: card.creditLimitMinor,
      balance_minor: card.balanceMinor,
      body: JSON.stringify(card.body),
      created_at: card.createdAt.toISOString(),
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function findCardAccount(
  db: Kysely<Database>,
  bank: string,
  id: string,
): Promise<SandboxCardAccount | undefined> {
  const row = await db
    .selectFrom('card_accounts as k')
    .innerJoin('customers as c', 'c.id', 'k.customer_id')
    .selectAll('k')
    .select(['c.customer_number'])
    .where('k.bank', '=', bank)
    .where('k.id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    id: row.id,
    customerId: row.customer_id,
    customerNumber: row.customer_number,
    maskedPan: row.masked_pan,
    name: row.name,
    product: row.product,
    currency: row.currency,
    creditLimitMinor: BigInt(row.credit_limit_minor),
    balanceMinor: BigInt(row.balance_minor),
    body: JSON.parse(row.body) as Record<string, unknown>,
  };
}

export async function deleteCardAccount(db: Kysely<Database>, bank: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('card_accounts').where('bank', '=', bank).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Appends transactions to an account in one database transaction: each gets the next dense position
 * (the account's transaction_count plus one, which the update raises; the row lock it takes orders
 * concurrent writers). The balance is not touched: posted transactions are history. Undefined when
 * the account does not exist.
 */
export async function addTransactions(
  db: Kysely<Database>,
  accountId: string,
  transactions: readonly NewSandboxTransaction[],
  createdAt: Date,
): Promise<SandboxTransaction[] | undefined> {
  return db.transaction().execute(async (trx) => {
    const count = transactions.length;
    const updated = await trx
      .updateTable('accounts')
      .set({ transaction_count: sql<number>`transaction_count + ${count}` })
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return undefined;
    const row = await trx
      .selectFrom('accounts')
      .select('transaction_count')
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    const first = Number(row.transaction_count) - count + 1;
    const stored: SandboxTransaction[] = transactions.map((t, i) => ({
      ...t,
      accountId,
      seq: first + i,
      paymentId: undefined,
    }));
    const at = createdAt.toISOString();
    for (let start = 0; start < stored.length; start += INSERT_CHUNK) {
      await trx
        .insertInto('account_transactions')
        .values(
          stored.slice(start, start + INSERT_CHUNK).map((t) => ({
            id: t.id,
            account_id: accountId,
            seq: t.seq,
            amount_minor: t.amountMinor,
            currency: t.currency,
            booking_date: t.bookingDate,
            value_date: t.valueDate,
            remittance: t.remittance,
            creditor_name: t.creditorName,
            creditor_iban: t.creditorIban,
            creditor_bban: t.creditorBban,
            debtor_name: t.debtorName,
            debtor_iban: t.debtorIban,
            debtor_bban: t.debtorBban,
            bank_transaction_code: t.bankTransactionCode,
            ultimate_debtor: t.ultimateDebtor,
            ultimate_creditor: t.ultimateCreditor,
            purpose_code: t.purposeCode,
            payment_id: null,
            created_at: at,
          })),
        )
        .execute();
    }
    return stored;
  });
}

/**
 * A page of transactions (of an account or a card account) in posting order, seq ascending. Without
 * dates the offset is a range on the dense seq (seq > offset), read from the unique (owner, seq)
 * index without scanning what is skipped; with dates the (owner, booking_date, seq) index selects the rows.
 */
function inPostingOrder<T extends 'account_transactions' | 'card_transactions', O>(
  query: SelectQueryBuilder<Database, T, O>,
  page: TransactionPage,
): SelectQueryBuilder<Database, T, O> {
  if (page.fromDate === undefined && page.toDate === undefined) {
    return query
      .where(sql<boolean>`seq > ${page.offset}`)
      .orderBy('seq')
      .limit(page.limit);
  }
  let dated = query;
  if (page.fromDate !== undefined) dated = dated.where(sql<boolean>`booking_date >= ${page.fromDate}`);
  if (page.toDate !== undefined) dated = dated.where(sql<boolean>`booking_date <= ${page.toDate}`);
  return dated.orderBy('seq').limit(page.limit).offset(page.offset);
}

/**
 * The columns a transaction is read with: not the account (the caller names it) nor created_at. A
 * page is 50 to 1000 rows, and each column of each row is a value the driver makes.
 */
export const TRANSACTION_COLUMNS = [
  'id',
  'seq',
  'amount_minor',
  'currency',
  'booking_date',
  'value_date',
  'remittance',
  'creditor_name',
  'creditor_iban',
  'creditor_bban',
  'debtor_name',
  'debtor_iban',
  'debtor_bban',
  'bank_transaction_code',
  'ultimate_debtor',
  'ultimate_creditor',
  'purpose_code',
  'payment_id',
] as const;
export type TransactionRow = Pick<Selectable<AccountTransactionTable>, (typeof TRANSACTION_COLUMNS)[number]>;

/** A row read as an array of TRANSACTION_COLUMNS' values, in their order (sqlite-hot-path.ts). */
export function transactionRowOf(values: readonly unknown[]): TransactionRow {
  const row: Record<string, unknown> = {};
  TRANSACTION_COLUMNS.forEach((column, index) => {
    row[column] = values[index];
  });
  return row as TransactionRow;
}

/** A page of an account's transactions in posting order (see inPostingOrder). */
export async function listTransactions(
  db: Kysely<Database>,
  accountId: string,
  page: TransactionPage,
): Promise<SandboxTransaction[]> {
  const query = db.selectFrom('account_transactions').select(TRANSACTION_COLUMNS).where('account_id', '=', accountId);
  return (await inPostingOrder(query, page).execute()).map((row) => toTransaction(row, accountId));
}

export async function findTransaction(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<SandboxTransaction | undefined> {
  const row = await db
    .selectFrom('account_transactions')
    .select(TRANSACTION_COLUMNS)
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row === undefined ? undefined : toTransaction(row, accountId);
}

export function toTransaction(row: TransactionRow, accountId: string): SandboxTransaction {
  return {
    id: row.id,
    accountId,
    seq: Number(row.seq),
    amountMinor: BigInt(row.amount_minor),
    currency: row.currency,
    bookingDate: row.booking_date,
    valueDate: row.value_date,
    remittance: row.remittance,
    creditorName: row.creditor_name,
    creditorIban: row.creditor_iban,
    creditorBban: row.creditor_bban,
    debtorName: row.debtor_name,
    debtorIban: row.debtor_iban,
    debtorBban: row.debtor_bban,
    bankTransactionCode: row.bank_transaction_code,
    ultimateDebtor: row.ultimate_debtor,
    ultimateCreditor: row.ultimate_creditor,
    purposeCode: row.purpose_code,
    paymentId: row.payment_id ?? undefined,
  };
}

/**
 * Appends transactions to a card account, each at the next position after the highest one, under the
 * card account's lock so two requests cannot take the same positions. Undefined when the card
 * account does not exist.
 */
export async function addCardTransactions(
  db: Kysely<Database>,
  lock: Lock,
  cardAccountId: string,
  transactions: readonly NewSandboxCardTransaction[],
  createdAt: Date,
): Promise<SandboxCardTransaction[] | undefined> {
  return db.transaction().execute(async (trx) => {
    await lock(trx, `card-transactions|${cardAccountId}`);
    const card = await trx.selectFrom('card_accounts').select('id').where('id', '=', cardAccountId).executeTakeFirst();
    if (card === undefined) return undefined;
    const last = await trx
      .selectFrom('card_transactions')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('card_account_id', '=', cardAccountId)
      .executeTakeFirst();
    const first = Number(last?.seq ?? 0) + 1;
    const stored: SandboxCardTransaction[] = transactions.map((t, i) => ({ ...t, cardAccountId, seq: first + i }));
    const at = createdAt.toISOString();
    for (let start = 0; start < stored.length; start += INSERT_CHUNK) {
      await trx
        .insertInto('card_transactions')
        .values(
          stored.slice(start, start + INSERT_CHUNK).map((t) => ({
            id: t.id,
            card_account_id: cardAccountId,
            seq: t.seq,
            booking_date: t.bookingDate,
            body: JSON.stringify(t.body),
            created_at: at,
          })),
        )
        .execute();
    }
    return stored;
  });
}

/** A page of a card account's transactions in posting order (see inPostingOrder); seq is dense here too (nothing removes one transaction). */
export async function listCardTransactions(
  db: Kysely<Database>,
  cardAccountId: string,
  page: TransactionPage,
): Promise<SandboxCardTransaction[]> {
  const query = db.selectFrom('card_transactions').selectAll().where('card_account_id', '=', cardAccountId);
  return (await inPostingOrder(query, page).execute()).map((row) => ({
    id: row.id,
    cardAccountId: row.card_account_id,
    seq: Number(row.seq),
    bookingDate: row.booking_date,
    body: JSON.parse(row.body) as Record<string, unknown>,
  }));
}

export async function findCardTransaction(
  db: Kysely<Database>,
  cardAccountId: string,
  id: string,
): Promise<SandboxCardTransaction | undefined> {
  const row = await db
    .selectFrom('card_transactions')
    .selectAll()
    .where('id', '=', id)
    .where('card_account_id', '=', cardAccountId)
    .executeTakeFirst();
  return row === undefined
    ? undefined
    : {
        id: row.id,
        cardAccountId: row.card_account_id,
        seq: Number(row.seq),
        bookingDate: row.booking_date,
        body: JSON.parse(row.body) as Record<string, unknown>,
      };
}

/**
 * POST /v1/sandbox/initialize, in one transaction under the bank's lock: removes every customer of
 * the bank with all it holds (cascade) and loads the default data set afresh. Payments are kept: they
 * name accounts by number, not by key.
 */
export async function initialize(
  db: Kysely<Database>,
  lock: Lock,
  bank: string,
  defaults: BankData,
): Promise<SandboxInitializeResult> {
  return db.transaction().execute(async (trx) => {
    await lock(trx, `bank|${bank}`);
    const own = await trx
      .selectFrom('customers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('bank', '=', bank)
      .where('tpp_id', 'is not', null)
      .executeTakeFirst();
    await trx.deleteFrom('agreements').where('bank', '=', bank).execute();
    await trx.deleteFrom('customers').where('bank', '=', bank).execute();
    await saveBankData(trx, bank, defaults);
    return { deletedCustomers: Number(own?.n ?? 0) };
  });
}
