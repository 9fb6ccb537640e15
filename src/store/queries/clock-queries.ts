import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/** The sandbox's business clock of each bank: its offset from the wall clock, kept with the bank. */

export async function readClockOffset(db: Kysely<Database>, bank: string): Promise<bigint> {
  const row = await db.selectFrom('banks').select('clock_offset_ms').where('bank', '=', bank).executeTakeFirst();
  return row === undefined ? 0n : BigInt(row.clock_offset_ms);
}

/**
 * Sets the bank's clock offset if it is larger than the one stored (the clock only moves forward): in
 * the one statement, so that of two moves at once the later instant stays. False when it was not larger.
 */
export async function writeClockOffset(
  db: Kysely<Database>,
  bank: string,
  offsetMs: bigint,
  at: Date,
): Promise<boolean> {
  const result = await db
    .insertInto('banks')
    .values({ bank, clock_offset_ms: offsetMs, created_at: at.toISOString(), updated_at: at.toISOString() })
    .onConflict((oc) =>
      oc
        .column('bank')
        .doUpdateSet({ clock_offset_ms: offsetMs, updated_at: at.toISOString() })
        .where('banks.clock_offset_ms', '<', offsetMs),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}
