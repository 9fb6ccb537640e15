import { saveStandingOrders } from './periodic-queries.js';
import type { Kysely, Selectable, Transaction } from 'kysely';
import {
  type Account,
  type Agreement,
  AddressBankLimitReached,
  BankLimitReached,
  type BankOwner,
  type Customer,
  type CustomerType,
  type Engagement,
  type EngagementRole,
} from '../../domain/bank.js';
import type { CustomerTable, Database } from '../database.js';
import type { BankData } from '../sca-records.js';
import type { TransactionLock } from './transaction-lock.js';
import { accountOf } from './account-rows.js';

/**
 * Makes the bank with the data `defaults` gives, unless it exists, in one transaction that two
 * requests or instances cannot both pass; whether it made it. With a limit, a bank that does not exist
 * is made only while fewer than `limit` exist (BankLimitReached otherwise).
 */
export async function openBank(
  db: Kysely<Database>,
  lock: TransactionLock,
  bankKey: string,
  at: Date,
  defaults: (at: Date) => BankData,
  limit: number | undefined,
  owner?: BankOwner,
): Promise<boolean> {
  if ((await db.selectFrom('banks').select('bank').where('bank', '=', bankKey).executeTakeFirst()) !== undefined)
    return false;
  return db.transaction().execute(async (trx) => {
    // Two first requests of one TPP (or two instances) make the bank once: the row decides. With a
    // limit, banks are made one at a time, so that the count read here stays true until the commit.
    const counted = limit !== undefined || owner?.perAddress !== undefined;
    await lock(trx, counted ? 'banks' : `bank|${bankKey}`);
    if (counted) {
      const exists = await trx.selectFrom('banks').select('bank').where('bank', '=', bankKey).executeTakeFirst();
      if (exists !== undefined) return false;
      const { n } = await trx
        .selectFrom('banks')
        .select((eb) => eb.fn.countAll<number | bigint | string>().as('n'))
        .executeTakeFirstOrThrow();
      if (limit !== undefined && Number(n) >= limit) throw new BankLimitReached(limit);
    }
    if (owner?.perAddress !== undefined) await checkAddressLimit(trx, owner.address, owner.perAddress);
    const made = await trx
      .insertInto('banks')
      .values({
        bank: bankKey,
        clock_offset_ms: 0n,
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
        opened_from: owner?.address ?? null,
        used_at: at.toISOString(),
        trusted_at: owner?.trusted === true ? at.toISOString() : null,
      })
      .onConflict((oc) => oc.column('bank').doNothing())
      .executeTakeFirst();
    if (Number(made.numInsertedOrUpdatedRows ?? 0n) !== 1) return false;
    // A trusted certificate binds no key: its bank admits it, and any certificate of a trusted CA for it, by trust.
    if (owner !== undefined && owner.trusted !== true)
      await trx
        .insertInto('bank_keys')
        .values({ bank: bankKey, key_sha256: owner.keySha256, bound_at: at.toISOString() })
        .execute();
    await saveBankData(trx, bankKey, defaults(at));
    // Its batch runs start from its making: a later clock move runs the slots it passes, none from before.
    await trx
      .insertInto('batch_runs')
      .values({
        bank: bankKey,
        slot: new Date(at.getTime() - 1).toISOString(),
        started_at: at.toISOString(),
        finished_at: at.toISOString(),
        executed: 0,
        rejected: 0,
      })
      .onConflict((oc) => oc.columns(['bank', 'slot']).doNothing())
      .execute();
    return true;
  });
}

/** Refuses a new bank when the address made `limit` banks since `since` (inside openBank's transaction, under its lock). */
async function checkAddressLimit(
  trx: Transaction<Database>,
  address: string,
  { limit, since }: { limit: number; since: Date },
): Promise<void> {
  const { n } = await trx
    .selectFrom('banks')
    .select((eb) => eb.fn.countAll<number | bigint | string>().as('n'))
    .where('opened_from', '=', address)
    .where('created_at', '>=', since.toISOString())
    .executeTakeFirstOrThrow();
  if (Number(n) >= limit) throw new AddressBankLimitReached(limit);
}

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
            status: a.status,
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
    if (data.standingOrders !== undefined) await saveStandingOrders(trx, bank, data.standingOrders);
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
  return row === undefined ? undefined : accountOf(row);
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
