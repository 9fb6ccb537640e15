/**
 * Limits of standing orders (periodic payments).
 */

/** Berlin Group: monthsOfExecution holds at most 11 months; twelve are frequency Monthly. */
export const MONTHS_OF_EXECUTION_MAX_ITEMS = 11;
/** Berlin Group: dayOfExecution is at most two characters ("1" to "31", no leading zeroes). */
export const DAY_OF_EXECUTION_MAX_LENGTH = 2;
/**
 * Executions of standing orders booked in one database transaction: a clock moved years ahead
 * catches up many executions of each order, a few hundred to a transaction (as a batch chunk's 500
 * payments) rather than one; a run killed part-way redoes at most one such transaction.
 */
export const PERIODIC_EXECUTIONS_PER_TRANSACTION = 500;
