import { randomUUID } from 'node:crypto';
import { BANK_ENTRIES_CACHED, SANDBOX_BULK_BUSY_RETRY_SECONDS, SANDBOX_BULK_LEASE_MS } from '../../domain/limits.js';
import { RetryLater } from '../../domain/retry-later.js';
import type { SnapshotStore } from '../../store/snapshot-records.js';
import type { Banks } from '../banks.js';

/** The operations on a bank as a whole. */
export type BulkOperation = 'snapshot save' | 'snapshot restore' | 'initialize';

const MINUTE_MS = 60_000;

/**
 * Runs bulk operations on a TPP's sandbox bank (docs/decisions/0314, docs/decisions/0315 and
 * docs/decisions/0316): at most SANDBOX_BULK_OPERATIONS_PER_TPP_PER_MINUTE a TPP starts (the bank tenancy's)
 * (429 beyond, tries refused for any reason included), at most one at a time on a bank across instances (the bank's
 * lease; 409 for a second), and each alone at its bank's gate in this process, so the bank's own
 * requests wait while it runs and never see it half done. Other banks' requests never wait here.
 */
export class BankBulk {
  /** When each TPP started its operations of the last minute, in this process. */
  private readonly starts = new Map<string, number[]>();

  constructor(
    private readonly store: Pick<SnapshotStore, 'takeBulkLease' | 'releaseBulkLease'>,
    private readonly banks: Banks,
  ) {}

  /** Runs `work` as the TPP's bulk operation, from a request that holds no reader of its bank's gate (`config.bulk`). */
  async run<T>(tppId: string, operation: BulkOperation, work: () => Promise<T>): Promise<T> {
    const bank = this.banks.of(tppId);
    const now = this.banks.wallNow();
    this.countStart(tppId, now.getTime(), operation);
    const holder = `${operation} ${randomUUID()}`;
    const other = await this.store.takeBulkLease(bank, {
      holder,
      now,
      until: new Date(now.getTime() + SANDBOX_BULK_LEASE_MS),
    });
    if (other !== undefined)
      throw new RetryLater(
        'CONFLICT',
        '$',
        `the sandbox bank of ${tppId} runs one bulk operation at a time, and a ${other.holder.split(' ').slice(0, -1).join(' ')} runs on it now; send the ${operation} again in ${SANDBOX_BULK_BUSY_RETRY_SECONDS} seconds (Retry-After)`,
        SANDBOX_BULK_BUSY_RETRY_SECONDS,
      );
    try {
      return await this.banks.gate.alone(bank, work);
    } finally {
      await this.store.releaseBulkLease(bank, holder);
    }
  }

  private countStart(tppId: string, now: number, operation: BulkOperation): void {
    const recent = (this.starts.get(tppId) ?? []).filter((at) => now - at < MINUTE_MS);
    const perMinute = this.banks.bulkOperationsPerMinute;
    if (recent.length >= perMinute) {
      this.starts.set(tppId, recent);
      const seconds = Math.max(1, Math.ceil((recent[0]! + MINUTE_MS - now) / 1000));
      throw new RetryLater(
        'ACCESS_EXCEEDED',
        '$',
        `a TPP starts at most ${perMinute} bulk operations (snapshot saves and restores, initialize) a minute (SANDBOX_BULK_OPERATIONS_PER_TPP_PER_MINUTE), and ${tppId} has; send the ${operation} again in ${seconds} seconds (Retry-After)`,
        seconds,
      );
    }
    recent.push(now);
    if (this.starts.size >= BANK_ENTRIES_CACHED) this.starts.clear();
    this.starts.set(tppId, recent);
  }
}
