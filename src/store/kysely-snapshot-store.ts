import type { Transaction } from 'kysely';
import type { Database } from './database.js';
import { KyselyUpkeepStore } from './kysely-upkeep-store.js';
import * as snapshots from './queries/sandbox-snapshot-queries.js';
import type {
  NewSnapshot,
  SnapshotLimits,
  SnapshotRestore,
  SnapshotSave,
  SnapshotStore,
  SnapshotSummary,
} from './snapshot-records.js';

/** The sandbox snapshots' part of the Kysely store (kysely-store.ts extends it): the same queries on either dialect. */
export abstract class KyselySnapshotStore extends KyselyUpkeepStore implements SnapshotStore {
  protected abstract override lock(trx: Transaction<Database>, key: string): Promise<void>;

  saveSnapshot(bank: string, snapshot: NewSnapshot, limits: SnapshotLimits): Promise<SnapshotSave> {
    return snapshots.saveSnapshot(this.db, (trx, key) => this.lock(trx, key), this.rowKey, bank, snapshot, limits);
  }
  listSnapshots(bank: string): Promise<SnapshotSummary[]> {
    return snapshots.listSnapshots(this.db, bank);
  }
  findSnapshot(bank: string, id: string): Promise<SnapshotSummary | undefined> {
    return snapshots.findSnapshot(this.db, bank, id);
  }
  deleteSnapshot(bank: string, id: string): Promise<boolean> {
    return snapshots.deleteSnapshot(this.db, bank, id);
  }
  restoreSnapshot(bank: string, id: string, at: Date): Promise<SnapshotRestore> {
    return snapshots.restoreSnapshot(this.db, (trx, key) => this.lock(trx, key), bank, id, at);
  }
}
