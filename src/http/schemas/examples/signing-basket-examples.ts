import { type OperationExamples, link } from './operation-example.js';
import { IDS, SCA_PAGE, SCA_TOKENS } from './example-values.js';

/** A signing basket: Ola Nordmann approves his bill payment and his payment to France with one SCA. */

const BASKET = `/v1/signing-baskets/${IDS.basket}`;
const PAYMENT_IDS = [IDS.domesticPayment, IDS.sepaPayment];

export const signingBasketExamples: OperationExamples = {
  createSigningBasket: {
    summary: 'Two payments of Ola Nordmann, waiting for their SCA, put in one basket',
    request: { paymentIds: PAYMENT_IDS },
    answer: {
      status: 201,
      body: {
        basketId: IDS.basket,
        transactionStatus: 'RCVD',
        _links: {
          self: link(BASKET, 'GET', 'DELETE'),
          status: link(`${BASKET}/status`, 'GET'),
          scaRedirect: link(`${SCA_PAGE}/${SCA_TOKENS.payment}`, 'GET'),
        },
      },
    },
  },
  getSigningBasket: {
    summary: 'The basket and its payments, waiting for the PSU’s SCA',
    answer: {
      status: 200,
      body: {
        payments: PAYMENT_IDS,
        transactionStatus: 'RCVD',
        _links: { self: link(BASKET, 'GET', 'DELETE'), status: link(`${BASKET}/status`, 'GET') },
      },
    },
  },
  deleteSigningBasket: {
    summary: 'The basket is deleted; its payments stay, each to be authorised on its own',
    answer: { status: 204 },
  },
  getSigningBasketStatus: {
    summary: 'The PSU approved the basket: every payment in it is accepted',
    answer: { status: 200, body: { transactionStatus: 'ACTC' } },
  },
  startSigningBasketAuthorisation: {
    summary: 'A new authorisation of the basket, with the link the PSU follows to approve it',
    answer: {
      status: 201,
      body: {
        scaStatus: 'started',
        authorisationId: IDS.authorisation,
        _links: {
          scaRedirect: link(`${SCA_PAGE}/${SCA_TOKENS.authorisation}`, 'GET'),
          scaStatus: link(`${BASKET}/authorisations/${IDS.authorisation}`, 'GET'),
        },
      },
    },
  },
  getSigningBasketAuthorisation: {
    summary: 'The authorisations of the basket: the one its create started and one started later',
    answer: { status: 200, body: { authorisationIds: [IDS.earlierAuthorisation, IDS.authorisation] } },
  },
  getSigningBasketScaStatus: {
    summary: 'The PSU approved: the SCA is finalised',
    answer: { status: 200, body: { scaStatus: 'finalised' } },
  },
};
