import type { Problem, TppMessage } from '../api-error.js';
import { accountKey, accountProblems, bicCountry, bicProblem } from '../account-reference.js';
import { isCurrency } from '../currency.js';
import { CROSS_BORDER_FEE_NOK_MINOR, transferFees } from '../fee-schedule.js';
import { type Money, formatAmount } from '../money.js';
import type { ReferenceRates } from '../reference-rates.js';
import { readAmount } from './amount-field.js';
import type { Json } from '../json.js';
import { has, objectAt, stringAt } from './field-reader.js';
import { amountInNok, readExecutionDate } from './product-steps.js';
import { type ValidatedPayment, singleTransfer } from './payment.js';

/** spec: the cross-border product is meant for NOK 100 000 or more, and must then carry regulatory reporting. */
export const REGULATORY_REPORTING_THRESHOLD_NOK_MINOR = 10_000_000n;

export interface ProductContext {
  /** Today in Norway, YYYY-MM-DD, by the bank's business clock. */
  today: string;
  rates: ReferenceRates;
}

export interface ProductValidation {
  problems: Problem[];
  payment: ValidatedPayment | undefined;
}

/**
 * The rules of endpoint 2 that a JSON schema cannot state: amount against currency, account
 * identifiers, creditorAgent when the creditor is named by BBAN, execution date, and regulatory
 * reporting from NOK 100 000 at the bank's reference rates.
 */
export function validateCrossBorderPayment(body: unknown, context: ProductContext): ProductValidation {
  const problems: Problem[] = [];
  const instructed = readAmount(body, 'instructedAmount', '$.instructedAmount', problems);
  const { creditorAccount, creditorAgent, debtorAccount } = crossBorderParties(body, problems);
  const executionDate = readExecutionDate(body, context.today, problems);
  const size = instructed === undefined ? undefined : sizeInNok(body, instructed, context.rates, problems);

  if (
    problems.length > 0 ||
    instructed === undefined ||
    size?.amountNokMinor === undefined ||
    creditorAccount === undefined ||
    debtorAccount === undefined
  ) {
    return { problems, payment: undefined };
  }
  const payment = crossBorderPayment(body, {
    instructed,
    amountNokMinor: size.amountNokMinor,
    creditorAccount,
    creditorAgent,
    debtorAccount,
    executionDate,
  });
  return { problems, payment: { ...payment, warnings: size.warnings } };
}

/** Who pays and who is paid in either cross-border product: the creditor's account and bank, and a Norwegian debtor's account. */
export function crossBorderParties(
  body: unknown,
  problems: Problem[],
): { creditorAccount: Json | undefined; creditorAgent: string | undefined; debtorAccount: Json | undefined } {
  const creditorAccount = objectAt(body, 'creditorAccount');
  const creditorAgent = stringAt(body, 'creditorAgent');
  problems.push(...creditorProblems(body, creditorAccount, creditorAgent));
  const debtorAccount = objectAt(body, 'debtorAccount');
  if (debtorAccount !== undefined)
    problems.push(...accountProblems(debtorAccount, '$.debtorAccount', { norwegian: true, bbanOrIban: true }));
  return { creditorAccount, creditorAgent, debtorAccount };
}

/** The creditor's bank (a BIC; required when the account is given by BBAN) and account (Norwegian rules when the bank is). */
export function creditorProblems(
  body: unknown,
  creditorAccount: Json | undefined,
  creditorAgent: string | undefined,
): Problem[] {
  const problems: Problem[] = [];
  if (creditorAgent !== undefined) {
    const problem = bicProblem(creditorAgent, '$.creditorAgent');
    if (problem !== undefined) problems.push(problem);
  }
  if (creditorAccount !== undefined) {
    if (has(creditorAccount, 'bban') && !has(creditorAccount, 'iban') && !has(body, 'creditorAgent')) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: '$.creditorAgent',
        text: "$.creditorAgent (the BIC of the creditor's bank) is required when creditorAccount is given by bban",
      });
    }
    const norwegian = creditorAgent !== undefined && bicCountry(creditorAgent) === 'NO';
    problems.push(...accountProblems(creditorAccount, '$.creditorAccount', { norwegian, bbanOrIban: true }));
  }
  return problems;
}

