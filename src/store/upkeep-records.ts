import type { BankEntry, BankOwner } from '../domain/bank.js';
import type { BankData } from './sca-records.js';

/**
 * The store's part for keeping a shared sandbox in order: who may enter a bank, its use, and the
 * banks the scheduler has work in (docs/decisions.md, "A sandbox bank belongs to its key", "The
 * scheduler visits the banks that have work").
 */
export interface UpkeepStore {
  /**
   * A signed request's way into its TPP's bank: made for the request's key when it does not exist
   * (with the limits of openBank and the owner's per-address limit), else admitted when the key is
   * bound to it; a bank without keys is bound to the first that comes.
   */
  enterBank(
    bank: string,
    owner: BankOwner,
    at: Date,
    defaults: (at: Date) => BankData,
    limit?: number,
  ): Promise<BankEntry>;
  /** Notes the bank's use now; false when it is gone or being removed. */
  touchBank(bank: string, at: Date): Promise<boolean>;
}
