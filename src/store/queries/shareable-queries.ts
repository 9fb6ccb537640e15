import type { Kysely } from 'kysely';
import type { CustomerType, EngagementRole } from '../../domain/bank.js';
import type { AisAccount, AisCardAccount, Shareable } from '../ais-records.js';
import type { Database } from '../database.js';
import { type AccountRow, accountOf } from './account-rows.js';

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
  if (agreementId !== undefined)
    return { accounts: await agreementAccounts(db, bank, customerId, agreementId), cards: [] };
  const accounts = await ownAccounts(db, bank, customerId);
  const cards = await ownCards(db, bank, customerId);
  return { accounts, cards };
}

/** An account's columns with its owner's name and type, of the tables joined as `a` and `c`. */
const ACCOUNT_COLUMNS = [
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
  'a.status',
  'c.name as owner_name',
  'c.type as owner_type',
] as const;

/** The agreement's accounts on which the customer has the role VIEW. */
async function agreementAccounts(
  db: Kysely<Database>,
  bank: string,
  customerId: string,
  agreementId: string,
): Promise<AisAccount[]> {
  const rows = await db
    .selectFrom('engagements as e')
    .innerJoin('accounts as a', 'a.id', 'e.account_id')
    .innerJoin('customers as c', 'c.id', 'a.customer_id')
    .select([...ACCOUNT_COLUMNS, 'e.roles'])
    .where('e.bank', '=', bank)
    .where('e.agreement_id', '=', agreementId)
    .where('e.customer_id', '=', customerId)
    .orderBy('a.bban')
    .execute();
  return rows.filter((r) => (JSON.parse(r.roles) as EngagementRole[]).includes('VIEW')).map(toAccount);
}

async function ownAccounts(db: Kysely<Database>, bank: string, customerId: string): Promise<AisAccount[]> {
  const rows = await db
    .selectFrom('accounts as a')
    .innerJoin('customers as c', 'c.id', 'a.customer_id')
    .select(ACCOUNT_COLUMNS)
    .where('a.bank', '=', bank)
    .where('a.customer_id', '=', customerId)
    .orderBy('a.bban')
    .execute();
  return rows.map(toAccount);
}

async function ownCards(db: Kysely<Database>, bank: string, customerId: string): Promise<AisCardAccount[]> {
  const rows = await db
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
  return rows.map((k) => ({
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
  }));
}

function toAccount(r: AccountRow & { owner_name: string; owner_type: string }): AisAccount {
  return { ...accountOf(r), ownerName: r.owner_name, ownerType: r.owner_type as CustomerType };
}
