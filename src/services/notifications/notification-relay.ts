import type { Clock } from '../../domain/clock.js';
import { backoffMs } from '../../domain/backoff.js';
import {
  NOTIFICATION_BATCH_SIZE,
  NOTIFICATION_CLAIM_MS,
  NOTIFICATION_RETRY_BASE_MS,
  NOTIFICATION_RETRY_MAX_MS,
  NOTIFICATION_RETRY_WINDOW_MS,
  NOTIFICATION_SWEEP_MS,
  NOTIFICATION_TIMEOUT_MS,
} from '../../domain/limits.js';
import { notificationBody } from '../../domain/notifications/notification-body.js';
import type { NotificationStore } from '../../store/notification-store.js';
import type { NotificationEvent, NotificationSubjectFacts } from '../../store/notification-records.js';
import { NOTIFICATION_SIGNATURE_HEADER, type NotificationSigner } from '../../security/notification-signer.js';
import { OutboxSweep } from '../outbox-sweep.js';
import { FaultLog } from '../core-handover/fault-log.js';
import { DestinationGate } from './destination-gate.js';
import type { NotificationSend, SendResult } from './notification-sender.js';
import { notifiedResources } from './notified-resources.js';

type RelayStore = Pick<
  NotificationStore,
  'claimNotifications' | 'notificationSubjects' | 'endNotification' | 'deferNotification'
>;

/**
 * Sends the outbox's notifications (docs/notifications.md, "Delivery"), as the hand-over relay sends
 * payments to a core: an instance claims due events for NOTIFICATION_CLAIM_MS, so no two send one
 * event at once; each resource's events go one after the other, in order (the claim takes only the
 * first not ended of a resource). A 2xx ends an event, a 410 ends its resource's notifications,
 * anything else is tried again with exponential backoff and jitter until NOTIFICATION_RETRY_WINDOW_MS
 * after it was written (docs/decisions/0333). Delivery is at least once (docs/decisions/0334): an instance that dies after the TPP took an event
 * and before it wrote so sends it again once its claim lapses, with the same event id.
 */
export class NotificationRelay {
  private readonly sweep: OutboxSweep;
  private readonly faults: FaultLog;
  private readonly gate: DestinationGate;

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
      () => this.turn().then((claimed) => claimed > 0),
      NOTIFICATION_SWEEP_MS,
      (error) => this.faults.failed(error),
    );
    this.gate = new DestinationGate(() => this.clock.now().getTime());
  }

  /** Sweeps for due rows every NOTIFICATION_SWEEP_MS: retries, and rows another instance left (outbox-sweep.ts). */
  start(): void {
    this.sweep.start();
  }

  /** Sends what is due now, at once (after a write here), without waiting for the sweep. */
  nudge(): void {
    this.sweep.nudge();
  }

  /** Sends everything due now, and resolves once nothing due is left (tests; the shutdown). */
  drain(): Promise<void> {
    return this.sweep.drain();
  }

  /** Stops sweeping and waits for the sends under way. */
  stop(): Promise<void> {
    return this.sweep.stop();
  }

  /** One batch: claims what is due, sends each through its destination's lane, and returns how many it claimed. */
  async turn(): Promise<number> {
    const now = this.clock.now();
    const until = new Date(now.getTime() + NOTIFICATION_CLAIM_MS);
    const claimed = await this.store.claimNotifications(this.instance, now, until, NOTIFICATION_BATCH_SIZE);
    if (claimed.length === 0) return 0;
    const subjects = await this.store.notificationSubjects(claimed);
    await Promise.all(claimed.map((event) => this.gate.run(event.uri, () => this.deliver(event, subjects, until))));
    return claimed.length;
  }

  private async deliver(
    event: NotificationEvent,
    subjects: Map<string, NotificationSubjectFacts>,
    claimedUntil: Date,
  ): Promise<void> {
    const startedAt = this.clock.now();
    // An event that waited in a slow destination's lane until its claim would lapse before its try
    // ends is not sent: another instance may claim it from then on and send it too, at the same time.
    // It stays claimed until then, and goes with the next turn after (this instance's or another's).
    if (startedAt.getTime() + NOTIFICATION_TIMEOUT_MS > claimedUntil.getTime()) return;
    const body = JSON.stringify(notificationBody({ ...event, ...notifiedResources(event, subjects) }));
    const result = await this.sendSigned(event, body, startedAt);
    const at = this.clock.now();
    const attempt = { startedAt, ...result };
    if (result.status !== undefined && result.status >= 200 && result.status < 300) {
      await this.store.endNotification(event.seq, this.instance, 'delivered', attempt, at);
      this.faults.recovered();
      this.onDelivered(event, at.getTime() - Date.parse(event.createdAt));
      return;
    }
    if (result.status === 410) {
      await this.store.endNotification(event.seq, this.instance, 'gone', attempt, at);
      return;
    }
    const next = new Date(at.getTime() + retryDelayMs(event.attempts));
    if (next.getTime() - Date.parse(event.createdAt) > NOTIFICATION_RETRY_WINDOW_MS)
      await this.store.endNotification(event.seq, this.instance, 'expired', attempt, at);
    else await this.store.deferNotification(event.seq, this.instance, next, attempt);
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

/** How long after its `attempts`-th failure an event is tried again: from NOTIFICATION_RETRY_BASE_MS up to NOTIFICATION_RETRY_MAX_MS. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  return backoffMs(attempts, NOTIFICATION_RETRY_BASE_MS, NOTIFICATION_RETRY_MAX_MS, random);
}
