import type { AuthMethod, AuthorisationKind } from '../../domain/sca.js';
import type { ScaPayment } from '../../store/sca-records.js';
import type { AccountChoice } from './consent-page.js';

/** A payment as the confirmation page shows it, with the reason it cannot be approved, if any. */
export interface PaymentToSign {
  payment: ScaPayment;
  problem: string | undefined;
}

/** What the SCA page shows next; the HTTP layer renders it. */
export type ScaPage =
  | {
      kind: 'login';
      step: string;
      tppName: string;
      purpose: AuthorisationKind;
      method: AuthMethod;
      methodUnavailable: string | undefined;
      biometric: boolean;
      failedAttempt: boolean;
      codeHint: { valid: string; invalid: string } | undefined;
      loginDisabled: boolean;
    }
  | {
      kind: 'confirm';
      step: string;
      tppName: string;
      signer: string;
      agreementName: string | undefined;
      payments: PaymentToSign[];
      /** The PSU approves the cancellation of the payment they authorised earlier, not the payment. */
      cancellation: boolean;
    }
  | {
      kind: 'choose-accounts';
      step: string;
      tppName: string;
      signer: string;
      agreementName: string | undefined;
      accounts: AccountChoice[];
      notShown: number;
      noneChosen: boolean;
      /** A consent of the PSU is in force in this session: the page offers to withdraw it. */
      withdrawable: boolean;
    }
  | {
      kind: 'message';
      message: ScaMessage;
      returnUrl: string | undefined;
      /** Why the identity provider's answer was refused, for the log: never a token or an identity number. */
      reason?: string;
    }
  /** Back to the TPP; `outcome` says why (the metrics count it). */
  | { kind: 'redirect'; url: string; outcome: ScaMessage };

/** The outcomes the PSU can be told about; the page words them in the PSU's language. */
export type ScaMessage =
  | 'link-invalid'
  | 'form-invalid'
  | 'link-expired'
  | 'payment-expired'
  | 'wrong-psu'
  | 'too-many-attempts'
  | 'psu-locked'
  | 'approved'
  | 'declined'
  | 'cancelled'
  | 'nothing-to-sign'
  | 'session-established'
  | 'consent-given'
  | 'consent-declined'
  | 'consent-wrong-psu'
  | 'consent-withdrawn'
  | 'cancellation-approved'
  | 'cancellation-declined'
  | 'cancellation-too-late'
  | 'bank-unavailable'
  | 'idp-unavailable'
  | 'login-refused'
  | ChangedMeanwhile;

/**
 * Why a payment (or a basket) the PSU approves can no longer be approved: it was cancelled, rejected
 * or expired, or the basket withdrawn, typically while the PSU was on the page. Also the `message`
 * back to the TPP.
 */
export type ChangedMeanwhile = 'basket-cancelled' | 'payment-cancelled' | 'payment-rejected' | 'payment-expired';

export function message(kind: ScaMessage, returnUrl: string | undefined): ScaPage {
  return { kind: 'message', message: kind, returnUrl };
}

/** What the PSU pressed on a decision page; withdraw is offered on a consent's renewal only. */
export type ScaDecision = 'approve' | 'decline' | 'withdraw';
