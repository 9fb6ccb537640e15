import type { Problem } from '../api-error.js';
import { accountProblems } from '../account-reference.js';
import { type Fees, domesticFees, straksFees } from '../fee-schedule.js';
import { STRAKS_MAX_AMOUNT_NOK_MINOR } from '../limits.js';
import { type Money, formatAmount } from '../money.js';
import { readAmount } from './amount-field.js';
import type { ProductContext, ProductValidation } from './cross-border-payment.js';
import { remittanceOf, requireNok } from './domestic-bulk-payment.js';
import type { Json } from '../json.js';
import { objectAt, stringAt } from './field-reader.js';
import { readExecutionDate } from './product-steps.js';
import { singleTransfer } from './payment.js';

/**
 * Bank registration numbers (the first four digits of a Norwegian account number) of creditor banks
 * that do not take Straks payments. The sandbox's stand-in for the instant rail's participant list,
 * which the bank would load in production: a creditor account 9999xxxxxxx is at a bank outside the
 * rail (docs/decisions/0216).
 */
export const BANKS_WITHOUT_STRAKS: ReadonlySet<string> = new Set(['9999']);

/**
 * A single domestic credit transfer (norwegian-domestic-credit-transfers): the bulk entry's rules
 * for one payment. Norwegian accounts on both sides (BBAN with MOD11, or a Norwegian IBAN), NOK,
 * a KID in structured remittance (checked as in bulk entries) or a message, never both, and an
 * execution date from today. Free, executed by the batch run on its date.
 */
export function validateDomesticPayment(body: unknown, context: ProductContext): ProductValidation {
  const problems: Problem[] = [];
  const fields = domesticFields(body, context.today, problems);
  return paymentOf(fields, problems, domesticFees());
}

/**
 * Straks (instant-norwegian-domestic-credit-transfers-straks): the single domestic payment's fields
 * and rules, executed at once when the PSU approves it, so it takes no future execution date, no
 * amount over the instant rail's limit and no creditor at a bank outside the rail (docs/decisions/0216 and
 * docs/decisions/0217).
 */
export function validateStraksPayment(body: unknown, context: ProductContext): ProductValidation {
  const problems: Problem[] = [];
  const fields = domesticFields(body, context.today, problems);
  if (fields.executionDate !== undefined && fields.executionDate > context.today) {
    problems.push({
      code: 'EXECUTION_DATE_INVALID',
      path: '$.requestedExecutionDate',
      text: `$.requestedExecutionDate ${fields.executionDate} is ahead: a Straks payment is executed at once when it is approved, so its date can only be today, ${context.today}; send a future-dated payment as norwegian-domestic-credit-transfers`,
    });
  }
  if (fields.amount !== undefined && fields.amount.minor > STRAKS_MAX_AMOUNT_NOK_MINOR) {
    problems.push({
      code: 'PAYMENT_FAILED',
      path: '$.instructedAmount.amount',
      text: `a Straks payment is at most NOK ${formatAmount(STRAKS_MAX_AMOUNT_NOK_MINOR, 'NOK')}, the instant rail's limit; this one is NOK ${formatAmount(fields.amount.minor, 'NOK')}: send it as norwegian-domestic-credit-transfers`,
    });
  }
  const registration = fields.creditorBban?.slice(0, 4);
  if (registration !== undefined && BANKS_WITHOUT_STRAKS.has(registration)) {
    problems.push({
      code: 'PAYMENT_FAILED',
      path: '$.creditorAccount',
      text: `the creditor's bank (registration number ${registration}) does not take Straks payments, so the payment could not be instant; send it as norwegian-domestic-credit-transfers`,
    });
  }
  return paymentOf(fields, problems, straksFees());
}

export interface DomesticFields {
  amount: Money | undefined;
  creditorBban: string | undefined;
  debtor: { bban: string | undefined; iban: string | undefined; currency: string } | undefined;
  executionDate: string | undefined;
  remittance: string | undefined;
  creditorName: string;
}

/**
 * The fields every domestic credit transfer that stands alone shares (the single products, and a standing
 * order's transfer), each checked; problems are added to `problems`. `today` checks requestedExecutionDate;
 * a standing order, which has none (its dates are its schedule's), passes undefined.
 */
export function domesticFields(body: unknown, today: string | undefined, problems: Problem[]): DomesticFields {
  const amount = readAmount(body, 'instructedAmount', '$.instructedAmount', problems);
  requireNok(stringAt(objectAt(body, 'instructedAmount'), 'currency'), '$.instructedAmount.currency', problems);
  const creditorAccount = objectAt(body, 'creditorAccount');
  const creditorBban = norwegianAccount(creditorAccount, '$.creditorAccount', problems);
  const debtorAccount = objectAt(body, 'debtorAccount');
  const debtorBban = norwegianAccount(debtorAccount, '$.debtorAccount', problems);
  const executionDate =
    today === undefined ? stringAt(body, 'requestedExecutionDate') : readExecutionDate(body, today, problems);
  const remittance =
    typeof body === 'object' && body !== null ? remittanceOf(body as Json, '$', problems, 'a payment') : undefined;
  return {
    amount: amount?.currency === 'NOK' ? amount : undefined,
    creditorBban,
    debtor:
      debtorAccount === undefined
        ? undefined
        : { bban: debtorBban, iban: stringAt(debtorAccount, 'iban'), currency: 'NOK' },
    executionDate,
    remittance,
    creditorName: stringAt(body, 'creditorName') ?? '',
  };
}

/**
 * A Norwegian account (BBAN with MOD11, or a Norwegian IBAN, agreeing when both are given) in NOK;
 * its BBAN, the account number either way, when it is valid.
 */
function norwegianAccount(account: Json | undefined, path: string, problems: Problem[]): string | undefined {
  if (account === undefined) return undefined;
  const found = accountProblems(account, path, { norwegian: true, bbanOrIban: true });
  problems.push(...found);
  requireNok(stringAt(account, 'currency'), `${path}.currency`, problems);
  if (found.length > 0) return undefined;
  return stringAt(account, 'bban') ?? stringAt(account, 'iban')?.slice(4);
}

/** The one transfer of a body whose fields passed every rule; none when a problem was found. */
function paymentOf(fields: DomesticFields, problems: Problem[], fees: Fees): ProductValidation {
  const { amount, creditorBban, debtor, executionDate, remittance } = fields;
  if (
    problems.length > 0 ||
    amount === undefined ||
    creditorBban === undefined ||
    debtor === undefined ||
    remittance === undefined
  ) {
    return { problems, payment: undefined };
  }
  // One account, whether named by its number or its Norwegian IBAN: the duplicate key uses the number.
  const debtorKey = debtor.bban ?? debtor.iban?.slice(4) ?? '';
  return {
    problems,
    payment: {
      debtor,
      requestedExecutionDate: executionDate,
      transfers: [
        singleTransfer(
          { amount, creditorName: fields.creditorName, creditorAccount: creditorBban },
          { debtor: debtorKey, executionDate, remittance },
        ),
      ],
      fees,
      warnings: [],
    },
  };
}
