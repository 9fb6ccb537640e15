import { link } from './operation-example.js';
import { SCA_PAGE, SCA_TOKENS } from './example-values.js';

/** The parts every payment product's examples share: the answer of a create and the links of a payment. */

/** The answer of a create: received, its fee, and the links to read it, its status and the PSU's SCA. */
export function paymentCreated(
  resource: string,
  psuMessage: string,
  fee: { amount: string; indicator: boolean },
): Record<string, unknown> {
  return {
    paymentId: resource.slice(resource.lastIndexOf('/') + 1),
    transactionStatus: 'RCVD',
    transactionFees: { amount: fee.amount, currency: 'NOK' },
    transactionFeeIndicator: fee.indicator,
    psuMessage,
    _links: {
      self: link(resource, 'GET', 'DELETE'),
      status: link(`${resource}/status`, 'GET'),
      scaRedirect: link(`${SCA_PAGE}/${SCA_TOKENS.payment}`, 'GET'),
    },
  };
}

/** The links of a payment not yet authorised: read (and cancel), status, and the start of its authorisation. */
export function unauthorisedLinks(resource: string): Record<string, unknown> {
  return {
    self: link(resource, 'GET', 'DELETE'),
    status: link(`${resource}/status`, 'GET'),
    startAuthorisation: link(`${resource}/authorisations`, 'POST'),
  };
}

/** A payment's resource: its product's path and its id. */
export function paymentResource(productPath: string, id: string): string {
  return `${productPath}/${id}`;
}
