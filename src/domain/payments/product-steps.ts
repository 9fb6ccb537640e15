import type { Problem } from '../api-error.js';
import { isCalendarDate } from '../clock.js';
import { executionDateProblem } from '../execution-date.js';
import type { Money } from '../money.js';
import type { ReferenceRates } from '../reference-rates.js';
import { stringAt } from './field-reader.js';

/**
 * Steps the products' validators share, each written once: every product that takes a
 * requestedExecutionDate reads it so, and every product in a foreign currency converts it so.
 */

/** requestedExecutionDate, when it is a calendar date, checked against today (a schema checks its form). */
export function readExecutionDate(body: unknown, today: string, problems: Problem[]): string | undefined {
  const executionDate = stringAt(body, 'requestedExecutionDate');
  if (executionDate !== undefined && isCalendarDate(executionDate)) {
    const problem = executionDateProblem(executionDate, today, '$.requestedExecutionDate');
    if (problem !== undefined) problems.push(problem);
  }
  return executionDate;
}

/** The amount in kroner at the bank's reference rate; a problem when the bank has no rate for its currency. */
export function amountInNok(instructed: Money, rates: ReferenceRates, problems: Problem[]): bigint | undefined {
  const amountNokMinor = rates.toNokMinor(instructed.minor, instructed.currency);
  if (amountNokMinor === undefined)
    problems.push({
      code: 'PAYMENT_FAILED',
      path: '$.instructedAmount.currency',
      text: `the bank has no reference rate for ${instructed.currency}, so it cannot convert the payment; pay in a currency it trades`,
    });
  return amountNokMinor;
}
