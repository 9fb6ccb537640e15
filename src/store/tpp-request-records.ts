import type { NotificationContent } from '../domain/notifications/notification-content.js';

/** The kinds of resource a TPP subscribes to notifications of (docs/notifications.md). */
export type SubscribedResourceKind = 'payment' | 'basket' | 'consent' | 'authorisation';

/** A resource a create made: what its notification subscription is stored under. */
export interface ResourceRef {
  kind: SubscribedResourceKind;
  /** paymentId, basketId, the consent's id, authorisationId. */
  id: string;
}

/** A subscription as a create gives it to the store, to write with the resource. */
export interface NewSubscription {
  resource: ResourceRef;
  uri: string;
  content: readonly NotificationContent[];
}

/** A TPP request that created something, kept so a retry with the same X-Request-ID gets the same answer. */
export interface TppRequestRecord {
  tppId: string;
  requestId: string;
  /** Method and path, e.g. `POST /v1/payments/norwegian-cross-border-credit-transfers`. */
  operation: string;
  bodySha256: string;
  responseStatus: number;
  responseBody: string;
  /** The answer's own headers (ASPSP-Notification-Support, -Content), JSON of an object; undefined when it has none. */
  responseHeaders?: string | undefined;
  /** The resource's notification subscription, written in the transaction that writes this record and the resource. */
  subscription?: NewSubscription | undefined;
}

export interface StoredTppRequest {
  operation: string;
  bodySha256: string;
  responseStatus: number;
  responseBody: string;
  /** As TppRequestRecord.responseHeaders: undefined for an answer without headers of its own (and every one stored before migration 026). */
  responseHeaders: string | undefined;
}

/** A resource's subscription as stored: what the bank sends where, for whom. */
export interface StoredSubscription {
  resource: ResourceRef;
  tppId: string;
  uri: string;
  content: NotificationContent[];
  createdAt: string;
}
