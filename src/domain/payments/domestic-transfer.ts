import type { Problem } from '../api-error.js';
import type { Money } from '../money.js';
import { domesticFields } from './domestic-payment.js';
import type { DebtorAccount } from './payment.js';

/** The fields of one domestic credit transfer (NDCT), checked. */
export interface DomesticTransfer {
  amount: Money;
  creditorName: string;
  /** The creditor's account number (its BBAN, whether named by it or by its Norwegian IBAN). */
  creditor: string;
  debtor: DebtorAccount;
  /** The remittance as text, for logical duplicates. */
  remittance: string;
}

/**
 * The transfer of a norwegian-domestic-credit-transfers body that stands alone without an execution
 * date of its own (a standing order is one): the single payment's field rules (domesticFields), so
 * both products judge accounts, amount and remittance alike. Problems are added to `problems`;
 * undefined when the transfer is not usable.
 */
export function readDomesticTransfer(body: unknown, problems: Problem[]): DomesticTransfer | undefined {
  const before = problems.length;
  const { amount, creditorBban, debtor, remittance, creditorName } = domesticFields(body, undefined, problems);
  if (
    problems.length > before ||
    amount === undefined ||
    creditorBban === undefined ||
    debtor === undefined ||
    remittance === undefined
  )
    return undefined;
  return { amount, creditorName, creditor: creditorBban, debtor, remittance };
}
