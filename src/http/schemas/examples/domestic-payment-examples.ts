import type { OperationExamples } from './operation-example.js';
import { IDS, KARI, KARI_CURRENT, OLA_CURRENT, POWER_BILL_KID, POWER_COMPANY } from './example-values.js';
import { paymentCreated, paymentResource, unauthorisedLinks } from './payment-example-parts.js';

/** Norwegian domestic credit transfers and Straks (instant): Ola Nordmann pays a bill with KID, and Kari. */

const DOMESTIC = paymentResource('/v1/payments/norwegian-domestic-credit-transfers', IDS.domesticPayment);
const STRAKS = paymentResource('/v1/payments/instant-norwegian-domestic-credit-transfers-straks', IDS.straksPayment);

const billPayment = {
  instructedAmount: { amount: '1489.00', currency: 'NOK' },
  creditorName: POWER_COMPANY.name,
  creditorAccount: { bban: POWER_COMPANY.bban, currency: 'NOK' },
  debtorAccount: { bban: OLA_CURRENT.bban, currency: 'NOK' },
  remittanceInformationStructured: { reference: POWER_BILL_KID, referenceType: 'SCOR' },
};

const instantPayment = {
  instructedAmount: { amount: '890.00', currency: 'NOK' },
  creditorName: KARI.name,
  creditorAccount: { bban: KARI_CURRENT.bban, currency: 'NOK' },
  debtorAccount: { bban: OLA_CURRENT.bban, currency: 'NOK' },
  remittanceInformationUnstructured: 'Konsertbilletter',
};

export const domesticPaymentExamples: OperationExamples = {
  initiatePaymentNorwegianDomesticCreditTransfers: {
    summary: 'Ola Nordmann pays his electricity bill with its KID',
    request: billPayment,
    answer: {
      status: 201,
      body: paymentCreated(
        DOMESTIC,
        `Your payment of NOK 1489.00 to ${POWER_COMPANY.name} is received. Approve it in your bank to send it.`,
        { amount: '0.00', indicator: true },
      ),
    },
  },
  getPaymentInformationNorwegianDomesticCreditTransfers: {
    summary: 'The bill payment, received and waiting for the PSU’s SCA',
    answer: {
      status: 200,
      body: {
        paymentId: IDS.domesticPayment,
        transactionStatus: 'RCVD',
        ...billPayment,
        _links: unauthorisedLinks(DOMESTIC),
      },
    },
  },
  initiatePaymentInstantNorwegianDomesticCreditTransfersStraks: {
    summary: 'Ola Nordmann sends Kari Nordmann NOK 890.00 at once (Straks)',
    request: instantPayment,
    answer: {
      status: 201,
      body: paymentCreated(
        STRAKS,
        `Your payment of NOK 890.00 to ${KARI.name} is received. Approve it in your bank to send it.`,
        { amount: '10.00', indicator: true },
      ),
    },
  },
  getPaymentInformationInstantNorwegianDomesticCreditTransfersStraks: {
    summary: 'The instant payment, received and waiting for the PSU’s SCA',
    answer: {
      status: 200,
      body: {
        paymentId: IDS.straksPayment,
        transactionStatus: 'RCVD',
        ...instantPayment,
        _links: unauthorisedLinks(STRAKS),
      },
    },
  },
};
