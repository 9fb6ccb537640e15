import type { StoredTppRequest } from './tpp-request-records.js';
import type { Schedule } from '../domain/periodic/schedule.js';
import type { RunningStandingOrder } from './periodic-records.js';
import type { Account, Agreement, Customer, Engagement } from '../domain/bank.js';
import type { AuthorisationKind, AuthorisationStatus } from '../domain/sca.js';
import type { TransactionStatus } from '../domain/transaction-status.js';

/** Records the SCA, signing-basket and bank parts of the Store exchange with the services. */

export interface BankData {
  customers: (Customer & { createdAt: Date })[];
  accounts: (Account & { createdAt: Date })[];
  agreements: (Agreement & { createdAt: Date })[];
  engagements: Engagement[];
  /** Standing orders already running (the default data set's). */
  standingOrders?: RunningStandingOrder[];
}

export interface PsuSession {
  psuId: string;
  tppId: string;
  customerId: string;
  lastScaAt: Date;
}

/** Where an SCA flow stands: its link (by the hash of its current token) and what it is for. */
export interface Authorisation {
  id: string;
  /** The current step of the flow: the link, the login form, the decision form. */
  stage: 'link' | 'login' | 'decision' | 'done';
  kind: AuthorisationKind;
  /** The payment or basket authorised; none for a session. */
  objectId: string | undefined;
  tppId: string;
  tppName: string;
  /** The PSU named by the TPP: PSU-ID, or the hash of X-PSU-IDENTITY. */
  psuId: string | undefined;
  psuNationalIdHash: string | undefined;
  psuCorporateId: string | undefined;
  psuContext: string | undefined;
  /** X-PSU-AuthMethod-Preferred as the TPP sent it. */
  authMethod: string | undefined;
  /** TPP-Redirect-Preferred: false asks for biometric authentication on the PSU's phone. */
  redirectPreferred: boolean;
  tppRedirectUri: string | undefined;
  tppSessionId: string | undefined;
  status: AuthorisationStatus;
  customerId: string | undefined;
  attempts: number;
  expiresAt: Date;
  createdAt: Date;
}

export interface NewAuthorisation extends Omit<Authorisation, 'customerId' | 'attempts' | 'status' | 'stage'> {
  tokenHash: string;
}

export interface AuthorisationStep {
  tokenHash: string;
  stage: Authorisation['stage'];
  status: AuthorisationStatus;
  customerId?: string;
  attempts?: number;
}

/** A payment as the SCA page shows it and the signing rules check it. */
export interface ScaPayment {
  id: string;
  tppId: string;
  service: string;
  product: string;
  status: TransactionStatus;
  createdAt: string;
  /** The PSU the payment was initiated for, as one key (psu:<PSU-ID> or nin:<hash>). */
  psuKey: string;
  psuId: string | undefined;
  psuNationalIdHash: string | undefined;
  psuCorporateId: string | undefined;
  debtorBban: string | undefined;
  debtorIban: string | undefined;
  debtorCurrency: string;
  requestedExecutionDate: string | undefined;
  feeMinor: bigint;
  feeCurrency: string;
  transfers: { amountMinor: bigint; currency: string; creditorName: string; creditorAccount: string }[];
  remittance: string[];
  /** A standing order's schedule, which the page shows instead of one date; undefined for other payments. */
  schedule: Schedule | undefined;
  tppRedirectUri: string;
  tppSessionId: string;
}

export interface PaymentDecision {
  paymentId: string;
  status: TransactionStatus;
  reason: string | undefined;
}

export interface StoredBasket {
  id: string;
  tppId: string;
  psuKey: string;
  createdAt: string;
  paymentIds: string[];
}

export type CreateBasketResult =
  | { outcome: 'created' }
  | { outcome: 'replayed'; request: StoredTppRequest }
  | { outcome: 'payment-in-basket'; paymentId: string; basketId: string };
