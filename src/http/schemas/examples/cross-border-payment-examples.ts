import type { OperationExamples } from './operation-example.js';
import { IDS, OLA_CURRENT, OLA_SAVINGS } from './example-values.js';
import { paymentCreated, paymentResource, unauthorisedLinks } from './payment-example-parts.js';

/**
 * Payments abroad from Ola Nordmann's accounts: SEPA in euro to France, the general cross-border
 * product in Swedish kronor, and the Norwegian cross-border product with the regulatory reporting
 * Norges Bank asks for above NOK 100 000.
 */

const SEPA = paymentResource('/v1/payments/sepa-credit-transfers', IDS.sepaPayment);
const CROSS_BORDER = paymentResource('/v1/payments/cross-border-credit-transfers', IDS.crossBorderPayment);
const NORWEGIAN_CROSS_BORDER = paymentResource(
  '/v1/payments/norwegian-cross-border-credit-transfers',
  IDS.norwegianCrossBorderPayment,
);

const sepaPayment = {
  instructedAmount: { amount: '420.00', currency: 'EUR' },
  creditorName: 'Atelier Lumière SARL',
  creditorAccount: { iban: 'FR1420041010050500013M02606', currency: 'EUR' },
  debtorAccount: { bban: OLA_CURRENT.bban, currency: 'NOK' },
  endToEndIdentification: 'FAKTURA-2026-1187',
  remittanceInformationUnstructured: 'Facture 2026-1187',
};

const swedishSupplier = {
  creditorName: 'Svenska Leverantör AB',
  creditorAgent: 'ESSESESSXXX',
  creditorAccount: { iban: 'SE4550000000058398257466', currency: 'SEK' },
  creditorAddress: { street: 'Kungsgatan', buildingNumber: '1', postalCode: '11143', city: 'Stockholm', country: 'SE' },
};

const crossBorderPayment = {
  instructedAmount: { amount: '12500.00', currency: 'SEK' },
  ...swedishSupplier,
  debtorAccount: { bban: OLA_CURRENT.bban, currency: 'NOK' },
  remittanceInformationUnstructured: 'Invoice 2026-4471',
  purposeCode: 'SUPP',
};

const norwegianCrossBorderPayment = {
  instructedAmount: { amount: '120000.00', currency: 'NOK' },
  ...swedishSupplier,
  debtorAccount: { bban: OLA_SAVINGS.bban, currency: 'NOK' },
  remittanceInformationUnstructured: 'Invoice 2026-4472',
  regulatoryReportingCode: '14',
  regulatoryReportingInformation: 'Import of goods',
};

const received = (amount: string, creditor: string) =>
  `Your cross-border payment of ${amount} to ${creditor} is received. Approve it in your bank to send it.`;

export const crossBorderPaymentExamples: OperationExamples = {
  initiatePaymentSepaCreditTransfers: {
    summary: 'Ola Nordmann pays a French invoice of EUR 420.00 from his NOK account',
    request: sepaPayment,
    answer: {
      status: 201,
      body: paymentCreated(SEPA, received('EUR 420.00', sepaPayment.creditorName), {
        amount: '40.00',
        indicator: true,
      }),
    },
  },
  getPaymentInformationSepaCreditTransfers: {
    summary: 'The SEPA payment, received and waiting for the PSU’s SCA',
    answer: {
      status: 200,
      body: { paymentId: IDS.sepaPayment, transactionStatus: 'RCVD', ...sepaPayment, _links: unauthorisedLinks(SEPA) },
    },
  },
  initiatePaymentCrossBorderCreditTransfers: {
    summary: 'Ola Nordmann pays a Swedish supplier SEK 12 500.00',
    request: crossBorderPayment,
    answer: {
      status: 201,
      body: paymentCreated(CROSS_BORDER, received('SEK 12500.00', swedishSupplier.creditorName), {
        amount: '81.88',
        indicator: true,
      }),
    },
  },
  getPaymentInformationCrossBorderCreditTransfers: {
    summary: 'The cross-border payment, received and waiting for the PSU’s SCA',
    answer: {
      status: 200,
      body: {
        paymentId: IDS.crossBorderPayment,
        transactionStatus: 'RCVD',
        ...crossBorderPayment,
        _links: unauthorisedLinks(CROSS_BORDER),
      },
    },
  },
  initiatePaymentNorwegianCrossBorderCreditTransfers: {
    summary: 'NOK 120 000.00 to Sweden from a savings account, with the regulatory reporting code',
    request: norwegianCrossBorderPayment,
    answer: {
      status: 201,
      body: paymentCreated(NORWEGIAN_CROSS_BORDER, received('NOK 120000.00', swedishSupplier.creditorName), {
        amount: '100.00',
        indicator: true,
      }),
    },
  },
  getPaymentInformationNorwegianCrossBorderCreditTransfers: {
    summary: 'The Norwegian cross-border payment, received and waiting for the PSU’s SCA',
    answer: {
      status: 200,
      body: {
        paymentId: IDS.norwegianCrossBorderPayment,
        transactionStatus: 'RCVD',
        ...norwegianCrossBorderPayment,
        _links: unauthorisedLinks(NORWEGIAN_CROSS_BORDER),
      },
    },
  },
};
