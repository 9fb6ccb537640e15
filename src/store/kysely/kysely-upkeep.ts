import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { TransactionLock } from '../queries/transaction-lock.js';
import type { RowKey } from '../queries/retention-queries.js';
import * as owners from '../queries/bank-owner-queries.js';
import * as retention from '../queries/retention-queries.js';
import * as scheduler from '../queries/scheduler-queries.js';
import type { BankData } from '../sca-records.js';
import type { BankEntry, BankOwner } from '../../domain/bank.js';
import type { BankWithWork, BoundKey, KeyLink, RetentionKind, UpkeepStore } from '../upkeep-records.js';

/** The upkeep part of the Kysely store: tenancy, use, the scheduler's banks, retention. */
export class KyselyUpkeep implements UpkeepStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly lock: TransactionLock,
    private readonly rowKey: () => RowKey,
  ) {}

  enterBank(
    bank: string,
    owner: BankOwner,
    at: Date,
    defaults: (at: Date) => BankData,
    limit?: number,
  ): Promise<BankEntry> {
    return owners.enterBank(this.db, this.lock, bank, owner, at, defaults, limit);
  }

  bindBankKey(bank: string, keySha256: string, at: Date, limit: number): Promise<'bound' | 'already' | 'full'> {
    return owners.bindKey(this.db, this.lock, bank, keySha256, at, limit);
  }

  bindBankKeyByLink(
    bank: string,
    link: KeyLink,
    keySha256: string,
    at: Date,
    limit: number,
  ): Promise<'bound' | 'already' | 'full' | 'used' | 'key-unbound'> {
    return owners.bindKeyByLink(this.db, this.lock, bank, link, keySha256, at, limit);
  }

  listBankKeys(bank: string): Promise<BoundKey[]> {
    return owners.listKeys(this.db, bank);
  }

  unbindBankKey(bank: string, keySha256: string): Promise<'unbound' | 'unknown' | 'last'> {
    return owners.unbindKey(this.db, this.lock, bank, keySha256);
  }

  touchBank(bank: string, at: Date): Promise<boolean> {
    return owners.touchBank(this.db, bank, at);
  }

  findBanksWithWork(): Promise<BankWithWork[]> {
    return scheduler.findBanksWithWork(this.db);
  }

  listClockOffsets(): Promise<bigint[]> {
    return scheduler.listClockOffsets(this.db);
  }

  claimRetentionRun(slot: string, at: Date): Promise<boolean> {
    return retention.claimRetentionRun(this.db, slot, at);
  }

  deleteRetained(kind: RetentionKind, before: Date, limit: number): Promise<number> {
    return retention.deleteRetained(this.db, this.rowKey(), kind, before, limit);
  }

  findIdleBanks(before: Date, limit: number): Promise<string[]> {
    return retention.findIdleBanks(this.db, before, limit);
  }

  markBankRemoving(bank: string, before: Date): Promise<boolean> {
    return retention.markBankRemoving(this.db, bank, before);
  }

  deleteBankChunk(bank: string, limit: number): Promise<number> {
    return retention.deleteBankChunk(this.db, this.rowKey(), bank, limit);
  }
}
