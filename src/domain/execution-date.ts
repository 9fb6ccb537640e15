import type { Problem } from './api-error.js';
import { addDays } from './clock.js';
import { MAX_EXECUTION_DAYS_AHEAD } from './limits.js';

/**
 * requestedExecutionDate: not before today in Norway, and at most MAX_EXECUTION_DAYS_AHEAD days
 * ahead (EXECUTION_DATE_INVALID). Its format (an ISO date) is the schema's concern.
 */
export function executionDateProblem(date: string, today: string, path: string): Problem | undefined {
  if (date < today) {
    return {
      code: 'EXECUTION_DATE_INVALID',
      path,
      text: `${path} ${date} is in the past; the earliest execution date is today, ${today} (Norwegian time)`,
    };
  }
  const latest = addDays(today, MAX_EXECUTION_DAYS_AHEAD);
  if (date > latest) {
    return {
      code: 'EXECUTION_DATE_INVALID',
      path,
      text: `${path} ${date} is more than ${MAX_EXECUTION_DAYS_AHEAD} days ahead; the latest execution date is ${latest}`,
    };
  }
  return undefined;
}
