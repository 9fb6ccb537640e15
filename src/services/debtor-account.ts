import type { BankCore } from '../core/bank-core.js';
import { type Customer, payFromProblem } from '../domain/bank.js';

/** The methods of the bank's core that say whether a customer may pay from an account. */
export type HoldingsCore = Pick<BankCore, 'findAccount' | 'findAgreement' | 'findEngagement'>;

/**
 * Why `signer` cannot pay from the debtor account (for the corporate agreement they act for, if
 * any), as the bank's core holds it; undefined when they can. One rule for the create (a payment from
 * an account the PSU does not hold is refused: issue 38) and for the SCA page (the account may have
 * changed since: blocked, closed, an engagement ended).
 */
export async function debtorAccountProblem(
  core: HoldingsCore,
  bank: string,
  debtor: { bban: string | undefined; iban: string | undefined },
  signer: Pick<Customer, 'id'>,
  agreementId: string | undefined,
): Promise<string | undefined> {
  const account = await core.findAccount(bank, { bban: debtor.bban, iban: debtor.iban });
  if (agreementId === undefined || account === undefined) return payFromProblem(signer, account, undefined);
  const agreement = await core.findAgreement(bank, agreementId);
  const engagement =
    agreement === undefined ? undefined : await core.findEngagement(bank, agreement.id, signer.id, account.id);
  return payFromProblem(signer, account, { agreement, engagement });
}
