import type { Clock } from '../../domain/clock.js';
import {
  NOTIFICATION_BATCH_SIZE,
  NOTIFICATION_CLAIM_MS,
  NOTIFICATION_CONCURRENCY,
  NOTIFICATION_SWEEP_MS,
  NOTIFICATION_TIMEOUT_MS,
} from '../../domain/limits.js';
import { notificationBody } from '../../domain/notifications/notification-body.js';
import type { NotificationStore } from '../../store/notification-store.js';
import type {
  NotificationEvent,
  NotificationOutcome,
  NotificationSubjectFacts,
} from '../../store/notification-records.js';
import { NOTIFICATION_SIGNATURE_HEADER, type NotificationSigner } from '../../security/notification-signer.js';
import { OutboxSweep } from '../outbox-sweep.js';
import { WriteBatcher } from '../write-batcher.js';
import { FaultLog } from '../core-handover/fault-log.js';
import { DestinationGate } from './destination-gate.js';
import { isDelivered, outcomeOf } from './notification-outcome.js';
import type { NotificationSend, SendResult } from './notification-sender.js';
import { notifiedResources } from './notified-resources.js';

/** The fewest events a claim asks for while tries are in flight: a quarter of a batch. */
const CLAIM_AT_LEAST = NOTIFICATION_BATCH_SIZE / 4;

type RelayStore = Pick<NotificationStore, 'claimNotifications' | 'notificationSubjects' | 'closeNotifications'>;

/**
 * Sends the outbox's notifications (docs/notifications.md, "Delivery"), as the hand-over relay sends
 * payments to a core: an instance claims due events for NOTIFICATION_CLAIM_MS, so no two send one
 * event at once; each resource's events go one after the other, in order (the claim takes only the
 * first not ended of a resource). A try's answer ends its event or defers it (notification-outcome.ts,
 * docs/decisions/0333). Delivery is at least once (docs/decisions/0334): an instance that dies after
 * the TPP took an event and before it wrote so sends it again once its claim lapses, with the same
 * event id.
 *
 * The tries run side by side, each in its destination's lane (destination-gate.ts), and the relay
 * claims more as tries end, up to NOTIFICATION_CONCURRENCY in flight: a destination that hangs holds
 * its own lane's tries, never a turn, so other TPPs' notifications go on (docs/decisions/0336). The
 * answers of tries that end together are written in one transaction (write-batcher.ts).
 */
export class NotificationRelay {
  private readonly sweep: OutboxSweep;
  private readonly faults: FaultLog;
  private readonly gate: DestinationGate;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly closing: WriteBatcher<NotificationOutcome>;

  constructor(
    private readonly store: RelayStore,
    private readonly signer: NotificationSigner,
    private readonly send: NotificationSend,
    /** This process's name in claims. */
    private readonly instance: string,
    private readonly clock: Clock,
    log: (level: 'warn' | 'info', fields: Record<string, unknown>, message: string) => void,
    /** Told of each delivered event, with the time from its write to its delivery (the metrics, the bench). */
    private readonly onDelivered: (event: NotificationEvent, delayMs: number) => void = () => undefined,
  ) {
    this.faults = new FaultLog('sending notifications', log);
    this.sweep = new OutboxSweep(
      () => this.turn(),
      NOTIFICATION_SWEEP_MS,
      (error) => this.faults.failed(error),
    );
    this.gate = new DestinationGate(() => this.clock.now().getTime());
    this.closing = new WriteBatcher((outcomes) =>
      this.store.closeNotifications(this.instance, outcomes, this.clock.now()),
    );
  }

  /** Sweeps for due rows every NOTIFICATION_SWEEP_MS: retries, and rows another instance left (outbox-sweep.ts). */
  start(): void {
    this.sweep.start();
  }

  /** Sends what is due now, at once (after a write here), without waiting for the sweep. */
  nudge(): void {
    this.sweep.nudge();
  }

  /** Sends everything due now, and resolves once nothing due is left and no try is under way (tests; the shutdown). */
  async drain(): Promise<void> {
    do {
      await this.sweep.drain();
      await Promise.all([...this.inFlight]);
    } while (this.inFlight.size > 0);
    // The last tries' answers may have let their resources' next events go: one more look.
    await this.sweep.drain();
    if (this.inFlight.size > 0) await this.drain();
  }

  /** Stops sweeping and waits for the tries under way (each ends within NOTIFICATION_TIMEOUT_MS). */
  async stop(): Promise<void> {
    await this.sweep.stop();
    await Promise.all([...this.inFlight]);
  }

  /**
   * Claims as many due events as there is room for in flight, and starts a try of each; whether a
   * full batch was claimed (more may be due). A try's end nudges the sweep to claim again.
   */
  async turn(): Promise<boolean> {
    const room = Math.min(NOTIFICATION_BATCH_SIZE, NOTIFICATION_CONCURRENCY - this.inFlight.size);
    // Claims in batches: a claim for one or two events each time a try ends would cost a query each.
    if (room < CLAIM_AT_LEAST && this.inFlight.size > 0) return false;
    const now = this.clock.now();
    const until = new Date(now.getTime() + NOTIFICATION_CLAIM_MS);
    const claimed = await this.store.claimNotifications(this.instance, now, until, room);
    if (claimed.length === 0) return false;
    const subjects = await this.store.notificationSubjects(claimed);
    for (const event of claimed) this.track(this.deliver(event, subjects, until));
    return claimed.length === room;
  }

  private track(trying: Promise<void>): void {
    const tracked = trying.catch((error: unknown) => this.faults.failed(error));
    this.inFlight.add(tracked);
    void tracked.finally(() => {
      this.inFlight.delete(tracked);
      if (NOTIFICATION_CONCURRENCY - this.inFlight.size >= CLAIM_AT_LEAST || this.inFlight.size === 0)
        this.sweep.nudge();
    });
  }

  private async deliver(
    event: NotificationEvent,
    subjects: Map<string, NotificationSubjectFacts>,
    claimedUntil: Date,
  ): Promise<void> {
    const body = JSON.stringify(notificationBody({ ...event, ...notifiedResources(event, subjects) }));
    // The lane is held for the try alone, not for the write of its answer.
    const tried = await this.gate.run(event.uri, async () => {
      const startedAt = this.clock.now();
      // A try that waited in its lane until its claim could lapse before it ends is not started:
      // another instance may take the event then, and would send it while this one does. It goes
      // once the claim lapses.
      if (startedAt.getTime() + NOTIFICATION_TIMEOUT_MS > claimedUntil.getTime()) return undefined;
      return { startedAt, result: await this.sendSigned(event, body, startedAt) };
    });
    if (tried === undefined) return;
    const at = this.clock.now();
    await this.closing.add(outcomeOf(event, tried.result, tried.startedAt, at));
    if (isDelivered(tried.result)) {
      this.faults.recovered();
      this.onDelivered(event, at.getTime() - Date.parse(event.createdAt));
    }
  }

  private async sendSigned(event: NotificationEvent, body: string, now: Date): Promise<SendResult> {
    const signature = await this.signer.sign(body, now);
    return this.send(event.uri, body, {
      'content-type': 'application/json',
      [NOTIFICATION_SIGNATURE_HEADER]: signature,
      'user-agent': 'psd2-bank-notifications',
    });
  }
}
