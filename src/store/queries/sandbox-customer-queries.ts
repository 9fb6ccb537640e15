import { type Kysely, type Selectable, sql } from 'kysely';
import type { CustomerType } from '../../domain/bank.js';
import type { CustomerTable, Database } from '../database.js';
import type { NewSandboxCustomer, SandboxCustomer, SandboxCustomerHoldings } from '../sandbox-records.js';

/**
 * The sandbox's test customers (mock-data API). Removing a customer removes what hangs on it (its
 * accounts, card accounts, agreements, their transactions, PSU sessions) by the foreign keys' ON
 * DELETE CASCADE.
 */

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
      payment_limit_minor: customer.paymentLimitMinor ?? null,
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
  const query = db.selectFrom('customers').select(CUSTOMER_COLUMNS).where('bank', '=', bank);
  const row = await (
    'id' in by ? query.where('id', '=', by.id) : query.where('customer_number', '=', by.customerNumber)
  ).executeTakeFirst();
  return row === undefined ? undefined : customerOf(row);
}

const CUSTOMER_COLUMNS = ['id', 'customer_number', 'name', 'type', 'tpp_id', 'payment_limit_minor'] as const;

function customerOf(row: Pick<Selectable<CustomerTable>, (typeof CUSTOMER_COLUMNS)[number]>): SandboxCustomer {
  return {
    id: row.id,
    customerNumber: row.customer_number,
    name: row.name,
    type: row.type as CustomerType,
    tppId: row.tpp_id ?? undefined,
    paymentLimitMinor: row.payment_limit_minor === null ? undefined : BigInt(row.payment_limit_minor),
  };
}

/** Sets or (null) removes the customer's payment limit; false when the bank has no such customer. */
export async function updateCustomerLimit(
  db: Kysely<Database>,
  bank: string,
  id: string,
  limitMinor: bigint | null,
): Promise<boolean> {
  const result = await db
    .updateTable('customers')
    .set({ payment_limit_minor: limitMinor })
    .where('bank', '=', bank)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
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
    .select(CUSTOMER_COLUMNS)
    .where('bank', '=', bank)
    .orderBy(sql`case when tpp_id is null then 0 else 1 end`)
    .orderBy('created_at')
    .orderBy('customer_number')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(customerOf);
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

/**
 * Removes the customer and, by cascade, its accounts, card accounts, agreements and transactions; its
 * PSU sessions with it, in the same transaction (they name the customer without a foreign key since
 * migration 022).
 */
export async function deleteCustomer(db: Kysely<Database>, bank: string, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('customers').where('bank', '=', bank).where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) return false;
    await trx.deleteFrom('psu_sessions').where('customer_id', '=', id).execute();
    return true;
  });
}
