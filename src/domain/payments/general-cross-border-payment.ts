import type { Problem } from '../api-error.js';
import { accountProblems } from '../account-reference.js';
import { isCalendarDate } from '../clock.js';
import { executionDateProblem } from '../execution-date.js';
import { GENERAL_CROSS_BORDER_FEE_NOK_MINOR } from '../fee-schedule.js';
import { formatAmount } from '../money.js';
import { readAmount } from './amount-field.js';
import {
  type ProductContext,
  type ProductValidation,
  REGULATORY_REPORTING_THRESHOLD_NOK_MINOR,
  creditorProblems,
  crossBorderPayment,
} from './cross-border-payment.js';
import { objectAt, stringAt } from './field-reader.js';

/**
 * The platform's general cross-border product (cross-border-credit-transfers) beside the Norwegian
 * one: the same creditor and debtor rules, no regulatory reporting fields, and so amounts under NOK
 * 100 000 only. From NOK 100 000 the Currency Register Act asks for the payment's purpose, which only
 * norwegian-cross-border-credit-transfers carries (docs/decisions.md, "The general cross-border product").
 */
export function validateGeneralCrossBorderPayment(body: unknown, context: ProductContext): ProductValidation {
  const problems: Problem[] = [];
  const instructed = readAmount(body, 'instructedAmount', '$.instructedAmount', problems);
  const creditorAccount = objectAt(body, 'creditorAccount');
  const creditorAgent = stringAt(body, 'creditorAgent');
  problems.push(...creditorProblems(body, creditorAccount, creditorAgent));
  const debtorAccount = objectAt(body, 'debtorAccount');
  if (debtorAccount !== undefined)
    problems.push(...accountProblems(debtorAccount, '$.debtorAccount', { norwegian: true, bbanOrIban: true }));
  const executionDate = stringAt(body, 'requestedExecutionDate');
  if (executionDate !== undefined && isCalendarDate(executionDate)) {
    const problem = executionDateProblem(executionDate, context.today, '$.requestedExecutionDate');
    if (problem !== undefined) problems.push(problem);
  }
  const amountNokMinor =
    instructed === undefined ? undefined : context.rates.toNokMinor(instructed.minor, instructed.currency);
  if (instructed !== undefined && amountNokMinor === undefined) {
    problems.push({
      code: 'PAYMENT_FAILED',
      path: '$.instructedAmount.currency',
      text: `the bank has no reference rate for ${instructed.currency}, so it cannot convert the payment; pay in a currency it trades`,
    });
  }
  if (
    instructed !== undefined &&
    amountNokMinor !== undefined &&
    amountNokMinor >= REGULATORY_REPORTING_THRESHOLD_NOK_MINOR
  ) {
    const inNok =
      instructed.currency === 'NOK' ? '' : ` (NOK ${formatAmount(amountNokMinor, 'NOK')} at the bank's reference rate)`;
    problems.push({
      code: 'PAYMENT_FAILED',
      path: '$.instructedAmount',
      text: `cross-border-credit-transfers takes amounts under NOK 100 000; this one is ${instructed.currency} ${formatAmount(instructed.minor, instructed.currency)}${inNok}. From NOK 100 000 the purpose must be reported to the currency register: send it as norwegian-cross-border-credit-transfers with regulatoryReportingCode and regulatoryReportingInformation`,
    });
  }
  if (
    problems.length > 0 ||
    instructed === undefined ||
    amountNokMinor === undefined ||
    creditorAccount === undefined ||
    debtorAccount === undefined
  ) {
    return { problems, payment: undefined };
  }
  const payment = crossBorderPayment(body, {
    instructed,
    amountNokMinor,
    creditorAccount,
    creditorAgent,
    debtorAccount,
    executionDate,
    feeNokMinor: GENERAL_CROSS_BORDER_FEE_NOK_MINOR,
  });
  return { problems, payment: { ...payment, warnings: [] } };
}
