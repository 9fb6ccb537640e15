import type { TransactionStatus } from '../domain/transaction-status.js';

/** The addresses of a payment and of its sub-resources. */
export interface PaymentLinks {
  self: string;
  status: string;
  /** Berlin Group's sub-resources: the payment's authorisations, and its cancellation's. */
  authorisations: string;
  cancellationAuthorisations: string;
}

/** A link of an answer's `_links`. */
export interface Link {
  href: string;
  verbs: ('GET' | 'POST' | 'DELETE')[];
}

export function paymentLinks(service: string, product: string, paymentId: string): PaymentLinks {
  const self = `/v1/${service}/${product}/${encodeURIComponent(paymentId)}`;
  return {
    self,
    status: `${self}/status`,
    authorisations: `${self}/authorisations`,
    cancellationAuthorisations: `${self}/cancellation-authorisations`,
  };
}

/**
 * The `_links` of a payment's create and status answers, as the platform gives them (docs/platform-research.md
 * §3.1, §3.3; docs/decisions/0065): `self`, with DELETE while the DELETE alone
 * cancels it (RCVD), and `status`; while it waits for its SCA, the `scaRedirect` the bank started at
 * once (a create with PSU-Context), or else `startAuthorisation` for the TPP to start one.
 */
export function paymentAnswerLinks(
  service: string,
  product: string,
  paymentId: string,
  status: TransactionStatus,
  scaRedirect?: string,
): Record<string, Link> {
  const links = paymentLinks(service, product, paymentId);
  const waiting = status === 'RCVD';
  return {
    self: { href: links.self, verbs: waiting ? ['GET', 'DELETE'] : ['GET'] },
    status: { href: links.status, verbs: ['GET'] },
    ...(!waiting
      ? {}
      : scaRedirect === undefined
        ? { startAuthorisation: { href: links.authorisations, verbs: ['POST'] } }
        : { scaRedirect: { href: scaRedirect, verbs: ['GET'] } }),
  };
}
