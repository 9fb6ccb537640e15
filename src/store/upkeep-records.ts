import type { BankEntry, BankOwner } from '../domain/bank.js';
import type { BankData } from './sca-records.js';

/**
 * The store's part for keeping a shared sandbox in order: who may enter a bank, its use, and the
 * banks the scheduler has work in (docs/decisions/0270 and docs/decisions/0272).
 */
export interface UpkeepStore {
  /**
   * A signed request's way into its TPP's bank: made for the request's key (a trusted certificate's:
   * for no key, the bank marked trusted) when it does not exist (with the limits of openBank and the
   * owner's per-address limit); else a trusted certificate is admitted and marks the bank trusted, and
   * a self-service one when its key is bound; a bank without keys nor trusted use is bound to the
   * first self-service key that comes.
   */
  enterBank(
    bank: string,
    owner: BankOwner,
    at: Date,
    defaults: (at: Date) => BankData,
    limit?: number,
  ): Promise<BankEntry>;
  /**
   * Binds one more key to a bank (asked by a key bound already), at most `limit` keys in all;
   * 'already' when it is bound.
   */
  bindBankKey(bank: string, keySha256: string, at: Date, limit: number): Promise<'bound' | 'already' | 'full'>;
  /**
   * Binds a key by a one-time link (`tpp docs`), in one transaction under the bank's lock: 'key-unbound'
   * when the key that asked for the link is no longer bound to the bank, 'used' when the link's nonce
   * is recorded already (on any instance), else the nonce is recorded as used and the key bound as
   * bindBankKey binds it.
   */
  bindBankKeyByLink(
    bank: string,
    link: KeyLink,
    keySha256: string,
    at: Date,
    limit: number,
  ): Promise<'bound' | 'already' | 'full' | 'used' | 'key-unbound'>;
  /** The keys bound to a bank, first bound first. */
  listBankKeys(bank: string): Promise<BoundKey[]>;
  /** Unbinds a key; never the last of a bank no trusted certificate made or used ('last'). */
  unbindBankKey(bank: string, keySha256: string): Promise<'unbound' | 'unknown' | 'last'>;
  /** Notes the bank's use now; false when it is gone or being removed. */
  touchBank(bank: string, at: Date): Promise<boolean>;
  /**
   * The banks that have work for the scheduler, with their clocks: read from the partial indexes of
   * waiting payments, so the read grows with the banks that have work, not with all banks.
   */
  findBanksWithWork(): Promise<BankWithWork[]>;
  /** The distinct offsets of the banks' clocks: the instants the scheduler wakes at follow from them. */
  listClockOffsets(): Promise<bigint[]>;

  // The retention job (services/retention-job.ts; docs/retention.md).
  /** Claims the retention run of a slot; false when another instance claimed it. */
  claimRetentionRun(slot: string, at: Date): Promise<boolean>;
  /** Deletes at most `limit` rows of one kind older than `before`, in one statement; the count deleted. */
  deleteRetained(kind: RetentionKind, before: Date, limit: number): Promise<number>;
  /** Sandbox banks unused since `before`, oldest first. */
  findIdleBanks(before: Date, limit: number): Promise<string[]>;
  /** Marks an idle bank as being removed, unless it was used since `before`; whether it did. */
  markBankRemoving(bank: string, before: Date): Promise<boolean>;
  /** Deletes one chunk of a bank being removed; 0 when nothing of it is left (its row is then gone). */
  deleteBankChunk(bank: string, limit: number): Promise<number>;
}

/** A key bound to a sandbox bank: SHA-256 (hex) of its SubjectPublicKeyInfo, and when it was bound. */
export interface BoundKey {
  keySha256: string;
  boundAt: string;
}

/** A bank with work for the scheduler: authorised payments waiting for a batch run, or standing orders running. */
export interface BankWithWork {
  bank: string;
  clockOffsetMs: bigint;
  /** Authorised payments (not standing orders) wait for a batch run. */
  paymentsWaiting: boolean;
  /** The earliest next execution date of its running standing orders (YYYY-MM-DD), if it has any. */
  nextStandingOrderDate: string | undefined;
}

/** The kinds of data the retention job deletes by age (docs/retention.md); sandbox banks are removed apart. */
export type RetentionKind =
  | 'request-bindings'
  | 'authorisations'
  | 'consents-never-given'
  | 'consents'
  | 'psu-sessions'
  | 'console-sessions'
  | 'code-attempts'
  | 'retention-claims'
  | 'notifications'
  | 'payments'
  | 'booked-transactions';

/** A one-time link that binds a key: its nonce, until when it could be used, and the key that asked for it. */
export interface KeyLink {
  nonce: string;
  expiresAt: Date;
  askedWith: string;
}
