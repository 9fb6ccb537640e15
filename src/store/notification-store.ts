import type {
  NotificationEvent,
  NotificationLogEntry,
  NotificationOutcome,
  NotificationSubjectFacts,
} from './notification-records.js';
import type { ResourceRef, StoredSubscription } from './tpp-request-records.js';

/**
 * The notification subscriptions creates stored with their resources, and the outbox of what is to
 * be sent (docs/notifications.md). A create writes its subscription itself, in its own transaction
 * (TppRequestRecord.subscription); a status change writes its events by the database's triggers, in
 * the transaction that changes it (migration 027).
 */
export interface NotificationStore {
  /** The resource's subscription, when the request that created it gave one the bank accepted. */
  findNotificationSubscription(resource: ResourceRef): Promise<StoredSubscription | undefined>;
  /**
   * Claims for `instance` until `until` the events due at `now`, at most `limit`, in outbox order:
   * each the first not ended of its resource (so a resource's events go out one after the other, in
   * order), not claimed by another instance whose claim still holds.
   */
  claimNotifications(instance: string, now: Date, until: Date, limit: number): Promise<NotificationEvent[]>;
  /** What the bodies' links need of the events' subjects, by `${kind} ${id}`. */
  notificationSubjects(events: readonly NotificationEvent[]): Promise<Map<string, NotificationSubjectFacts>>;
  /**
   * Closes tries of claimed events, in one transaction: each ended (delivered, gone: the subscription
   * is removed and the resource's other events end too, or expired) or deferred to its next attempt,
   * its try logged. A try whose claim is no longer `instance`'s is not written.
   */
  closeNotifications(instance: string, outcomes: readonly NotificationOutcome[], at: Date): Promise<void>;
  /** A TPP's events, newest first, with their tries (the sandbox console). */
  listNotifications(tppId: string, limit: number): Promise<NotificationLogEntry[]>;
  /** Sends a TPP's event again, at once, with its event id (the console's button); false when it has no such event. */
  resendNotification(tppId: string, eventId: string): Promise<boolean>;
  /** Publishes a public key notifications are signed with (a JWK, by its kid); one published already stays as it is. */
  publishNotificationKey(kid: string, jwk: string, at: Date): Promise<void>;
  /** Every public key notifications are signed with, as JWKs, oldest first. */
  notificationKeys(): Promise<string[]>;
  /** Events not yet ended (tests; the metrics). */
  countPendingNotifications(): Promise<number>;
}
