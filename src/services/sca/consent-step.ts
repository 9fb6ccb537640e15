import { randomUUID } from 'node:crypto';
import type { Customer } from '../../domain/bank.js';
import type { NationalIdKey } from '../../domain/psu.js';
import type { Authorisation } from '../../store/sca-records.js';
import type { Store } from '../../store/store.js';
import type { AuthorisationSteps, NextStep } from './authorisation-steps.js';
import type { ConsentPage } from './consent-page.js';
import { isNamedPsu } from './named-psu.js';
import { type ScaDecision, type ScaPage, message } from './sca-page.js';
import { backToTpp, failureRedirect } from './tpp-redirect.js';

/**
 * A consent's SCA after the login: the PSU the TPP named (if it named one) chooses the accounts to
 * share on the consent page, and approves or declines.
 */
export class ConsentStep {
  constructor(
    private readonly store: Pick<Store, 'findPsuSession' | 'recordSca'>,
    private readonly nationalIdKey: NationalIdKey,
    private readonly steps: AuthorisationSteps,
    private readonly page: ConsentPage,
  ) {}

  /** A consent's PSU logged in: the one the TPP named (if it named one) chooses the accounts to share. */
  async login(authorisation: Authorisation, stepToken: string, customer: Customer, now: Date): Promise<ScaPage> {
    if (!(await isNamedPsu(this.store, this.nationalIdKey, authorisation, [], customer))) {
      await this.steps.advance(
        authorisation,
        stepToken,
        { stage: 'done', status: 'failed', customerId: customer.id },
        now,
      );
      await this.page.refuse(authorisation, now);
      return message('consent-wrong-psu', failureRedirect(authorisation, 'wrong-psu'));
    }
    const step = await this.steps.advance(
      authorisation,
      stepToken,
      { stage: 'decision', status: 'psuAuthenticated', customerId: customer.id },
      now,
    );
    if (step === undefined) return message('link-invalid', undefined);
    return this.choosePage(authorisation, step, customer, false);
  }

  /**
   * The PSU shares the accounts ticked, declines, or (on a renewal) withdraws the consent in force.
   * Approving with none ticked shares nothing and asks again on a new form; otherwise the browser
   * returns with psu-id and tpp-session-id, the session the TPP's reads name the consent by.
   */
  async decide(
    authorisation: Authorisation,
    stepToken: string,
    customer: Customer,
    decision: ScaDecision,
    accounts: readonly string[],
    now: Date,
  ): Promise<ScaPage> {
    if (decision === 'approve') {
      const outcome = await this.page.give(authorisation, customer, accounts, now);
      if (outcome === 'none-chosen') {
        const next: NextStep = { stage: 'decision', status: 'psuAuthenticated' };
        const step = await this.steps.advance(authorisation, stepToken, next, now);
        if (step === undefined) return message('link-invalid', undefined);
        return this.choosePage(authorisation, step, customer, true);
      }
      if (
        outcome === 'decided' ||
        (await this.steps.advance(authorisation, stepToken, { stage: 'done', status: 'finalised' }, now)) === undefined
      ) {
        return message('link-invalid', undefined);
      }
    } else {
      if ((await this.steps.advance(authorisation, stepToken, { stage: 'done', status: 'failed' }, now)) === undefined)
        return message('link-invalid', undefined);
      if (decision === 'withdraw') {
        if (!(await this.page.withdraw(authorisation, customer, now))) return message('link-invalid', undefined);
      } else await this.page.refuse(authorisation, now);
    }
    const session = await this.store.recordSca(
      authorisation.tppId,
      customer.id,
      now,
      authorisation.tppSessionId,
      randomUUID(),
    );
    if (decision === 'approve') return backToTpp(authorisation, session.psuId, undefined, 'consent-given');
    return decision === 'withdraw'
      ? backToTpp(authorisation, session.psuId, 'withdrawn', 'consent-withdrawn')
      : backToTpp(authorisation, session.psuId, 'declined', 'consent-declined');
  }

  private async choosePage(
    authorisation: Authorisation,
    step: string,
    customer: Customer,
    noneChosen: boolean,
  ): Promise<ScaPage> {
    const choices = await this.page.choices(authorisation, customer);
    // Asked again after ticking none: the boxes stay as the PSU left them.
    const accounts = noneChosen ? choices.accounts.map((choice) => ({ ...choice, checked: false })) : choices.accounts;
    return {
      kind: 'choose-accounts',
      step,
      tppName: authorisation.tppName,
      signer: customer.name,
      agreementName: choices.agreementName,
      accounts,
      notShown: choices.notShown,
      noneChosen,
      withdrawable: choices.withdrawable,
    };
  }
}
