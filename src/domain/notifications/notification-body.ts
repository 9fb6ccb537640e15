import type { Json } from '../json.js';

/** A resource a notification names: its type, id, and the address a TPP reads it at, when it has one. */
export interface NotifiedResource {
  /** An execution is a standing order's, named `{paymentId}/{seq}` (its number among the order's executions). */
  type: 'payment' | 'signing-basket' | 'consent' | 'authorisation' | 'execution';
  id: string;
  href?: string;
}

/** What one notification tells (docs/notifications.md, "What is sent"). */
export interface NotificationFacts {
  eventId: string;
  content: 'SCA' | 'PROCESS' | 'LAST';
  occurredAt: string;
  /** The resource the TPP subscribed on. */
  resource: NotifiedResource;
  /** The resource whose status changed: the same, or an authorisation of it. */
  subject: NotifiedResource;
  statusKind: 'transactionStatus' | 'scaStatus' | 'consentStatus';
  /** As the subject's row holds it; said in Berlin Group's words by `toldStatus`. */
  status: string;
  last: boolean;
}

/**
 * The status as the TPP reads it elsewhere: an authorisation left until it expired is Berlin
 * Group's failed (domain/sca.ts, scaStatusOf); every other stored status is its own word.
 */
export function toldStatus(statusKind: NotificationFacts['statusKind'], status: string): string {
  return statusKind === 'scaStatus' && status === 'expired' ? 'failed' : status;
}

/**
 * The JSON body of a notification: the event's id (the TPP drops a second delivery of one), what it
 * is about, and the new status under the name the TPP reads it by (transactionStatus, scaStatus,
 * consentStatus), as the status answers of the interface give it.
 */
export function notificationBody(facts: NotificationFacts): Json {
  return {
    eventId: facts.eventId,
    eventType: facts.content,
    occurredAt: facts.occurredAt,
    resource: resourceJson(facts.resource),
    ...(sameResource(facts.resource, facts.subject) ? {} : { subject: resourceJson(facts.subject) }),
    [facts.statusKind]: toldStatus(facts.statusKind, facts.status),
    last: facts.last,
  };
}

function sameResource(a: NotifiedResource, b: NotifiedResource): boolean {
  return a.type === b.type && a.id === b.id;
}

function resourceJson(resource: NotifiedResource): Json {
  return { type: resource.type, id: resource.id, ...(resource.href === undefined ? {} : { href: resource.href }) };
}
