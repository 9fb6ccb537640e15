import type { ConsentStatus } from '../domain/ais-consent.js';
import type { AuthorisationKind, AuthorisationStatus } from '../domain/sca.js';
import type { TransactionStatus } from '../domain/transaction-status.js';
import type { SandboxAccount, SandboxCardAccount } from './sandbox-records.js';

/**
 * What a sandbox bank holds, read as lists for its console (docs/console.md): its payments, one
 * payment's history, its consents, its customers' accounts. Every read is within one bank and bounded.
 */

/** A payment as a list of the bank's payments shows it. */
export interface PaymentSummary {
  id: string;
  service: string;
  product: string;
  /** As stored; a payment past its signing window reads RJCT (domain/sca.ts effectiveStatus). */
  status: TransactionStatus;
  statusReason: string | undefined;
  createdAt: string;
  updatedAt: string;
  authorisedAt: string | undefined;
  requestedExecutionDate: string | undefined;
  /** The debtor account as the payment names it (BBAN, else IBAN); undefined when it names none. */
  debtorAccount: string | undefined;
  /** The sum of its transfers, in the first one's currency (a payment's transfers share one). */
  amountMinor: bigint;
  currency: string;
  /** The first transfer's creditor; a bulk payment has `entryCount` of them. */
  creditorName: string;
  creditorAccount: string;
  entryCount: number;
}

/** An authorisation of a payment (its SCA, a basket's it is in, or its cancellation's), as stored. */
export interface AuthorisationRecord {
  id: string;
  kind: AuthorisationKind;
  stage: 'link' | 'login' | 'decision' | 'done';
  status: AuthorisationStatus;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

/** A transaction a payment's execution booked on an account of the bank. */
export interface PaymentBooking {
  accountBban: string;
  /** Debit from the account (the payment's debit, or its fee), or credit to it (a transfer to an account of this bank). */
  direction: 'debit' | 'credit';
  amountMinor: bigint;
  currency: string;
  bookingDate: string;
  bankTransactionCode: string;
  /** When the batch run (or the instant execution) wrote it. */
  createdAt: string;
}

/** An execution of a standing order: booked (ACSC) or rejected (RJCT), once. */
export interface PeriodicExecutionRecord {
  executionDate: string;
  status: TransactionStatus;
  statusReason: string | undefined;
  createdAt: string;
}

/** Everything stored about a payment that its history is read from; each list at most the limit asked, the newest kept. */
export interface PaymentHistory {
  payment: PaymentSummary & {
    feeMinor: bigint;
    feeCurrency: string;
    basketId: string | undefined;
    /** A hold an armed scenario put on it (docs/scenarios.md) while it lasts: until when, and what it becomes then. */
    hold: { until: string; then: TransactionStatus; reason: string | undefined } | undefined;
  };
  authorisations: AuthorisationRecord[];
  bookings: PaymentBooking[];
  executions: PeriodicExecutionRecord[];
}

/** A consent as a list of the bank's consents shows it. */
export interface ConsentSummary {
  id: string;
  tppSessionId: string;
  status: ConsentStatus;
  psuContext: string;
  /** The customer who gave it; undefined until the SCA. */
  customerNumber: string | undefined;
  customerName: string | undefined;
  agreementId: string | undefined;
  scaAt: Date | undefined;
  createdAt: Date;
  updatedAt: Date;
  /** The accounts (by BBAN) and card accounts (by masked number) it shares, with their names. */
  shared: { kind: 'account' | 'card'; number: string; name: string }[];
}

/** The accounts and card accounts of some customers of the bank. */
export interface CustomerAccounts {
  accounts: SandboxAccount[];
  cards: SandboxCardAccount[];
}

/** The Store's reads of a bank as lists (src/store/store.ts extends it). */
export interface BankOverviewStore {
  /** The TPP's payments in the bank, newest first, at most `limit`. */
  listPayments(tppId: string, bank: string, limit: number): Promise<PaymentSummary[]>;
  /** A payment of the TPP in the bank with what its history is read from, each list at most `limit`. */
  paymentHistory(tppId: string, bank: string, paymentId: string, limit: number): Promise<PaymentHistory | undefined>;
  /** The TPP's consents in the bank, newest first, at most `limit`, with what each shares. */
  listConsents(tppId: string, bank: string, limit: number): Promise<ConsentSummary[]>;
  /** The accounts and card accounts of these customers of the bank, in the order the customers' listing gives them. */
  customerAccounts(bank: string, customerIds: readonly string[]): Promise<CustomerAccounts>;
}
