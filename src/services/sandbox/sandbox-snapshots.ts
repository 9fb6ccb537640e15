import type { SnapshotStore } from '../../store/snapshot-records.js';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../domain/api-error.js';
import type { Json } from '../../domain/json.js';
import {
  MAX_SANDBOX_SNAPSHOT_BYTES,
  MAX_SANDBOX_SNAPSHOT_ROWS,
  MAX_SANDBOX_SNAPSHOTS_PER_BANK,
} from '../../domain/limits.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import type { SnapshotLimits, SnapshotSave, SnapshotSummary } from '../../store/snapshot-records.js';
import type { Banks } from '../banks.js';
import type { BankBulk } from './bank-bulk.js';
import { conflict, unknown } from './sandbox-input.js';
import { link } from './sandbox-links.js';

/** The TPP a request or a console session acts for: its bank is all that is read. */
type TppRef = Pick<TppIdentity, 'id'>;

const LIMITS: SnapshotLimits = {
  perBank: MAX_SANDBOX_SNAPSHOTS_PER_BANK,
  rows: MAX_SANDBOX_SNAPSHOT_ROWS,
  bytes: MAX_SANDBOX_SNAPSHOT_BYTES,
};

const COLLECTION = '/v1/sandbox/snapshots';

/**
 * Snapshots of a TPP's sandbox bank (docs/sandbox.md, "Snapshots"): a CI job saves its bank's state
 * and restores it between tests. A snapshot is its bank's alone: another TPP's id is unknown here.
 * The caller wakes the batch scheduler after a restore (the restored clock and payments may be due).
 */
export class SandboxSnapshots {
  constructor(
    private readonly store: SnapshotStore,
    private readonly banks: Banks,
    private readonly bulk: BankBulk,
    private readonly limits: SnapshotLimits = LIMITS,
  ) {}

  async save(tpp: TppRef, name: string | undefined): Promise<Json> {
    const saved = await this.bulk.run(tpp.id, 'snapshot save', () =>
      this.store.saveSnapshot(
        this.banks.of(tpp.id),
        { id: randomUUID(), name, createdAt: this.banks.wallNow() },
        this.limits,
      ),
    );
    if (saved.outcome !== 'saved') throw refusal(saved);
    return snapshotView(saved.snapshot);
  }

  async list(tpp: TppRef): Promise<Json> {
    const snapshots = await this.store.listSnapshots(this.banks.of(tpp.id));
    return { snapshots: snapshots.map(snapshotView), limit: this.limits.perBank };
  }

  async read(tpp: TppRef, id: string): Promise<Json> {
    const found = await this.store.findSnapshot(this.banks.of(tpp.id), id);
    if (found === undefined) throw unknown('snapshotId', 'snapshot', id);
    return snapshotView(found);
  }

  async remove(tpp: TppRef, id: string): Promise<void> {
    if (!(await this.store.deleteSnapshot(this.banks.of(tpp.id), id))) throw unknown('snapshotId', 'snapshot', id);
  }

  /** Puts the TPP's bank back as the snapshot holds it; the caller then catches its batch up (SandboxClock.catchUp). */
  async restore(tpp: TppRef, id: string): Promise<Json> {
    const bank = this.banks.of(tpp.id);
    const restored = await this.bulk.run(tpp.id, 'snapshot restore', () =>
      this.store.restoreSnapshot(bank, id, this.banks.wallNow()),
    );
    if (restored.outcome === 'unknown') throw unknown('snapshotId', 'snapshot', id);
    if (restored.outcome === 'stale')
      throw conflict(
        'path:snapshotId',
        `snapshot ${id} was saved before the sandbox's database changed (it was read in schema ${restored.migration}); its rows no longer fit. Delete it and save the state again`,
      );
    return snapshotView(restored.snapshot);
  }
}

/** Why a save was refused, naming the limit and what to do. */
function refusal(saved: Exclude<SnapshotSave, { outcome: 'saved' }>): ApiError {
  switch (saved.outcome) {
    case 'too-many':
      return conflict(
        '$',
        `the bank keeps at most ${saved.limit} snapshots (MAX_SANDBOX_SNAPSHOTS_PER_BANK), and has as many; delete one first (DELETE ${COLLECTION}/{snapshotId})`,
      );
    case 'too-many-rows':
      return conflict(
        '$',
        `a snapshot holds at most ${saved.limit} rows (MAX_SANDBOX_SNAPSHOT_ROWS: customers, accounts, transactions, payments, consents and their records together), and the bank has more; delete test data it no longer needs, or POST /v1/sandbox/initialize`,
      );
    case 'too-large':
      return conflict(
        '$',
        `a snapshot holds at most ${saved.limit} bytes of rows (MAX_SANDBOX_SNAPSHOT_BYTES), and the bank's passed that (the save stopped at ${saved.bytes}); delete test data it no longer needs, or POST /v1/sandbox/initialize`,
      );
  }
}

function snapshotView(snapshot: SnapshotSummary): Json {
  const self = `${COLLECTION}/${encodeURIComponent(snapshot.id)}`;
  const offsetMs = Number(snapshot.clockOffsetMs);
  return {
    snapshotId: snapshot.id,
    ...(snapshot.name === undefined ? {} : { name: snapshot.name }),
    createdAt: snapshot.createdAt,
    bankTime: new Date(Date.parse(snapshot.createdAt) + offsetMs).toISOString(),
    offsetSeconds: Math.round(offsetMs / 1000),
    rows: snapshot.rowCount,
    sizeBytes: snapshot.sizeBytes,
    _links: { self: link(self, 'GET', 'DELETE'), restore: link(`${self}/restore`, 'POST') },
  };
}
