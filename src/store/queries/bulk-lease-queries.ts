import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { BulkLease, BulkLeaseHolder } from '../snapshot-records.js';

/**
 * The lease of a bank's one bulk operation (migration 023): taken by one conditional UPDATE, so of
 * two instances that try at once exactly one gets it; a lease past its time is free to take.
 */
export async function takeBulkLease(
  db: Kysely<Database>,
  bank: string,
  lease: BulkLease,
): Promise<BulkLeaseHolder | undefined> {
  const now = lease.now.toISOString();
  const taken = await db
    .updateTable('banks')
    .set({ bulk_operation: lease.holder, bulk_until: lease.until.toISOString() })
    .where('bank', '=', bank)
    .where((eb) => eb.or([eb('bulk_until', 'is', null), eb('bulk_until', '<=', now)]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 1) return undefined;
  const row = await db
    .selectFrom('banks')
    .select(['bulk_operation', 'bulk_until'])
    .where('bank', '=', bank)
    .executeTakeFirst();
  // No bank row (removed meanwhile): nothing to hold; the operation finds no bank's rows itself.
  if (row?.bulk_operation == null || row.bulk_until == null) return undefined;
  return { holder: row.bulk_operation, until: new Date(row.bulk_until) };
}

export async function releaseBulkLease(db: Kysely<Database>, bank: string, holder: string): Promise<void> {
  await db
    .updateTable('banks')
    .set({ bulk_operation: null, bulk_until: null })
    .where('bank', '=', bank)
    .where('bulk_operation', '=', holder)
    .execute();
}
