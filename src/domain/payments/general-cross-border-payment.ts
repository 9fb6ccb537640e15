import type { Problem } from '../api-error.js';
import { GENERAL_CROSS_BORDER_FEE_NOK_MINOR } from '../fee-schedule.js';
import { readAmount } from './amount-field.js';
import {
  type ProductContext,
  type ProductValidation,
  REGULATORY_REPORTING_THRESHOLD_NOK_MINOR,
  crossBorderParties,
  crossBorderPayment,
  sizeText,
} from './cross-border-payment.js';
import { amountInNok, readExecutionDate } from './product-steps.js';

/**
 * The platform's general cross-border product (cross-border-credit-transfers) beside the Norwegian
 * one: the same creditor and debtor rules, no regulatory reporting fields, and so amounts under NOK
 * 100 000 only. From NOK 100 000 the Currency Register Act asks for the payment's purpose, which only
 * norwegian-cross-border-credit-transfers carries (docs/decisions/0219).
 */
export function validateGeneralCrossBorderPayment(body: unknown, context: ProductContext): ProductValidation {
  const problems: Problem[] = [];
  const instructed = readAmount(body, 'instructedAmount', '$.instructedAmount', problems);
  const { creditorAccount, creditorAgent, debtorAccount } = crossBorderParties(body, problems);
  const executionDate = readExecutionDate(body, context.today, problems);
  const amountNokMinor = instructed === undefined ? undefined : amountInNok(instructed, context.rates, problems);
  if (
    instructed !== undefined &&
    amountNokMinor !== undefined &&
    amountNokMinor >= REGULATORY_REPORTING_THRESHOLD_NOK_MINOR
  ) {
    problems.push({
      code: 'PAYMENT_FAILED',
      path: '$.instructedAmount',
      text: `cross-border-credit-transfers takes amounts under NOK 100 000; this one is ${sizeText(instructed, amountNokMinor)}. From NOK 100 000 the purpose must be reported to the currency register: send it as norwegian-cross-border-credit-transfers with regulatoryReportingCode and regulatoryReportingInformation`,
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
