import { type Kysely, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { AccountTransactionTable, Database } from '../database.js';
import type { NewSandboxTransaction, SandboxTransaction, TransactionPage } from '../sandbox-records.js';
import { insertRecords } from './insert-rows.js';
import { ACCOUNT_TRANSACTION_INSERT_COLUMNS, TRANSACTION_COLUMNS } from './account-transaction-columns.js';

/** The transactions a TPP posts to its test accounts, read back a page at a time in posting order. */

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
      endToEndId: '',
    }));
    const at = createdAt.toISOString();
    await insertRecords(
      trx,
      'account_transactions',
      ACCOUNT_TRANSACTION_INSERT_COLUMNS,
      stored.map((t) => ({
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
        end_to_end_id: '',
      })),
    );
    return stored;
  });
}

/**
 * A page of transactions (of an account or a card account) in posting order, seq ascending. Without
 * dates the offset is a range on the dense seq (seq > offset), read from the unique (owner, seq)
 * index without scanning what is skipped; with dates the (owner, booking_date, seq) index selects the rows.
 */
export function inPostingOrder<T extends 'account_transactions' | 'card_transactions', O>(
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
    endToEndId: row.end_to_end_id,
  };
}
