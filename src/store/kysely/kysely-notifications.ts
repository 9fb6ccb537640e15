import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type {
  NotificationEvent,
  NotificationLogEntry,
  NotificationOutcome,
  NotificationSubjectFacts,
} from '../notification-records.js';
import type { NotificationStore } from '../notification-store.js';
import * as outbox from '../queries/notification-outbox-queries.js';
import { findSubscription } from '../queries/notification-subscription-queries.js';
import type { ResourceRef, StoredSubscription } from '../tpp-request-records.js';

/** The notifications' part of the Kysely store: the same queries on either dialect. */
export class KyselyNotifications implements NotificationStore {
  constructor(private readonly db: Kysely<Database>) {}

  findNotificationSubscription(resource: ResourceRef): Promise<StoredSubscription | undefined> {
    return findSubscription(this.db, resource);
  }

  claimNotifications(instance: string, now: Date, until: Date, limit: number): Promise<NotificationEvent[]> {
    return outbox.claimNotifications(this.db, instance, now, until, limit);
  }

  notificationSubjects(events: readonly NotificationEvent[]): Promise<Map<string, NotificationSubjectFacts>> {
    return outbox.notificationSubjects(this.db, events);
  }

  closeNotifications(instance: string, outcomes: readonly NotificationOutcome[], at: Date): Promise<void> {
    return outbox.closeNotifications(this.db, instance, outcomes, at);
  }

  listNotifications(tppId: string, limit: number): Promise<NotificationLogEntry[]> {
    return outbox.listNotifications(this.db, tppId, limit);
  }

  resendNotification(tppId: string, eventId: string): Promise<boolean> {
    return outbox.resendNotification(this.db, tppId, eventId);
  }

  publishNotificationKey(kid: string, jwk: string, at: Date): Promise<void> {
    return outbox.publishNotificationKey(this.db, kid, jwk, at);
  }

  notificationKeys(): Promise<string[]> {
    return outbox.notificationKeys(this.db);
  }

  countPendingNotifications(): Promise<number> {
    return outbox.countPendingNotifications(this.db);
  }
}
