/**
 * The store's part for sandbox snapshots (docs/sandbox.md, "Snapshots"): a bank's rows saved and put
 * back, within the one bank, on both databases.
 */
export interface SnapshotStore {
  /**
   * Saves the bank's rows of every table a snapshot holds (queries/bank-tables.ts) and its clock
   * offset, read in one read transaction, unless the bank holds `limits.perBank` snapshots already
   * or its rows are more than the limits allow (nothing is written then).
   */
  saveSnapshot(bank: string, snapshot: NewSnapshot, limits: SnapshotLimits): Promise<SnapshotSave>;
  /** The bank's snapshots, oldest first, without their rows. */
  listSnapshots(bank: string): Promise<SnapshotSummary[]>;
  findSnapshot(bank: string, id: string): Promise<SnapshotSummary | undefined>;
  /** False when the bank has no snapshot of this id. */
  deleteSnapshot(bank: string, id: string): Promise<boolean>;
  /**
   * Puts the bank's rows back as the snapshot holds them and sets its clock offset: every row of the
   * bank a snapshot holds is deleted and the snapshot's inserted. Other banks' rows, the bank's keys
   * and its request bindings are not touched. PostgreSQL writes it in one transaction; SQLite in short
   * ones, a slice of rows each, while the caller keeps the bank's own requests out (services/bank-gate.ts).
   */
  restoreSnapshot(bank: string, id: string, at: Date): Promise<SnapshotRestore>;
  /** Finishes the restores a crash interrupted (SQLite's slices); the banks finished. Run at start. */
  finishRestores(at: Date): Promise<string[]>;
  /**
   * Takes the bank's lease for one bulk operation, unless another holds one that has not run out
   * (on any instance): undefined when taken, else who holds it and until when.
   */
  takeBulkLease(bank: string, lease: BulkLease): Promise<BulkLeaseHolder | undefined>;
  /** Frees the bank's lease, if `holder` still holds it. */
  releaseBulkLease(bank: string, holder: string): Promise<void>;
}

/** A lease of a bank for one bulk operation. */
export interface BulkLease {
  /** The operation and a token of this run: only its holder frees it. */
  holder: string;
  now: Date;
  until: Date;
}

export interface BulkLeaseHolder {
  holder: string;
  until: Date;
}

export interface NewSnapshot {
  id: string;
  name: string | undefined;
  /** By the wall clock. */
  createdAt: Date;
}

/** The bounds of one bank's snapshots (src/domain/limits/sandbox.ts). */
export interface SnapshotLimits {
  perBank: number;
  rows: number;
  /** The rows serialised, before compression. */
  bytes: number;
}

export interface SnapshotSummary {
  id: string;
  name: string | undefined;
  createdAt: string;
  clockOffsetMs: bigint;
  rowCount: number;
  /** As stored (compressed). */
  sizeBytes: number;
}

export type SnapshotSave =
  | { outcome: 'saved'; snapshot: SnapshotSummary }
  | { outcome: 'too-many'; limit: number }
  | { outcome: 'too-many-rows'; limit: number }
  | { outcome: 'too-large'; bytes: number; limit: number };

export type SnapshotRestore =
  | { outcome: 'restored'; snapshot: SnapshotSummary }
  | { outcome: 'unknown' }
  /** Saved in a schema before a migration since: its rows no longer fit the tables. */
  | { outcome: 'stale'; migration: string };
