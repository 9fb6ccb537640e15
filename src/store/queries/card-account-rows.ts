import type { Selectable } from 'kysely';
import type { CardAccountTable } from '../database.js';
import type { SandboxCardAccount } from '../sandbox-records.js';

/**
 * A card account as the sandbox shows it, with its holder's customer number (read by a join): one
 * mapping from its row for the single read and the bank overview, so a new column is added in one place.
 */
export function cardAccountOf(row: Selectable<CardAccountTable>, customerNumber: string): SandboxCardAccount {
  return {
    id: row.id,
    customerId: row.customer_id,
    customerNumber,
    maskedPan: row.masked_pan,
    name: row.name,
    product: row.product,
    currency: row.currency,
    creditLimitMinor: BigInt(row.credit_limit_minor),
    balanceMinor: BigInt(row.balance_minor),
    body: JSON.parse(row.body) as Record<string, unknown>,
  };
}
