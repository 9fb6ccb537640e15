import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { BankCore } from '../../core/bank-core.js';
import { type CoreKey, verifyCoreSignature } from '../../core/http/core-signature.js';
import type { Clock } from '../../domain/clock.js';
import type { CoreReport } from '../../store/core-records.js';
import type { HandoverStore } from '../../store/handover-store.js';
import { HandoverRelay } from './handover-relay.js';
import { CoreReportPoller } from './report-poller.js';

export type CoreLog = (level: 'warn' | 'info', fields: Record<string, unknown>, message: string) => void;

/**
 * The server's side of a bank's own core (docs/core.md): the relay that hands each authorised payment
 * over, the poller of the core's status reports, and what the callback the core calls needs (the
 * shared key's check and the reports' application). One per instance; the database's claims keep the
 * instances from sending one payment, or polling, at once.
 */
export class CoreLink {
  readonly relay: HandoverRelay;
  private readonly poller: CoreReportPoller;
  readonly callbacks: {
    verify: (header: string | undefined, method: string, path: string, body: Buffer) => string | undefined;
    apply: (reports: CoreReport[]) => Promise<void>;
  };

  constructor(
    store: HandoverStore,
    core: BankCore,
    key: CoreKey,
    pollSeconds: number,
    clock: Clock,
    log: CoreLog,
    /** Told of each payment the core acknowledged, with the delay from its authorisation. */
    onHanded?: (delayMs: number) => void,
  ) {
    // Claims name the instance: the host and process, and a random part for a restart with the same pid.
    const instance = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.relay = new HandoverRelay(store, core, instance, clock, log, onHanded);
    this.poller = new CoreReportPoller(store, core, instance, clock, pollSeconds * 1000, log);
    this.callbacks = {
      verify: (header, method, path, body) => verifyCoreSignature(key, header, method, path, body, clock.now()),
      apply: async (reports) => {
        await store.applyCoreReports(reports, clock.now());
      },
    };
  }

  /** Hands over what waits from before the start, and from then on what is authorised; polls. */
  start(): void {
    this.relay.start();
    this.poller.start();
    void this.poller.poll();
  }

  async stop(): Promise<void> {
    await Promise.all([this.relay.stop(), this.poller.stop()]);
  }
}
