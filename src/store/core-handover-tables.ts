import type { ColumnType } from 'kysely';

/** Table types of the hand-over of authorised payments to a bank's own core (database.ts has the rest). */

/** A payment authorised for a bank's own core, until the core acknowledged it (migration 021, docs/core.md). */
export interface CoreHandoverTable {
  payment_id: string;
  bank: string;
  created_at: string;
  attempts: ColumnType<number | bigint, number | undefined, number>;
  next_attempt_at: string;
  claimed_by: string | null;
  claimed_until: string | null;
  handed_at: string | null;
  cancelled_at: string | null;
  last_error: string | null;
}

/** Where the polling of a core's status reports stands (migration 021). */
export interface CoreReportCursorTable {
  name: string;
  cursor: string | null;
  claimed_by: string | null;
  claimed_until: string | null;
  updated_at: string;
}
