import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/** The batch runs' slots of each bank: a slot is claimed once, by one run of one instance (docs/batch.md). */

/** Claims a batch slot of the bank for this instance; false when another run (or instance) has it already. */
export async function claimBatchRun(db: Kysely<Database>, bank: string, slot: string, at: Date): Promise<boolean> {
  const result = await db
    .insertInto('batch_runs')
    .values({ bank, slot, started_at: at.toISOString(), finished_at: null, executed: 0, rejected: 0 })
    .onConflict((oc) => oc.columns(['bank', 'slot']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function finishBatchRun(
  db: Kysely<Database>,
  bank: string,
  slot: string,
  executed: number,
  rejected: number,
  at: Date,
): Promise<void> {
  await db
    .updateTable('batch_runs')
    .set({ finished_at: at.toISOString(), executed, rejected })
    .where('bank', '=', bank)
    .where('slot', '=', slot)
    .execute();
}

export async function lastBatchSlot(db: Kysely<Database>, bank: string): Promise<string | undefined> {
  return (
    await db
      .selectFrom('batch_runs')
      .select('slot')
      .where('bank', '=', bank)
      .where('slot', 'not like', 'manual:%')
      .orderBy('slot', 'desc')
      .limit(1)
      .executeTakeFirst()
  )?.slot;
}
