import type { ConsentResource } from '../../domain/ais-consent.js';
import type { Customer } from '../../domain/bank.js';
import type { Authorisation } from '../../store/sca-records.js';

/** An account the consent page offers, with whether its box is ticked when the page opens. */
export interface AccountChoice {
  id: string;
  kind: ConsentResource['kind'];
  name: string;
  /** The account number (BBAN) or the masked card number. */
  number: string;
  currency: string;
  checked: boolean;
}

export interface ConsentChoices {
  accounts: AccountChoice[];
  /** The corporate agreement the PSU acts for, by name. */
  agreementName: string | undefined;
  /** Accounts the PSU may view beyond AIS_SHAREABLE_ACCOUNTS_MAX, not offered on this page. */
  notShown: number;
  /** The PSU has a consent in force in this session (the page is a renewal): they may withdraw it here. */
  withdrawable: boolean;
}

export type ConsentOutcome = 'given' | 'none-chosen' | 'decided';

/**
 * The account-information part of a consent's SCA page: which accounts the PSU may share, and
 * recording their choice. Account information implements it (services/ais/ais-consent-page.ts) and
 * main.ts gives it to ScaService, so that the SCA flow depends on this interface and account
 * information on the SCA, never both ways.
 */
export interface ConsentPage {
  /** The accounts the page offers the PSU, ticked or not. */
  choices(authorisation: Authorisation, customer: Customer): Promise<ConsentChoices>;
  /** The PSU approves with the boxes they ticked (the ids the page offered). */
  give(authorisation: Authorisation, customer: Customer, ticked: readonly string[], now: Date): Promise<ConsentOutcome>;
  /** The PSU declined, or is not the PSU the TPP named: the consent is refused. */
  refuse(authorisation: Authorisation, now: Date): Promise<void>;
  /**
   * The PSU withdraws: the session's consent in force ends (revokedByPsu), and this one with it.
   * False when this consent was decided meanwhile.
   */
  withdraw(authorisation: Authorisation, customer: Customer, now: Date): Promise<boolean>;
}
