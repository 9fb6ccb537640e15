import type { Problem } from '../api-error.js';
import { accountKey, accountProblems } from '../account-reference.js';
import type { Money } from '../money.js';
import { readAmount } from './amount-field.js';
import { remittanceOf, requireNok } from './domestic-bulk-payment.js';
import { objectAt, stringAt } from './field-reader.js';
import type { DebtorAccount } from './payment.js';

/** The fields of one domestic credit transfer (NDCT), checked. */
export interface DomesticTransfer {
  amount: Money;
  creditorName: string;
  /** accountKey of the creditor account. */
  creditor: string;
  debtor: DebtorAccount;
  /** The remittance as text, for logical duplicates. */
  remittance: string;
}

/**
 * The field rules of a norwegian-domestic-credit-transfers body that stands alone (a standing order
 * is one): NOK between Norwegian accounts, each named by BBAN (MOD11) or Norwegian IBAN, and a KID
 * or a message, never both (the same remittance rules as a bulk's entries). Problems are added to
 * `problems`; undefined when the transfer is not usable.
 */
export function readDomesticTransfer(body: unknown, problems: Problem[]): DomesticTransfer | undefined {
  const before = problems.length;
  const amount = readAmount(body, 'instructedAmount', '$.instructedAmount', problems);
  requireNok(stringAt(objectAt(body, 'instructedAmount'), 'currency'), '$.instructedAmount.currency', problems);
  const accounts: Record<'creditorAccount' | 'debtorAccount', Record<string, unknown> | undefined> = {
    creditorAccount: objectAt(body, 'creditorAccount'),
    debtorAccount: objectAt(body, 'debtorAccount'),
  };
  for (const [field, account] of Object.entries(accounts)) {
    if (account === undefined) continue;
    problems.push(...accountProblems(account, `$.${field}`, { norwegian: true, bbanOrIban: true }));
    requireNok(stringAt(account, 'currency'), `$.${field}.currency`, problems);
  }
  const remittance = remittanceOf(body as Record<string, unknown>, '$', problems);
  const { creditorAccount, debtorAccount } = accounts;
  if (
    problems.length > before ||
    amount === undefined ||
    remittance === undefined ||
    creditorAccount === undefined ||
    debtorAccount === undefined
  )
    return undefined;
  const numbers = (account: Record<string, unknown>) => ({
    bban: stringAt(account, 'bban'),
    iban: stringAt(account, 'iban'),
  });
  return {
    amount,
    creditorName: stringAt(body, 'creditorName') ?? '',
    creditor: accountKey(numbers(creditorAccount)),
    debtor: { ...numbers(debtorAccount), currency: 'NOK' },
    remittance,
  };
}
