import { hash } from 'node:crypto';
import type { TppMessage } from '../api-error.js';
import { timeOrderedId } from '../time-ordered-id.js';
import type { Fees } from '../fee-schedule.js';
import type { Money } from '../money.js';
import type { PaymentProduct, PaymentService } from '../payment-product.js';
import type { PsuIdentification } from '../psu.js';
import type { TransactionStatus } from '../transaction-status.js';

/** One credit transfer: the whole of a cross-border payment, or one entry of a bulk payment. */
export interface Transfer {
  amount: Money;
  creditorName: string;
  /** IBAN or BBAN of the creditor account. */
  creditorAccount: string;
  /** Fingerprint for logical duplicates (debtor, creditor, amount, currency, date, remittance): duplicateKey's SHA-256 in hex, which the store indexes by its first 16 digits. */
  duplicateKey: string;
  /** JSON path of the transfer in the request, for messages. */
  path: string;
}

export interface DebtorAccount {
  bban: string | undefined;
  iban: string | undefined;
  currency: string;
}

/** What product validation makes of a request body. */
export interface ValidatedPayment {
  debtor: DebtorAccount;
  requestedExecutionDate: string | undefined;
  transfers: Transfer[];
  fees: Fees;
  warnings: TppMessage[];
}

/** A payment as it is stored when the bank accepts its initiation. */
export interface NewPayment extends ValidatedPayment {
  id: string;
  tppId: string;
  service: PaymentService;
  product: PaymentProduct;
  status: TransactionStatus;
  psu: PsuIdentification;
  /** The body as submitted, returned by GET. */
  body: unknown;
  acceptFixes: string[];
  tppRedirectUri: string;
  tppSessionId: string;
  createdAt: Date;
}

/** Opaque and unguessable (96 random bits after the time it was made: timeOrderedId), in the platform's enc!! form. */
export function newPaymentId(): string {
  return `enc!!${timeOrderedId()}`;
}

export interface DuplicateParts {
  debtor: string;
  creditor: string;
  amount: Money;
  executionDate: string | undefined;
  remittance: string;
}

/**
 * The one transfer of a single payment, at the body's root: to the creditor's account, keyed for the
 * logical duplicate check by its parts (`creditor` in the key where it says more than the account).
 */
export function singleTransfer(
  transfer: Omit<Transfer, 'duplicateKey' | 'path'>,
  parts: Omit<DuplicateParts, 'creditor' | 'amount'> & { creditor?: string },
): Transfer {
  const creditor = parts.creditor ?? transfer.creditorAccount;
  return { ...transfer, duplicateKey: duplicateKey({ ...parts, creditor, amount: transfer.amount }), path: '$' };
}

/** Equal payments have equal keys: the parts, normalised, hashed. */
export function duplicateKey(parts: DuplicateParts): string {
  const text = [
    parts.debtor,
    parts.creditor,
    parts.amount.minor.toString(),
    parts.amount.currency,
    parts.executionDate ?? '',
    parts.remittance.trim().replace(/\s+/g, ' ').toLowerCase(),
  ].join('|');
  // One-shot: a Hash object per entry of a bulk costs several times the hashing (bench/history.md,
  // "The request's own work").
  return hash('sha256', text, 'hex');
}
