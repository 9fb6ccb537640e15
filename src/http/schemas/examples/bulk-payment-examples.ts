import type { OperationExamples } from './operation-example.js';
import { HOUSING_COOPERATIVE, IDS, MUNICIPALITY, OLA_CURRENT, PROPERTY_TAX_KID } from './example-values.js';
import { paymentCreated, paymentResource, unauthorisedLinks } from './payment-example-parts.js';

/** A bulk of domestic payments from one account: Ola Nordmann's rent and property tax, approved once. */

const BULK = paymentResource('/v1/bulk-payments/norwegian-domestic-credit-transfers', IDS.bulkPayment);

const bulkPayment = {
  paymentInformationId: 'FAKTURAER-2026-11',
  debtorAccount: { bban: OLA_CURRENT.bban, currency: 'NOK' },
  payments: [
    {
      instructedAmount: { amount: '8500.00', currency: 'NOK' },
      creditorName: HOUSING_COOPERATIVE.name,
      creditorAccount: { bban: HOUSING_COOPERATIVE.bban, currency: 'NOK' },
      creditorAddress: {
        street: 'Fjellveien',
        buildingNumber: '12',
        postalCode: '5019',
        city: 'Bergen',
        country: 'NO',
      },
      remittanceInformationUnstructured: 'Husleie desember',
    },
    {
      instructedAmount: { amount: '2145.00', currency: 'NOK' },
      creditorName: MUNICIPALITY.name,
      creditorAccount: { bban: MUNICIPALITY.bban, currency: 'NOK' },
      creditorAddress: { street: 'Rådhusgata', buildingNumber: '1', postalCode: '5014', city: 'Bergen', country: 'NO' },
      remittanceInformationStructured: { reference: PROPERTY_TAX_KID, referenceType: 'SCOR' },
    },
  ],
};

export const bulkPaymentExamples: OperationExamples = {
  initiateBulkPaymentNorwegianDomesticCreditTransfers: {
    summary: 'Ola Nordmann pays his rent and property tax in one bulk',
    request: bulkPayment,
    answer: {
      status: 201,
      body: paymentCreated(
        BULK,
        'Your bulk payment of 2 payments, NOK 10645.00 in all, is received. Approve it in your bank to send it.',
        { amount: '0.00', indicator: false },
      ),
    },
  },
  getBulkPaymentInformationNorwegianDomesticCreditTransfers: {
    summary: 'The bulk payment, received and waiting for the PSU’s SCA',
    answer: {
      status: 200,
      body: { paymentId: IDS.bulkPayment, transactionStatus: 'RCVD', ...bulkPayment, _links: unauthorisedLinks(BULK) },
    },
  },
};
