import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import { HELD_BY_SCENARIO, STANDING_ORDER_RUNNING, WAITING_FOR_RUN } from './payment-index-conditions.js';

/**
 * The earliest date on which the bank has something to execute: an authorised payment (one with no
 * requested date is due at once, which is read as the earliest date there is) or a running standing
 * order's next execution. A catch-up over a long clock move skips the batch slots before it, which
 * would find nothing (services/batch-runner.ts). Each condition is written as the partial indexes of
 * migration 014 are, so that both engines read the indexes rather than the table.
 */
export async function earliestDueDate(db: Kysely<Database>, bank: string): Promise<string | undefined> {
  const single = await db
    .selectFrom('payments')
    .select(sql<string | null>`min(coalesce(requested_execution_date, '0000-01-01'))`.as('date'))
    .where('bank', '=', bank)
    .where(WAITING_FOR_RUN)
    .executeTakeFirst();
  const periodic = await db
    .selectFrom('payments')
    .select('requested_execution_date as date')
    .where('bank', '=', bank)
    .where(STANDING_ORDER_RUNNING)
    .orderBy('requested_execution_date')
    .limit(1)
    .executeTakeFirst();
  // A payment a sandbox scenario holds is due on the day its hold ends; the UTC day is that day or the
  // one before, so no slot that would settle it is skipped (payments_held, migration 019).
  const held = await db
    .selectFrom('payments')
    .select(sql<string | null>`min(substr(held_until, 1, 10))`.as('date'))
    .where('bank', '=', bank)
    .where(HELD_BY_SCENARIO)
    .executeTakeFirst();
  const dates = [single?.date, periodic?.date, held?.date].filter((d): d is string => typeof d === 'string');
  return dates.length === 0 ? undefined : dates.sort()[0];
}
