import type { Kysely, Selectable } from 'kysely';
import type { Account, Agreement, Customer, CustomerType, Engagement, EngagementRole } from '../../domain/bank.js';
import type { AccountTable, CustomerTable, Database } from '../database.js';
import type { BankData } from '../sca-records.js';

/** Customers, accounts and agreements; the caller gives the transaction. */
export async function saveBankData(trx: Kysely<Database>, bank: string, data: BankData): Promise<void> {
  {
    if (data.customers.length > 0) {
      await trx
        .insertInto('customers')
        .values(
          data.customers.map((c) => ({
            id: c.id,
            bank,
            customer_number: c.customerNumber,
            name: c.name,
            type: c.type,
            created_at: c.createdAt.toISOString(),
          })),
        )
        .execute();
    }
    if (data.accounts.length > 0) {
      await trx
        .insertInto('accounts')
        .values(
          data.accounts.map((a) => ({
            id: a.id,
            bank,
            customer_id: a.customerId,
            bban: a.bban,
            iban: a.iban,
            currency: a.currency,
            name: a.name,
            product: a.product,
            cash_account_type: a.cashAccountType,
            credit_line_minor: a.creditLineMinor,
            balance_minor: a.balanceMinor,
            created_at: a.createdAt.toISOString(),
          })),
        )
        .execute();
    }
    if (data.agreements.length > 0) {
      await trx
        .insertInto('agreements')
        .values(
          data.agreements.map((a) => ({
            bank,
            id: a.id,
            owner_customer_id: a.ownerCustomerId,
            name: a.name,
            created_at: a.createdAt.toISOString(),
          })),
        )
        .execute();
    }
    if (data.engagements.length > 0) {
      await trx
        .insertInto('engagements')
        .values(
          data.engagements.map((e) => ({
            bank,
            agreement_id: e.agreementId,
            customer_id: e.customerId,
            account_id: e.accountId,
            roles: JSON.stringify(e.roles),
          })),
        )
        .execute();
    }
  }
}

/** The banks made so far, by key. */
export async function listBanks(db: Kysely<Database>): Promise<string[]> {
  return (await db.selectFrom('banks').select('bank').orderBy('bank').execute()).map((r) => r.bank);
}

/** Every bank with its clock's offset, in one read. */
export async function listBankClocks(db: Kysely<Database>): Promise<{ bank: string; clockOffsetMs: bigint }[]> {
  const rows = await db.selectFrom('banks').select(['bank', 'clock_offset_ms']).orderBy('bank').execute();
  return rows.map((r) => ({ bank: r.bank, clockOffsetMs: BigInt(r.clock_offset_ms) }));
}

export async function findCustomer(
  db: Kysely<Database>,
  bank: string,
  by: { id: string } | { customerNumber: string },
): Promise<Customer | undefined> {
  const query = db.selectFrom('customers').selectAll().where('bank', '=', bank);
  const row = await (
    'id' in by ? query.where('id', '=', by.id) : query.where('customer_number', '=', by.customerNumber)
  ).executeTakeFirst();
  return row === undefined ? undefined : toCustomer(row);
}

export async function findAccount(
  db: Kysely<Database>,
  bank: string,
  by: { bban?: string | undefined; iban?: string | undefined },
): Promise<Account | undefined> {
  const query = db.selectFrom('accounts').selectAll().where('bank', '=', bank);
  const row =
    by.iban !== undefined
      ? await query.where('iban', '=', by.iban.toUpperCase()).executeTakeFirst()
      : by.bban !== undefined
        ? await query.where('bban', '=', by.bban).executeTakeFirst()
        : undefined;
  return row === undefined ? undefined : toAccount(row);
}

export async function findAgreement(db: Kysely<Database>, bank: string, id: string): Promise<Agreement | undefined> {
  const row = await db
    .selectFrom('agreements')
    .selectAll()
    .where('bank', '=', bank)
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? undefined : { id: row.id, ownerCustomerId: row.owner_customer_id, name: row.name };
}

export async function findEngagement(
  db: Kysely<Database>,
  bank: string,
  agreementId: string,
  customerId: string,
  accountId: string,
): Promise<Engagement | undefined> {
  const row = await db
    .selectFrom('engagements')
    .selectAll()
    .where('bank', '=', bank)
    .where('agreement_id', '=', agreementId)
    .where('customer_id', '=', customerId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row === undefined
    ? undefined
    : {
        agreementId: row.agreement_id,
        customerId: row.customer_id,
        accountId: row.account_id,
        roles: JSON.parse(row.roles) as EngagementRole[],
      };
}

function toCustomer(row: Selectable<CustomerTable>): Customer {
  return { id: row.id, customerNumber: row.customer_number, name: row.name, type: row.type as CustomerType };
}

function toAccount(row: Selectable<AccountTable>): Account {
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
  };
}
