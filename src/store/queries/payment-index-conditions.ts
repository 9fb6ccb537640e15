import { sql } from 'kysely';
import { BATCH_TAKES, SCENARIO_HOLDS, STANDING_ORDER_RUNS } from '../../domain/payment-lifecycle.js';

/**
 * The conditions of the partial indexes of payments that the scheduler's and the batch run's reads
 * go through, as their migrations wrote them. A read names an index's own condition, with literals
 * rather than parameters, so that both engines use the index (SQLite takes a partial index only when
 * the query's WHERE holds the index's terms as written): the text lives here once, not in each read.
 */

/** `status in ('A', 'B')` as the migrations wrote it: the statuses are the lifecycle's own constants. */
function statusIn(statuses: readonly string[]): string {
  return `status in (${statuses.map((s) => `'${s}'`).join(', ')})`;
}

/** Authorised single, bulk and basket payments waiting for a batch run (payments_due, migration 019). */
export const WAITING_FOR_RUN_TEXT = `${statusIn(BATCH_TAKES)} and service <> 'periodic-payments' and held_until is null`;
export const WAITING_FOR_RUN = sql<boolean>`${sql.raw(WAITING_FOR_RUN_TEXT)}`;

/** Payments a sandbox scenario holds until a time (payments_held, migration 019). */
export const HELD_BY_SCENARIO_TEXT = `held_until is not null and ${statusIn(SCENARIO_HOLDS)}`;
export const HELD_BY_SCENARIO = sql<boolean>`${sql.raw(HELD_BY_SCENARIO_TEXT)}`;

/** Running standing orders (payments_periodic_due, migration 014). */
export const STANDING_ORDER_RUNNING_TEXT = `service = 'periodic-payments' and ${statusIn(STANDING_ORDER_RUNS)}`;
export const STANDING_ORDER_RUNNING = sql<boolean>`${sql.raw(STANDING_ORDER_RUNNING_TEXT)}`;
