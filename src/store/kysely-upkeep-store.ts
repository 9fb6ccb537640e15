import type { Transaction } from 'kysely';
import type { BankEntry, BankOwner } from '../domain/bank.js';
import type { Database } from './database.js';
import { KyselyPeriodicStore } from './kysely-periodic-store.js';
import * as owners from './queries/bank-owner-queries.js';
import type { BankData } from './sca-records.js';
import type { UpkeepStore } from './upkeep-records.js';

/** The upkeep part of the Kysely store (kysely-store.ts extends it): tenancy, use, the scheduler's banks. */
export abstract class KyselyUpkeepStore extends KyselyPeriodicStore implements UpkeepStore {
  protected abstract lock(trx: Transaction<Database>, key: string): Promise<void>;

  enterBank(
    bank: string,
    owner: BankOwner,
    at: Date,
    defaults: (at: Date) => BankData,
    limit?: number,
  ): Promise<BankEntry> {
    return owners.enterBank(this.db, (trx, key) => this.lock(trx, key), bank, owner, at, defaults, limit);
  }
  touchBank(bank: string, at: Date): Promise<boolean> {
    return owners.touchBank(this.db, bank, at);
  }
}
