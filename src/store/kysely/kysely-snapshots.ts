import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { TransactionLock } from '../queries/transaction-lock.js';
import type { RowKey } from '../queries/retention-queries.js';
import type { RowReader } from '../queries/row-reader.js';
import * as snapshots from '../queries/sandbox-snapshot-queries.js';
import * as leases from '../queries/bulk-lease-queries.js';
import type {
  BulkLease,
  BulkLeaseHolder,
  NewSnapshot,
  SnapshotLimits,
  SnapshotRestore,
  SnapshotSave,
  SnapshotSummary,
  SnapshotStore,
} from '../snapshot-records.js';

/** The sandbox snapshots' part of the Kysely store. */
export class KyselySnapshots implements SnapshotStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly lock: TransactionLock,
    private readonly rowKey: () => RowKey,
    private readonly openReader: () => RowReader | undefined,
  ) {}

  saveSnapshot(bank: string, snapshot: NewSnapshot, limits: SnapshotLimits): Promise<SnapshotSave> {
    return snapshots.saveSnapshot(this.db, this.lock, this.rowKey(), this.openReader, bank, snapshot, limits);
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
    return snapshots.restoreSnapshot(this.db, this.lock, this.rowKey(), bank, id, at);
  }

  finishRestores(at: Date): Promise<string[]> {
    return snapshots.finishRestores(this.db, this.rowKey(), at);
  }

  takeBulkLease(bank: string, lease: BulkLease): Promise<BulkLeaseHolder | undefined> {
    return leases.takeBulkLease(this.db, bank, lease);
  }

  releaseBulkLease(bank: string, holder: string): Promise<void> {
    return leases.releaseBulkLease(this.db, bank, holder);
  }
}
