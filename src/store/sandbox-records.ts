import type { Account, CustomerType, EngagementRole } from '../domain/bank.js';

/**
 * Records the sandbox's test data (the mock-data API) exchanges with the Store. A record's `tppId` is
 * the TPP that created it; undefined for the default data set, which every TPP sees.
 */

export interface SandboxCustomer {
  id: string;
  customerNumber: string;
  name: string;
  type: CustomerType;
  tppId: string | undefined;
  /** The most one payment or bulk entry the customer may sign, in NOK øre (docs/scenarios.md); undefined: no limit. */
  paymentLimitMinor: bigint | undefined;
}

export interface NewSandboxCustomer extends SandboxCustomer {
  createdAt: Date;
}

/** What a customer holds, as its answer lists it: agreements it owns or acts on, accounts, card accounts. */
export interface SandboxCustomerHoldings {
  /** Each agreement with the ids of its accounts (all of them for the owner, those the person is engaged on otherwise). */
  agreements: { id: string; name: string; accountIds: string[] }[];
  accountIds: string[];
  cardAccountIds: string[];
}

/** An account with what the sandbox needs of its owner: number, type and TPP. */
export interface SandboxAccount extends Account {
  customerNumber: string;
  customerType: CustomerType;
  transactionCount: number;
}

export interface NewSandboxAccount extends Account {
  createdAt: Date;
}

export interface SandboxEngagement {
  customerId: string;
  customerNumber: string;
  accountId: string;
  iban: string;
  bban: string;
  roles: EngagementRole[];
}

export interface SandboxAgreement {
  id: string;
  ownerCustomerId: string;
  ownerCustomerNumber: string;
  /** The owner's TPP: the default data set's agreements belong to its customers. */
  name: string;
  tppId: string | undefined;
  engagements: SandboxEngagement[];
}

export interface NewSandboxAgreement {
  id: string;
  ownerCustomerId: string;
  name: string;
  tppId: string;
  createdAt: Date;
  engagements: { customerId: string; accountId: string; roles: EngagementRole[] }[];
}

export interface SandboxCardAccount {
  id: string;
  customerId: string;
  customerNumber: string;
  maskedPan: string;
  name: string;
  product: string;
  currency: string;
  creditLimitMinor: bigint;
  balanceMinor: bigint;
  /** The card account as created (normalised), for its answer. */
  body: Record<string, unknown>;
}

export interface NewSandboxCardAccount extends Omit<SandboxCardAccount, 'customerNumber'> {
  createdAt: Date;
}

/** A transaction of an account: the specification's Sandbox transaction, amounts in minor units. */
export interface SandboxTransaction {
  id: string;
  accountId: string;
  /** Position in the account, 1, 2, 3, ...: the listing's order. */
  seq: number;
  amountMinor: bigint;
  currency: string;
  bookingDate: string;
  valueDate: string;
  remittance: string;
  creditorName: string;
  creditorIban: string;
  creditorBban: string;
  debtorName: string;
  debtorIban: string;
  debtorBban: string;
  bankTransactionCode: string;
  ultimateDebtor: string;
  ultimateCreditor: string;
  purposeCode: string;
  /** The payment whose execution booked it; undefined for posted test data. */
  paymentId: string | undefined;
  /** The endToEndIdentification of the payment that booked it; '' for posted test data and fees. */
  endToEndId: string;
}

/** Posted test data: the platform's mock-data transaction has no end-to-end id. */
export type NewSandboxTransaction = Omit<SandboxTransaction, 'accountId' | 'seq' | 'paymentId' | 'endToEndId'>;

export interface SandboxCardTransaction {
  id: string;
  cardAccountId: string;
  seq: number;
  bookingDate: string;
  body: Record<string, unknown>;
}

export type NewSandboxCardTransaction = Omit<SandboxCardTransaction, 'cardAccountId' | 'seq'>;

/**
 * A page of a transaction listing. Without dates the page is a range of the dense position (seq >
 * offset); with dates it is read on the (account, booking date, seq) index with an OFFSET.
 */
export interface TransactionPage {
  fromDate: string | undefined;
  toDate: string | undefined;
  offset: number;
  limit: number;
}

export interface SandboxInitializeResult {
  /** Customers of the calling TPP deleted, with everything they held. */
  deletedCustomers: number;
}
