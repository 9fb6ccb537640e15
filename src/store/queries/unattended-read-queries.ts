import { type Kysely, sql } from 'kysely';
import { isBeyondUnattendedAllowance } from '../../domain/unattended-reads.js';
import type { Database } from '../database.js';

/** Thrown inside the transaction to undo its counts; never leaves this file. */
class BeyondAllowance extends Error {
  constructor(readonly key: string) {
    super(`beyond the day's allowance: ${key}`);
  }
}

/**
 * Counts one read without the PSU present under every key, all or none (RTS 36(5)): when the read
 * would take one key beyond the day's allowance, nothing is counted and that key is returned, so a
 * refused read (a list whose balances are used up) costs none of the other kinds' allowance. Keys are
 * counted in sorted order, so that two reads of the same keys lock them in the same order. The first
 * read of a day removes the key's earlier days, so the table holds about a day per key.
 */
export async function countUnattendedReads(
  db: Kysely<Database>,
  tppId: string,
  keys: readonly string[],
  day: string,
): Promise<string | undefined> {
  try {
    await db.transaction().execute(async (trx) => {
      for (const key of [...new Set(keys)].sort()) {
        const reads = await countOne(trx, tppId, key, day);
        if (isBeyondUnattendedAllowance(reads)) throw new BeyondAllowance(key);
      }
    });
    return undefined;
  } catch (error) {
    if (error instanceof BeyondAllowance) return error.key;
    throw error;
  }
}

export async function releaseUnattendedReads(
  db: Kysely<Database>,
  tppId: string,
  keys: readonly string[],
  day: string,
): Promise<void> {
  if (keys.length === 0) return;
  await db
    .updateTable('ais_unattended_reads')
    .set({ reads: sql<number>`reads - 1` })
    .where('tpp_id', '=', tppId)
    .where('resource_key', 'in', [...new Set(keys)])
    .where('day', '=', day)
    .where('reads', '>', 0)
    .execute();
}

async function countOne(db: Kysely<Database>, tppId: string, key: string, day: string): Promise<number> {
  const row = await db
    .insertInto('ais_unattended_reads')
    .values({ tpp_id: tppId, resource_key: key, day, reads: 1 })
    .onConflict((oc) =>
      oc.columns(['tpp_id', 'resource_key', 'day']).doUpdateSet({ reads: sql<number>`ais_unattended_reads.reads + 1` }),
    )
    .returning('reads')
    .executeTakeFirstOrThrow();
  const reads = Number(row.reads);
  if (reads === 1)
    await db
      .deleteFrom('ais_unattended_reads')
      .where('tpp_id', '=', tppId)
      .where('resource_key', '=', key)
      .where('day', '<', day)
      .execute();
  return reads;
}
