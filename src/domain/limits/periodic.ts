/**
 * Limits of standing orders (periodic payments).
 */

/** Berlin Group: monthsOfExecution holds at most 11 months; twelve are frequency Monthly. */
export const MONTHS_OF_EXECUTION_MAX_ITEMS = 11;
/** Berlin Group: dayOfExecution is at most two characters ("1" to "31", no leading zeroes). */
export const DAY_OF_EXECUTION_MAX_LENGTH = 2;
