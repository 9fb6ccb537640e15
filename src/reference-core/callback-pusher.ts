import { backoffMs } from '../domain/backoff.js';
import type { BankCore } from '../core/bank-core.js';
import type { HandoverStore } from '../store/handover-store.js';
import { reportToWire } from '../core/http/core-wire.js';
import { CORE_SIGNATURE_HEADER, type CoreKey, signCoreRequest } from '../core/http/core-signature.js';
import {
  CORE_CALLBACK_MAX_REPORTS,
  CORE_CALLBACK_POLL_MS,
  CORE_CALLBACK_RETRY_MAX_MS,
  CORE_CALLBACK_RETRY_MIN_MS,
  CORE_TIMEOUT_MS_DEFAULT,
} from '../domain/limits.js';
import type { CoreStats } from './core-stats.js';
import type { Faults } from './faults.js';

/** Where the push stands, in the core's own database: its row of core_report_cursors (migration 021). */
export type PushCursorStore = Pick<HandoverStore, 'claimReportPoll' | 'saveReportCursor'>;

/** The row's name, and the one process that pushes from a core's database (a restart takes its claim back at once). */
const CURSOR_NAME = 'reference-core-push';
const PUSHER = 'reference-core';

/**
 * How long the pusher's claim of its cursor holds: a day, renewed at every start; the reference core
 * is one process per database, so the claim only keeps a second one started by mistake from pushing too.
 */
const CLAIM_MS = 86_400_000;

/**
 * Pushes the core's status reports to the server's callback (CALLBACK_URL, POST
 * /core/v1/status-reports), signed, in the order of the core's feed: a page is sent until the server
 * answers 2xx, with backoff and jitter between tries, and only then does the cursor move on. Reports
 * are idempotent, so a page sent twice (an answer lost) does no harm. The cursor is kept in the core's
 * database after each page the server took, so a restart (even kill -9) pushes again at most the page
 * it was sending.
 */
export class CallbackPusher {
  private cursor: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private failures = 0;
  private busy = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly core: BankCore,
    private readonly callbackUrl: URL,
    private readonly key: CoreKey,
    private readonly faults: () => Faults,
    private readonly stats: CoreStats,
    private readonly onFailure: (reason: string) => void,
    private readonly cursors: PushCursorStore,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  /** Takes the cursor where the last push left it, then pushes what is new. */
  async start(): Promise<void> {
    this.stopped = false;
    const now = new Date();
    const claimed = await this.cursors.claimReportPoll(CURSOR_NAME, PUSHER, now, new Date(now.getTime() + CLAIM_MS));
    if (claimed === undefined) throw new Error('another reference core pushes the status reports of this database');
    this.cursor = claimed.cursor;
    this.schedule(0);
  }

  /** Something changed: push soon (pushes coalesce). */
  nudge(): void {
    if (this.failures === 0) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), ms);
    this.timer.unref();
  }

  /** One push run at a time: a nudge during a run makes one more run after it, never a queue of them. */
  private run(): void {
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    this.running = (async () => {
      try {
        await this.pushAll();
        this.failures = 0;
      } catch (error) {
        this.failures += 1;
        this.onFailure((error as Error).message);
      } finally {
        this.busy = false;
      }
      if (this.failures > 0) {
        // Backoff with jitter: cores restarting together do not push in step.
        this.schedule(backoffMs(this.failures - 1, CORE_CALLBACK_RETRY_MIN_MS, CORE_CALLBACK_RETRY_MAX_MS));
      } else {
        this.schedule(this.again ? 0 : CORE_CALLBACK_POLL_MS);
      }
      this.again = false;
    })();
  }

  private async pushAll(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const page = await this.core.statusReports('', this.cursor, CORE_CALLBACK_MAX_REPORTS);
      if (page.reports.length === 0) return;
      // loseCallback: the reports are dropped as a lossy network would; the server's polling must find them.
      if (!this.faults().loseCallback) await this.send(page.reports.map(reportToWire));
      else this.stats.dropped(page.reports.length);
      this.cursor = page.cursor;
      await this.cursors.saveReportCursor(CURSOR_NAME, PUSHER, this.cursor, new Date());
    }
  }

  private async send(reports: unknown[]): Promise<void> {
    const body = JSON.stringify({ reports });
    const target = `${this.callbackUrl.pathname}${this.callbackUrl.search}`;
    const response = await this.fetchFn(this.callbackUrl, {
      method: 'POST',
      signal: AbortSignal.timeout(CORE_TIMEOUT_MS_DEFAULT),
      headers: {
        'content-type': 'application/json',
        [CORE_SIGNATURE_HEADER]: signCoreRequest(this.key, 'POST', target, body, new Date()),
      },
      body,
    });
    await response.body?.cancel().catch(() => undefined);
    if (response.status < 200 || response.status > 299)
      throw new Error(`the callback answered ${response.status} to ${reports.length} status reports`);
    this.stats.pushed(reports.length);
  }
}
