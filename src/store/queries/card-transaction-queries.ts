import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { NewSandboxCardTransaction, SandboxCardTransaction, TransactionPage } from '../sandbox-records.js';
import { insertRecords } from './insert-rows.js';
import { inPostingOrder } from './sandbox-transaction-queries.js';
import type { TransactionLock } from './transaction-lock.js';

/** The transactions a TPP posts to its test card accounts, read back a page at a time in posting order. */

/**
 * Appends transactions to a card account, each at the next position after the highest one, under the
 * card account's lock so two requests cannot take the same positions. Undefined when the card
 * account does not exist.
 */
export async function addCardTransactions(
  db: Kysely<Database>,
  lock: TransactionLock,
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
    await insertRecords(
      trx,
      'card_transactions',
      ['id', 'card_account_id', 'seq', 'booking_date', 'body', 'created_at'],
      stored.map((t) => ({
        id: t.id,
        card_account_id: cardAccountId,
        seq: t.seq,
        booking_date: t.bookingDate,
        body: JSON.stringify(t.body),
        created_at: at,
      })),
    );
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
