import { sql } from 'kysely';

/**
 * The conditions of the partial indexes of payments that the scheduler's and the batch run's reads
 * go through, as their migrations wrote them. A read names an index's own condition, with literals
 * rather than parameters, so that both engines use the index (SQLite takes a partial index only when
 * the query's WHERE holds the index's terms as written): the text lives here once, not in each read.
 */

/** Authorised single, bulk and basket payments waiting for a batch run (payments_due, migration 019). */
export const WAITING_FOR_RUN = sql<boolean>`status in ('ACTC', 'PDNG') and service <> 'periodic-payments' and held_until is null`;

/** Payments a sandbox scenario holds until a time (payments_held, migration 019). */
export const HELD_BY_SCENARIO = sql<boolean>`held_until is not null and status in ('PDNG', 'ACSP')`;

/** Running standing orders (payments_periodic_due, migration 014). */
export const STANDING_ORDER_RUNNING = sql<boolean>`service = 'periodic-payments' and status in ('ACTC', 'PDNG')`;
