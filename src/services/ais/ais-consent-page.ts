import type { Customer } from '../../domain/bank.js';
import { AIS_SHAREABLE_ACCOUNTS_MAX } from '../../domain/limits.js';
import type { Authorisation } from '../../store/sca-records.js';
import type { Store } from '../../store/store.js';
import type { BankCore } from '../../core/bank-core.js';
import type { Banks } from '../banks.js';
import type { AccountChoice, ConsentChoices, ConsentOutcome, ConsentPage } from '../sca/consent-page.js';

/**
 * The SCA page's part in a consent: which accounts the PSU may share (their own in the private
 * context; an agreement's on which they have VIEW when acting for it), ticked as the session's
 * current consent has them (all of them for a first consent), and recording the PSU's choice: the
 * accounts ticked, or, on a renewal, the withdrawal of the consent in force.
 */
export class AisConsentPage implements ConsentPage {
  constructor(
    private readonly store: Pick<
      Store,
      'findSessionConsent' | 'aisConsentResources' | 'giveAisConsent' | 'refuseAisConsent' | 'withdrawAisConsent'
    >,
    private readonly core: Pick<BankCore, 'findAgreement' | 'shareableAccounts'>,
    private readonly banks: Banks,
  ) {}

  async choices(authorisation: Authorisation, customer: Customer): Promise<ConsentChoices> {
    const bank = this.banks.of(authorisation.tppId);
    const agreement =
      authorisation.psuCorporateId === undefined
        ? undefined
        : await this.core.findAgreement(bank, authorisation.psuCorporateId);
    const all = await this.offered(authorisation, customer);
    const current =
      authorisation.tppSessionId === undefined
        ? undefined
        : await this.store.findSessionConsent(authorisation.tppId, authorisation.tppSessionId, customer.id);
    const chosen =
      current === undefined
        ? undefined
        : new Set((await this.store.aisConsentResources(current.id)).map((r) => `${r.kind}:${r.id}`));
    return {
      accounts: all
        .slice(0, AIS_SHAREABLE_ACCOUNTS_MAX)
        .map((choice) => ({ ...choice, checked: chosen === undefined || chosen.has(`${choice.kind}:${choice.id}`) })),
      agreementName: agreement?.name,
      notShown: Math.max(0, all.length - AIS_SHAREABLE_ACCOUNTS_MAX),
      withdrawable: current !== undefined,
    };
  }

  /**
   * The PSU approves with the boxes they ticked: ids the page did not offer (or no longer would) are
   * not shared; with none left nothing is decided and the page asks again.
   */
  async give(
    authorisation: Authorisation,
    customer: Customer,
    ticked: readonly string[],
    now: Date,
  ): Promise<ConsentOutcome> {
    if (authorisation.objectId === undefined) return 'decided';
    const wanted = new Set(ticked);
    const resources = (await this.offered(authorisation, customer))
      .slice(0, AIS_SHAREABLE_ACCOUNTS_MAX)
      .filter((choice) => wanted.has(choice.id))
      .map((choice) => ({ kind: choice.kind, id: choice.id }));
    if (resources.length === 0) return 'none-chosen';
    return (await this.store.giveAisConsent(authorisation.objectId, customer.id, resources, now)) ? 'given' : 'decided';
  }

  async refuse(authorisation: Authorisation, now: Date): Promise<void> {
    if (authorisation.objectId !== undefined) await this.store.refuseAisConsent(authorisation.objectId, now);
  }

  async withdraw(authorisation: Authorisation, customer: Customer, now: Date): Promise<boolean> {
    if (authorisation.objectId === undefined) return false;
    return this.store.withdrawAisConsent(authorisation.objectId, customer.id, now);
  }

  /** Everything the PSU may share, in the page's order: accounts by number, then card accounts. */
  private async offered(authorisation: Authorisation, customer: Customer): Promise<Omit<AccountChoice, 'checked'>[]> {
    const shareable = await this.core.shareableAccounts(
      this.banks.of(authorisation.tppId),
      customer.id,
      authorisation.psuCorporateId,
    );
    return [
      ...shareable.accounts.map((a) => ({
        id: a.id,
        kind: 'account' as const,
        name: a.name,
        number: a.bban,
        currency: a.currency,
      })),
      ...shareable.cards.map((k) => ({
        id: k.id,
        kind: 'card' as const,
        name: k.name,
        number: k.maskedPan,
        currency: k.currency,
      })),
    ];
  }
}
