import {
  BBAN_MAX_LENGTH,
  END_TO_END_IDENTIFICATION_MAX_LENGTH,
  FORMATTED_TEXT_MAX_LENGTH,
  IBAN_MAX_LENGTH,
  MAX_STRUCTURED_REMITTANCE_ENTRIES,
} from '../../domain/limits.js';
import { crossBorderBodySchema, name, paymentReadSchema, remittanceUnstructured } from './payment-schemas.js';

/**
 * The bodies of the single payments the platform offers beside the specification's cross-border
 * product: the domestic credit transfer (NDCT) and Straks, SEPA and the general cross-border
 * product, as the platform's portal samples them (docs/decisions/0212). Rules a schema
 * cannot state are in src/domain/payments/ (domestic-payment.ts, sepa-payment.ts,
 * general-cross-border-payment.ts).
 */
const executionDate = {
  type: 'string',
  maxLength: FORMATTED_TEXT_MAX_LENGTH,
  format: 'date',
  description: 'ISO 8601 date; from today (Norwegian time) to 365 days ahead',
} as const;

/** Release 1.21.18: endToEndIdentification for additional payment types (docs/decisions/0221). */
const endToEndIdentification = {
  type: 'string',
  minLength: 1,
  maxLength: END_TO_END_IDENTIFICATION_MAX_LENGTH,
  description: "The TPP's end-to-end reference, passed on to the creditor unchanged; at most 35 characters",
} as const;

const creditorAgent = {
  type: 'string',
  minLength: 8,
  maxLength: 11,
  description: "BIC of the creditor's bank",
  example: 'DEUTDEFFXXX',
} as const;

export const domesticPaymentSchema = {
  $id: 'DomesticCreditTransfer',
  type: 'object',
  additionalProperties: false,
  required: ['instructedAmount', 'creditorName', 'creditorAccount', 'debtorAccount'],
  description:
    'A domestic credit transfer in NOK between Norwegian accounts (bban with MOD11, or a Norwegian iban). A KID in remittanceInformationStructuredArray (or the single remittanceInformationStructured, to be deprecated) or a message in remittanceInformationUnstructured, never both.',
  properties: {
    instructedAmount: { $ref: 'Amount#' },
    creditorName: name('At most 70 characters'),
    creditorAccount: { $ref: 'CrossBorderAccountReference#' },
    creditorAddress: { $ref: 'Address#' },
    debtorAccount: { $ref: 'CrossBorderAccountReference#' },
    ultimateDebtor: name('At most 70 characters'),
    endToEndIdentification,
    remittanceInformationUnstructured: remittanceUnstructured,
    remittanceInformationStructured: { $ref: 'RemittanceInformationStructured#' },
    remittanceInformationStructuredArray: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_STRUCTURED_REMITTANCE_ENTRIES,
      items: { $ref: 'RemittanceInformationStructured#' },
      description: 'Replaces remittanceInformationStructured, which is to be deprecated',
    },
    purposeCode: { $ref: 'PurposeCode#' },
    requestedExecutionDate: executionDate,
  },
} as const;

const sepaCreditorAccountSchema = {
  $id: 'SepaCreditorAccountReference',
  type: 'object',
  additionalProperties: false,
  required: ['iban', 'currency'],
  description: 'The creditor account by its IBAN, of a country of the SEPA schemes',
  properties: {
    iban: { type: 'string', minLength: 1, maxLength: IBAN_MAX_LENGTH },
    bban: { type: 'string', minLength: 1, maxLength: BBAN_MAX_LENGTH },
    currency: { $ref: 'Currency#' },
  },
} as const;

export const sepaPaymentSchema = {
  $id: 'SepaCreditTransfer',
  type: 'object',
  additionalProperties: false,
  required: ['instructedAmount', 'creditorName', 'creditorAccount', 'debtorAccount'],
  description:
    'A euro credit transfer to an IBAN of a SEPA country, debited from a NOK or EUR account of this bank at the reference rates',
  properties: {
    instructedAmount: { $ref: 'Amount#' },
    creditorName: name('At most 70 characters'),
    creditorAgent: { ...creditorAgent, description: "BIC of the creditor's bank; optional, checked when given" },
    creditorAccount: { $ref: 'SepaCreditorAccountReference#' },
    creditorAddress: { $ref: 'Address#' },
    debtorAccount: { $ref: 'CrossBorderAccountReference#' },
    ultimateDebtor: name('At most 70 characters'),
    endToEndIdentification,
    remittanceInformationUnstructured: remittanceUnstructured,
    purposeCode: { $ref: 'PurposeCode#' },
    requestedExecutionDate: executionDate,
  },
} as const;

/** The general cross-border product: the specification's cross-border body without regulatory reporting. */
const generalProperties = Object.fromEntries(
  Object.entries(crossBorderBodySchema.properties).filter(([field]) => !field.startsWith('regulatoryReporting')),
);

export const generalCrossBorderPaymentSchema = {
  $id: 'GeneralCrossBorderCreditTransfer',
  type: 'object',
  additionalProperties: false,
  required: crossBorderBodySchema.required,
  description:
    'A cross-border credit transfer under NOK 100 000 (at the reference rates), without regulatory reporting; from NOK 100 000 use norwegian-cross-border-credit-transfers',
  properties: generalProperties,
} as const;

export const singlePaymentSchemas = [
  domesticPaymentSchema,
  sepaCreditorAccountSchema,
  sepaPaymentSchema,
  generalCrossBorderPaymentSchema,
  paymentReadSchema('DomesticCreditTransferRead', domesticPaymentSchema),
  paymentReadSchema('SepaCreditTransferRead', sepaPaymentSchema),
  paymentReadSchema('GeneralCrossBorderCreditTransferRead', generalCrossBorderPaymentSchema),
];
