import type { Account, CustomerType } from '../domain/bank.js';
import type { ConsentResource, ConsentStatus } from '../domain/ais-consent.js';
import type { TransferToExecute } from '../domain/payment-execution.js';
import type { PsuContext } from '../domain/psu.js';
import type { SandboxTransaction } from './sandbox-records.js';

/** Records of account information (docs/ais.md) the Store exchanges with the services. */

export interface AisConsent {
  id: string;
  bank: string;
  tppId: string;
  tppSessionId: string;
  status: ConsentStatus;
  psuContext: PsuContext;
  /** The corporate agreement the PSU acts for (PSU-Corporate-ID); undefined in the private context. */
  agreementId: string | undefined;
  /** The customer who gave the consent; undefined until the SCA. */
  customerId: string | undefined;
  /** When the PSU last authenticated for it. */
  scaAt: Date | undefined;
  createdAt: Date;
}

/** A valid consent whose SCA nears 180 days, with its bank's clock (the consent expiry judges by it). */
export interface ExpiringConsent {
  id: string;
  bank: string;
  scaAt: Date;
  clockOffsetMs: bigint;
}

/** Where the consent expiry looks: every bank, one bank, or the banks whose clock runs at one offset. */
export type ConsentsAmong = { bank: string } | { clockOffsetMs: bigint } | undefined;

export interface NewAisConsent {
  id: string;
  bank: string;
  tppId: string;
  tppSessionId: string;
  psuContext: PsuContext;
  agreementId: string | undefined;
  createdAt: Date;
}

/** An account as account information shows it: the account and its owner. */
export interface AisAccount extends Account {
  ownerName: string;
  ownerType: CustomerType;
}

export interface AisCardAccount {
  id: string;
  customerId: string;
  maskedPan: string;
  name: string;
  product: string;
  currency: string;
  creditLimitMinor: bigint;
  /** The card account as created (normalised): its balances, status and the rest. */
  body: Record<string, unknown>;
  ownerName: string;
  ownerType: CustomerType;
}

/** What a PSU may share in a context: their own accounts and card accounts, or those of an agreement they may VIEW. */
export interface Shareable {
  accounts: AisAccount[];
  cards: AisCardAccount[];
}

/** A booked transaction with what account information needs beyond the sandbox's record. */
export interface AisTransaction extends SandboxTransaction {
  /** The payment that booked it is a bulk payment: its entries on the debtor account form a batch. */
  bulk: boolean;
}

/** A page of booked transactions in booking-date order, then posting order, after a position. */
export interface AisTransactionQuery {
  dateFrom: string | undefined;
  dateTo: string | undefined;
  after: { bookingDate: string; seq: number } | undefined;
  limit: number;
}

/** A payment authorised and not yet executed from a debtor account: what its pending transactions show. */
export interface PendingPayment {
  id: string;
  service: string;
  product: string;
  feeMinor: bigint;
  feeCurrency: string;
  requestedExecutionDate: string | undefined;
  /** Each transfer as the batch run will execute it (remittance, ultimate debtor and purpose from the body). */
  transfers: TransferToExecute[];
}

/** A card transaction: its position and the body as posted. */
export interface AisCardTransaction {
  id: string;
  seq: number;
  bookingDate: string;
  body: Record<string, unknown>;
}

export type { ConsentResource };
