import type { Kysely } from 'kysely';
import type { AccountStatus, CustomerType } from '../../domain/bank.js';
import type { Database } from '../database.js';
import type {
  NewSandboxAccount,
  NewSandboxCardAccount,
  SandboxAccount,
  SandboxCardAccount,
} from '../sandbox-records.js';
import { accountOf } from './account-rows.js';
import { cardAccountOf } from './card-account-rows.js';

/** The sandbox's test accounts and card accounts; removing one removes its transactions (cascade). */

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
      status: account.status,
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
    ...accountOf(row),
    customerNumber: row.customer_number,
    customerType: row.customer_type as CustomerType,
    transactionCount: Number(row.transaction_count),
  };
}

/** Sets the account's status (Berlin Group's accountStatus); false when the bank has no such account. */
export async function updateAccountStatus(
  db: Kysely<Database>,
  bank: string,
  id: string,
  status: AccountStatus,
): Promise<boolean> {
  const result = await db
    .updateTable('accounts')
    .set({ status })
    .where('bank', '=', bank)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteAccount(db: Kysely<Database>, bank: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('accounts').where('bank', '=', bank).where('id', '=', id).executeTakeFirst();
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
  return row === undefined ? undefined : cardAccountOf(row, row.customer_number);
}

export async function deleteCardAccount(db: Kysely<Database>, bank: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('card_accounts').where('bank', '=', bank).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
