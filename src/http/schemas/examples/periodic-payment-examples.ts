import { type OperationExamples, link } from './operation-example.js';
import { HOUSING_COOPERATIVE, IDS, OLA_CURRENT } from './example-values.js';
import { paymentCreated, paymentResource, unauthorisedLinks } from './payment-example-parts.js';

/**
 * A standing order (periodic payment): Ola Nordmann's rent on the 20th of every month, on the bank day
 * after when the 20th is not one. Its startDate must be from today to a year ahead: "Try it out"
 * after 1 January 2027 needs a later one (docs/decisions/0276).
 */

const PERIODIC = paymentResource('/v1/periodic-payments/norwegian-domestic-credit-transfers', IDS.periodicPayment);

const standingOrder = {
  instructedAmount: { amount: '8500.00', currency: 'NOK' },
  creditorName: HOUSING_COOPERATIVE.name,
  creditorAccount: { bban: HOUSING_COOPERATIVE.bban, currency: 'NOK' },
  debtorAccount: { bban: OLA_CURRENT.bban, currency: 'NOK' },
  remittanceInformationUnstructured: 'Husleie',
  startDate: '2027-01-01',
  frequency: 'Monthly',
  executionRule: 'following',
  dayOfExecution: '20',
};

/** The links of an authorised order: read it and its status (ending it takes a cancellation SCA). */
const runningLinks = {
  self: link(PERIODIC, 'GET'),
  status: link(`${PERIODIC}/status`, 'GET'),
};

export const periodicPaymentExamples: OperationExamples = {
  initiatePeriodicPaymentNorwegianDomesticCreditTransfers: {
    summary: 'Ola Nordmann sets up his monthly rent of NOK 8 500.00 from January',
    request: standingOrder,
    answer: {
      status: 201,
      body: paymentCreated(
        PERIODIC,
        `Your standing order of NOK 8500.00 to ${HOUSING_COOPERATIVE.name}, first on 2027-01-20, is received. Approve it in your bank to start it.`,
        { amount: '0.00', indicator: true },
      ),
    },
  },
  getPeriodicPaymentInformationNorwegianDomesticCreditTransfers: {
    summary: 'The standing order, received and waiting for the PSU’s SCA: no execution yet',
    answer: {
      status: 200,
      body: {
        paymentId: IDS.periodicPayment,
        transactionStatus: 'RCVD',
        ...standingOrder,
        executions: [],
        _links: unauthorisedLinks(PERIODIC),
      },
    },
  },
  getPeriodicPaymentInitiationStatusNorwegianDomesticCreditTransfers: {
    summary: 'The standing order running after its first execution, on Wednesday 20 January 2027',
    answer: {
      status: 200,
      body: {
        paymentId: IDS.periodicPayment,
        transactionStatus: 'ACTC',
        nextExecutionDate: '2027-02-22',
        executions: [{ executionDate: '2027-01-20', transactionStatus: 'ACSC' }],
        _links: runningLinks,
      },
    },
  },
};
