import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';

/**
 * Counts one read without the PSU present and returns the day's count, this read included. The
 * first read of a day removes the key's earlier days, so the table holds about a day per key.
 */
export async function countUnattendedRead(
  db: Kysely<Database>,
  tppId: string,
  key: string,
  day: string,
): Promise<number> {
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
