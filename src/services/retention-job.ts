import type { UpkeepStore } from '../store/upkeep-records.js';
import { RepeatingJob } from './repeating-job.js';
import type { Mode } from '../config/config.js';
import { type Clock, systemClock } from '../domain/clock.js';
import {
  AUTHORISATION_KEEP_DAYS,
  CODE_ATTEMPTS_KEEP_DAYS,
  RETENTION_CHUNK_ROWS,
  RETENTION_CLAIMS_KEEP_DAYS,
  NOTIFICATION_KEEP_DAYS,
  RETENTION_INTERVAL_MS,
  RETENTION_MAX_CHUNKS_PER_KIND,
} from '../domain/limits.js';
import { PSU_SESSION_VALIDITY_DAYS } from '../domain/sca.js';
import type { RetentionKind } from '../store/upkeep-records.js';

const DAY_MS = 86_400_000;

/** How long what is kept (docs/retention.md; config: SANDBOX_BANK_IDLE_DAYS, BOOKKEEPING_RETENTION_YEARS). */
export interface RetentionPolicy {
  mode: Mode;
  /** Sandbox banks unused this many days are removed with all their data. */
  idleDays: number;
  /** Production keeps payments and booked transactions this many years after the end of their financial year. */
  bookkeepingYears: number;
  chunkRows?: number;
  maxChunksPerKind?: number;
}

/** What one run deleted, by kind; `banks` counts the sandbox banks removed whole. */
export type RetentionReport = Partial<Record<RetentionKind | 'banks' | 'bank-rows', number>>;

/**
 * The retention job (docs/retention.md): runs on every instance once an hour, and each hour's run is
 * claimed in the store first, so that one instance does it whatever the number of instances (as a
 * batch slot is claimed). It deletes by age, in chunks of one statement each with a turn of the event
 * loop between them, and at most RETENTION_MAX_CHUNKS_PER_KIND chunks of a kind per run: a backlog is
 * worked off run by run, never in one long sweep. Its clock is the wall clock: keeping is real time.
 */
export class RetentionJob {
  private readonly job = new RepeatingJob(
    () => this.runOnce(),
    RETENTION_INTERVAL_MS,
    (error) => this.onError(error),
  );

  constructor(
    private readonly store: UpkeepStore,
    private readonly policy: RetentionPolicy,
    private readonly clock: Clock = systemClock,
    private readonly onRun: (report: RetentionReport) => void = () => undefined,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** This hour's run, when this instance claims it; undefined when another instance did. */
  async runOnce(): Promise<RetentionReport | undefined> {
    const now = this.clock.now();
    if (!(await this.store.claimRetentionRun(now.toISOString().slice(0, 13), now))) return undefined;
    const report = await this.sweep(now);
    this.onRun(report);
    return report;
  }

  /** Deletes everything past its keeping at `now`. */
  async sweep(now: Date): Promise<RetentionReport> {
    const report: RetentionReport = {};
    const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const kinds: [RetentionKind, Date][] = [
      ['request-bindings', now],
      ['authorisations', ago(AUTHORISATION_KEEP_DAYS)],
      ['consents-never-given', ago(AUTHORISATION_KEEP_DAYS)],
      ['consents', ago(PSU_SESSION_VALIDITY_DAYS + AUTHORISATION_KEEP_DAYS)],
      ['psu-sessions', ago(PSU_SESSION_VALIDITY_DAYS)],
      ['console-sessions', now],
      ['code-attempts', ago(CODE_ATTEMPTS_KEEP_DAYS)],
      ['retention-claims', ago(RETENTION_CLAIMS_KEEP_DAYS)],
      ['notifications', ago(NOTIFICATION_KEEP_DAYS)],
    ];
    if (this.policy.mode === 'production') {
      // bokføringsloven § 13: kept five years after the end of the financial year (the calendar year).
      const kept = new Date(Date.UTC(now.getUTCFullYear() - this.policy.bookkeepingYears, 0, 1));
      kinds.push(['payments', kept], ['booked-transactions', kept]);
    }
    for (const [kind, before] of kinds) {
      const deleted = await this.inChunks(() => this.store.deleteRetained(kind, before, this.chunkRows));
      if (deleted > 0) report[kind] = deleted;
    }
    if (this.policy.mode === 'sandbox') await this.removeIdleBanks(ago(this.policy.idleDays), report);
    return report;
  }

  /** Sandbox banks unused since `before`, each marked first (its requests then get 503) and removed chunk by chunk. */
  private async removeIdleBanks(before: Date, report: RetentionReport): Promise<void> {
    for (const bank of await this.store.findIdleBanks(before, this.maxChunks)) {
      if (!(await this.store.markBankRemoving(bank, before))) continue;
      report['bank-rows'] =
        (report['bank-rows'] ?? 0) +
        (await this.inChunks(() => this.store.deleteBankChunk(bank, this.chunkRows), Infinity));
      report.banks = (report.banks ?? 0) + 1;
    }
  }

  /** Runs `chunk` until it deletes nothing (or `limit` chunks), with a turn of the event loop after each; the total. */
  private async inChunks(chunk: () => Promise<number>, limit = this.maxChunks): Promise<number> {
    let total = 0;
    for (let i = 0; i < limit; i++) {
      const deleted = await chunk();
      await new Promise((resolve) => setImmediate(resolve));
      if (deleted === 0) break;
      total += deleted;
    }
    return total;
  }

  private get chunkRows(): number {
    return this.policy.chunkRows ?? RETENTION_CHUNK_ROWS;
  }
  private get maxChunks(): number {
    return this.policy.maxChunksPerKind ?? RETENTION_MAX_CHUNKS_PER_KIND;
  }
}
