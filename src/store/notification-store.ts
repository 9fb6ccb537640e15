import type { ResourceRef, StoredSubscription } from './tpp-request-records.js';

/**
 * The notification subscriptions creates stored with their resources (docs/notifications.md): the
 * delivery reads a resource's when its status changes. A create writes its subscription itself, in
 * its own transaction (TppRequestRecord.subscription).
 */
export interface NotificationStore {
  /** The resource's subscription, when the request that created it gave one the bank accepted. */
  findNotificationSubscription(resource: ResourceRef): Promise<StoredSubscription | undefined>;
}
