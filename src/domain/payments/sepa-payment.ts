import type { Problem } from '../api-error.js';
import { accountKey, accountProblems, bicProblem } from '../account-reference.js';
import { isCurrency } from '../currency.js';
import { SEPA_FEE_NOK_MINOR, transferFees } from '../fee-schedule.js';
import { isSepaIbanCountry } from '../sepa-countries.js';
import { readAmount } from './amount-field.js';
import type { ProductContext, ProductValidation } from './cross-border-payment.js';
import type { Json } from '../json.js';
import { objectAt, stringAt } from './field-reader.js';
import { amountInNok, readExecutionDate } from './product-steps.js';
import { singleTransfer } from './payment.js';

/** What a SEPA credit transfer may be debited from: a kroner or a euro account of this bank. */
const SEPA_DEBTOR_CURRENCIES = new Set(['NOK', 'EUR']);

/**
 * A SEPA credit transfer (sepa-credit-transfers): euro, to an IBAN of a country of the SEPA schemes
 * (sepa-countries.ts), the creditor's BIC optional and checked when given, from a Norwegian account
 * of this bank in NOK or EUR; the amount converted at the bank's reference rates and charged the
 * SEPA fee (and the conversion fee from a NOK account), executed by the batch run on its date.
 */
export function validateSepaPayment(body: unknown, context: ProductContext): ProductValidation {
  const problems: Problem[] = [];
  const instructed = readAmount(body, 'instructedAmount', '$.instructedAmount', problems);
  problems.push(...euroProblems(stringAt(objectAt(body, 'instructedAmount'), 'currency')));
  const creditorIban = stringAt(objectAt(body, 'creditorAccount'), 'iban');
  problems.push(...creditorProblems(body));
  const debtorAccount = objectAt(body, 'debtorAccount');
  const debtorCurrency = stringAt(debtorAccount, 'currency');
  if (debtorAccount !== undefined) problems.push(...debtorProblems(debtorAccount, debtorCurrency));
  const executionDate = readExecutionDate(body, context.today, problems);
  const amountNokMinor = instructed === undefined ? undefined : amountInNok(instructed, context.rates, problems);
  if (
    problems.length > 0 ||
    instructed === undefined ||
    amountNokMinor === undefined ||
    creditorIban === undefined ||
    debtorAccount === undefined ||
    !isCurrency(debtorCurrency)
  ) {
    return { problems, payment: undefined };
  }
  const debtor = {
    bban: stringAt(debtorAccount, 'bban'),
    iban: stringAt(debtorAccount, 'iban'),
    currency: debtorCurrency,
  };
  const creditor = creditorIban.toUpperCase();
  return {
    problems,
    payment: {
      debtor,
      requestedExecutionDate: executionDate,
      transfers: [
        singleTransfer(
          { amount: instructed, creditorName: stringAt(body, 'creditorName') ?? '', creditorAccount: creditor },
          {
            debtor: accountKey(debtor),
            executionDate,
            remittance: stringAt(body, 'remittanceInformationUnstructured') ?? '',
          },
        ),
      ],
      fees: transferFees(SEPA_FEE_NOK_MINOR, instructed, amountNokMinor, debtorCurrency),
      warnings: [],
    },
  };
}

/** SEPA credit transfers are made in euro. */
function euroProblems(currency: string | undefined): Problem[] {
  if (currency === undefined || currency === 'EUR') return [];
  return [
    {
      code: 'FORMAT_ERROR',
      path: '$.instructedAmount.currency',
      text: `$.instructedAmount.currency must be EUR: SEPA credit transfers are made in euro (got '${currency}'); pay other currencies with cross-border-credit-transfers`,
    },
  ];
}

/** The creditor: its bank's BIC when given, and its account, an IBAN of a country of the SEPA schemes. */
function creditorProblems(body: unknown): Problem[] {
  const problems: Problem[] = [];
  const creditorAgent = stringAt(body, 'creditorAgent');
  if (creditorAgent !== undefined) {
    const problem = bicProblem(creditorAgent, '$.creditorAgent');
    if (problem !== undefined) problems.push(problem);
  }
  const creditorAccount = objectAt(body, 'creditorAccount');
  const creditorIban = stringAt(creditorAccount, 'iban');
  if (creditorAccount !== undefined) {
    const found = accountProblems(creditorAccount, '$.creditorAccount', { norwegian: false, bbanOrIban: true });
    problems.push(...found);
    if (found.length === 0 && creditorIban !== undefined && !isSepaIbanCountry(creditorIban.slice(0, 2))) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: '$.creditorAccount.iban',
        text: `$.creditorAccount.iban is an account in ${creditorIban.slice(0, 2)}, which is not a country of the SEPA schemes; pay it with cross-border-credit-transfers`,
      });
    }
  }
  return problems;
}

/** The debtor: a Norwegian account of this bank, in kroner or euro. */
function debtorProblems(debtorAccount: Json, debtorCurrency: string | undefined): Problem[] {
  const problems: Problem[] = [];
  problems.push(...accountProblems(debtorAccount, '$.debtorAccount', { norwegian: true, bbanOrIban: true }));
  if (debtorCurrency !== undefined && !SEPA_DEBTOR_CURRENCIES.has(debtorCurrency)) {
    problems.push({
      code: 'FORMAT_ERROR',
      path: '$.debtorAccount.currency',
      text: `$.debtorAccount.currency must be NOK or EUR: a SEPA credit transfer is debited from a kroner or a euro account (got '${debtorCurrency}')`,
    });
  }
  return problems;
}
