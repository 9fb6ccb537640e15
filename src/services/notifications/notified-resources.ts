import type { NotifiedResource } from '../../domain/notifications/notification-body.js';
import type { NotificationEvent, NotificationSubjectFacts } from '../../store/notification-records.js';
import { paymentLinks } from '../payment-links.js';

/**
 * The resources an event names, with the addresses a TPP reads their status at: a payment's, a
 * signing basket's, an authorisation's under its payment, cancellation or basket. A consent of the
 * platform has no address of its own to read (the TPP reads with psu-id and tpp-session-id), nor has
 * an authorisation of one: those go without `href`.
 */
export function notifiedResources(
  event: NotificationEvent,
  subjects: Map<string, NotificationSubjectFacts>,
): { resource: NotifiedResource; subject: NotifiedResource } {
  return {
    resource: resourceOf(event.resource.kind, event.resource.id, subjects),
    subject: resourceOf(event.subject.kind, event.subject.id, subjects),
  };
}

function resourceOf(kind: string, id: string, subjects: Map<string, NotificationSubjectFacts>): NotifiedResource {
  const facts = subjects.get(`${kind} ${id}`) ?? {};
  switch (kind) {
    case 'payment':
      return withHref('payment', id, paymentHref(facts, id));
    case 'basket':
      return withHref('signing-basket', id, basketHref(id));
    case 'consent':
      return { type: 'consent', id };
    case 'execution':
      return { type: 'execution', id };
    default:
      return withHref('authorisation', id, authorisationHref(facts, id));
  }
}

function withHref(type: NotifiedResource['type'], id: string, href: string | undefined): NotifiedResource {
  return href === undefined ? { type, id } : { type, id, href };
}

function paymentHref(facts: NotificationSubjectFacts, id: string): string | undefined {
  if (facts.paymentService === undefined || facts.paymentProduct === undefined) return undefined;
  return paymentLinks(facts.paymentService, facts.paymentProduct, id).self;
}

function basketHref(id: string): string {
  return `/v1/signing-baskets/${encodeURIComponent(id)}`;
}

function authorisationHref(facts: NotificationSubjectFacts, id: string): string | undefined {
  const objectId = facts.objectId;
  if (objectId === undefined) return undefined;
  const encoded = encodeURIComponent(id);
  if (facts.authorisationKind === 'basket') return `${basketHref(objectId)}/authorisations/${encoded}`;
  if (facts.paymentService === undefined || facts.paymentProduct === undefined) return undefined;
  const links = paymentLinks(facts.paymentService, facts.paymentProduct, objectId);
  if (facts.authorisationKind === 'cancellation') return `${links.cancellationAuthorisations}/${encoded}`;
  if (facts.authorisationKind === 'payment') return `${links.authorisations}/${encoded}`;
  return undefined;
}