/**
 * The amount in kroner at the bank's reference rate, and what its size asks: regulatory reporting
 * from NOK 100 000, a warning below (the product is meant for large amounts), a problem when the
 * bank has no rate for the currency.
 */
function sizeInNok(
  body: unknown,
  instructed: Money,
  rates: ReferenceRates,
  problems: Problem[],
): { amountNokMinor: bigint | undefined; warnings: TppMessage[] } {
  const amountNokMinor = amountInNok(instructed, rates, problems);
  if (amountNokMinor === undefined) return { amountNokMinor, warnings: [] };
  if (amountNokMinor >= REGULATORY_REPORTING_THRESHOLD_NOK_MINOR) {
    for (const field of ['regulatoryReportingCode', 'regulatoryReportingInformation'].filter((f) => !has(body, f)))
      problems.push({
        code: 'FORMAT_ERROR',
        path: `$.${field}`,
        text: `$.${field} is required for transfers of NOK 100 000 or more; this one is ${sizeText(instructed, amountNokMinor)}`,
      });
    return { amountNokMinor, warnings: [] };
  }
  const warning: TppMessage = {
    category: 'WARNING',
    code: 'PRODUCT_INVALID',
    path: '$.instructedAmount',
    text: `${CROSS_BORDER_NAME} is meant for amounts of NOK 100 000 or more; this one is below. The payment is accepted; a smaller cross-border payment may cost less as another product of the bank`,
  };
  return { amountNokMinor, warnings: [warning] };
}

/** An amount as a message gives it: in its currency, and in kroner at the reference rate when it is another. */
export function sizeText(instructed: Money, amountNokMinor: bigint): string {
  const inNok =
    instructed.currency === 'NOK' ? '' : ` (NOK ${formatAmount(amountNokMinor, 'NOK')} at the bank's reference rate)`;
  return `${instructed.currency} ${formatAmount(instructed.minor, instructed.currency)}${inNok}`;
}

export interface CheckedFields {
  instructed: Money;
  amountNokMinor: bigint;
  creditorAccount: Json;
  creditorAgent: string | undefined;
  debtorAccount: Json;
  executionDate: string | undefined;
  /** The product's transfer fee (the conversion fee comes on top): this product's when left out. */
  feeNokMinor?: bigint;
}

/** The payment of a body whose fields passed every rule: one transfer, with the fees of its size. */
export function crossBorderPayment(body: unknown, fields: CheckedFields): Omit<ValidatedPayment, 'warnings'> {
  const { instructed, amountNokMinor, creditorAccount, creditorAgent, debtorAccount, executionDate } = fields;
  const debtorCurrency = stringAt(debtorAccount, 'currency');
  const debtor = {
    bban: stringAt(debtorAccount, 'bban'),
    iban: stringAt(debtorAccount, 'iban'),
    currency: debtorCurrency ?? 'NOK',
  };
  const creditorAccountKey = accountKey({
    bban: stringAt(creditorAccount, 'bban'),
    iban: stringAt(creditorAccount, 'iban'),
  });
  // The creditor's bank is part of who is paid: the same account number at another bank is another creditor.
  const creditor = `${creditorAccountKey}${creditorAgent === undefined ? '' : `@${creditorAgent.toUpperCase()}`}`;
  return {
    debtor,
    requestedExecutionDate: executionDate,
    transfers: [
      singleTransfer(
        { amount: instructed, creditorName: stringAt(body, 'creditorName') ?? '', creditorAccount: creditorAccountKey },
        {
          debtor: accountKey(debtor),
          creditor,
          executionDate,
          remittance: stringAt(body, 'remittanceInformationUnstructured') ?? '',
        },
      ),
    ],
    fees: transferFees(
      fields.feeNokMinor ?? CROSS_BORDER_FEE_NOK_MINOR,
      instructed,
      amountNokMinor,
      isCurrency(debtorCurrency) ? debtorCurrency : 'NOK',
    ),
  };
}

const CROSS_BORDER_NAME = 'norwegian-cross-border-credit-transfers';
