import { type OperationExample, type OperationExamples, link } from './operation-example.js';
import { IDS, SCA_PAGE, SCA_TOKENS } from './example-values.js';
import { paymentResource } from './payment-example-parts.js';

/**
 * The operations every payment service shares under /{product}/{paymentId} (operation-ids.ts,
 * serviceOperations): status, cancellation, and the authorisation and cancellation-authorisation
 * sub-resources, shown on one payment of each service after its PSU approved it.
 */

interface ServicePayment {
  /** The word of the service in its operationIds: '' (payments), 'Bulk', 'Periodic'. */
  kind: '' | 'Bulk' | 'Periodic';
  resource: string;
  what: string;
}

const SERVICES: readonly ServicePayment[] = [
  {
    kind: '',
    resource: paymentResource('/v1/payments/norwegian-domestic-credit-transfers', IDS.domesticPayment),
    what: 'the bill payment',
  },
  {
    kind: 'Bulk',
    resource: paymentResource('/v1/bulk-payments/norwegian-domestic-credit-transfers', IDS.bulkPayment),
    what: 'the bulk payment',
  },
  {
    kind: 'Periodic',
    resource: paymentResource('/v1/periodic-payments/norwegian-domestic-credit-transfers', IDS.periodicPayment),
    what: 'the standing order',
  },
];

/** The links of a payment its PSU authorised: read and status; no more cancelling without a cancellation SCA. */
function authorisedLinks(resource: string) {
  return { self: link(resource, 'GET'), status: link(`${resource}/status`, 'GET') };
}

function authorisationStarted(list: string, authorisationId: string, token: string): OperationExample['answer'] {
  return {
    status: 201,
    body: {
      scaStatus: 'started',
      authorisationId,
      _links: {
        scaRedirect: link(`${SCA_PAGE}/${token}`, 'GET'),
        scaStatus: link(`${list}/${authorisationId}`, 'GET'),
      },
    },
  };
}

function serviceExamples({ kind, resource, what }: ServicePayment): Record<string, OperationExample> {
  const payment = `${kind}Payment`;
  const authorisations = `${resource}/authorisations`;
  const cancellations = `${resource}/cancellation-authorisations`;
  return {
    [`get${payment}InitiationStatus`]: {
      summary: `The status of ${what} once its PSU approved it: accepted, waiting for the batch run`,
      answer: {
        status: 200,
        body: {
          paymentId: resource.slice(resource.lastIndexOf('/') + 1),
          transactionStatus: 'ACTC',
          _links: authorisedLinks(resource),
        },
      },
    },
    [`cancel${payment}`]: {
      summary: `Cancelling ${what} after its SCA: the PSU must approve the cancellation too (202)`,
      answer: {
        status: 202,
        body: {
          transactionStatus: 'ACTC',
          _links: { ...authorisedLinks(resource), startAuthorisation: link(cancellations, 'POST') },
        },
      },
    },
    [`start${payment}Authorisation`]: {
      summary: `A new authorisation of ${what}, with the link the PSU follows to approve it`,
      answer: authorisationStarted(authorisations, IDS.authorisation, SCA_TOKENS.authorisation),
    },
    [`get${payment}InitiationAuthorisation`]: {
      summary: `The authorisations of ${what}: the one its create started and one started later`,
      answer: { status: 200, body: { authorisationIds: [IDS.earlierAuthorisation, IDS.authorisation] } },
    },
    [`get${payment}InitiationScaStatus`]: {
      summary: 'The PSU approved: the SCA is finalised',
      answer: { status: 200, body: { scaStatus: 'finalised' } },
    },
    [`start${payment}InitiationCancellationAuthorisation`]: {
      summary: `The SCA that cancels ${what}, with the link the PSU follows to approve the cancellation`,
      answer: authorisationStarted(cancellations, IDS.cancellationAuthorisation, SCA_TOKENS.cancellation),
    },
    [`get${payment}InitiationCancellationAuthorisationInformation`]: {
      summary: `The cancellation authorisations of ${what}`,
      answer: { status: 200, body: { authorisationIds: [IDS.cancellationAuthorisation] } },
    },
    [`get${payment}CancellationScaStatus`]: {
      summary: 'The cancellation waits for the PSU on the SCA page',
      answer: { status: 200, body: { scaStatus: 'started' } },
    },
  };
}

export const paymentServiceExamples: OperationExamples = Object.assign({}, ...SERVICES.map(serviceExamples));
