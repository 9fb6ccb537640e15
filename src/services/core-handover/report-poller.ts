import type { BankCore } from '../../core/bank-core.js';
import type { Clock } from '../../domain/clock.js';
import { CORE_REPORTS_PAGE } from '../../domain/limits.js';
import type { HandoverStore } from '../../store/handover-store.js';
import { FaultLog } from './fault-log.js';

/** The one cursor of production's bank's core. */
const CURSOR = 'core';

/**
 * Reads the core's status reports it may not have pushed (docs/core.md, "Status reports"): every
 * CORE_POLL_SECONDS one instance (a claim in the database) asks for the changes after its cursor and
 * applies them. A core without callbacks is followed this way alone; one with callbacks, through this
 * as well, so a callback lost is found at the next poll. Reports apply forward only, so a report read
 * twice (by a callback and a poll) changes nothing the second time.
 */
export class CoreReportPoller {
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private readonly faults: FaultLog;

  constructor(
    private readonly store: Pick<HandoverStore, 'claimReportPoll' | 'saveReportCursor' | 'applyCoreReports'>,
    private readonly core: Pick<BankCore, 'statusReports'>,
    private readonly instance: string,
    private readonly clock: Clock,
    private readonly everyMs: number,
    log: (level: 'warn' | 'info', fields: Record<string, unknown>, message: string) => void,
  ) {
    this.faults = new FaultLog("reading the core's status reports", log);
  }

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.polling;
  }

  /** One poll, unless one runs here already; resolves when it is done. */
  poll(): Promise<void> {
    this.polling ??= this.readAll().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  private async readAll(): Promise<void> {
    try {
      const now = this.clock.now();
      const turn = await this.store.claimReportPoll(
        CURSOR,
        this.instance,
        now,
        new Date(now.getTime() + 3 * this.everyMs),
      );
      if (turn === undefined) return;
      let cursor = turn.cursor;
      for (;;) {
        const page = await this.core.statusReports('', cursor, CORE_REPORTS_PAGE);
        if (page.reports.length > 0) await this.store.applyCoreReports(page.reports, this.clock.now());
        if (page.cursor !== cursor)
          await this.store.saveReportCursor(CURSOR, this.instance, page.cursor, this.clock.now());
        cursor = page.cursor;
        if (page.reports.length < CORE_REPORTS_PAGE) break;
      }
      this.faults.recovered();
    } catch (error) {
      this.faults.failed(error);
    }
  }
}
