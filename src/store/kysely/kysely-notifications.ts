import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { NotificationStore } from '../notification-store.js';
import { findSubscription } from '../queries/notification-subscription-queries.js';
import type { ResourceRef, StoredSubscription } from '../tpp-request-records.js';

/** The notification subscriptions' part of the Kysely store: the same query on either dialect. */
export class KyselyNotifications implements NotificationStore {
  constructor(private readonly db: Kysely<Database>) {}

  findNotificationSubscription(resource: ResourceRef): Promise<StoredSubscription | undefined> {
    return findSubscription(this.db, resource);
  }
}
