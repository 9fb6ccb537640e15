import { COUNTRIES } from '../../domain/country.js';
import { CURRENCIES } from '../../domain/currency.js';
import {
  BBAN_MAX_LENGTH,
  BUILDING_NUMBER_MAX_LENGTH,
  CITY_MAX_LENGTH,
  IBAN_MAX_LENGTH,
  MAX_BULK_ENTRIES,
  MAX_STRUCTURED_REMITTANCE_ENTRIES,
  NAME_MAX_LENGTH,
  PAYMENT_INFORMATION_ID_MAX_LENGTH,
  POSTAL_CODE_MAX_LENGTH,
  REGULATORY_REPORTING_INFORMATION_MAX_LENGTH,
  REMITTANCE_UNSTRUCTURED_MAX_LENGTH,
  STREET_MAX_LENGTH,
  STRUCTURED_REMITTANCE_FIELD_MAX_LENGTH,
  TPP_MESSAGE_TEXT_MAX_LENGTH,
  FORMATTED_TEXT_MAX_LENGTH,
} from '../../domain/limits.js';
import { PURPOSE_CODES, REGULATORY_REPORTING_CODES } from '../../domain/purpose-code.js';
import { TRANSACTION_STATUSES } from '../../domain/transaction-status.js';

/**
 * The specification's field tables as JSON Schema: the one source for request validation, response
 * serialisation and the OpenAPI document. Rules a schema cannot state (amount against currency,
 * check digits, conditional fields) are in src/domain/payments/.
 */
export const currencySchema = {
  $id: 'Currency',
  type: 'string',
  enum: [...CURRENCIES],
  description: "ISO 4217 alphabetic code, one of the specification's list",
  'x-rule-text': "an ISO 4217 currency code of the specification's list",
} as const;

export const countrySchema = {
  $id: 'Country',
  type: 'string',
  maxLength: 2,
  enum: [...COUNTRIES],
  description: "ISO 3166-1 alpha-2 code, one of the specification's list",
  'x-rule-text': "an ISO 3166-1 alpha-2 country code of the specification's list",
} as const;

export const purposeCodeSchema = {
  $id: 'PurposeCode',
  type: 'string',
  enum: [...PURPOSE_CODES],
  description: 'Supported subset of the ISO 20022 external purpose codes',
} as const;

export const transactionStatusSchema = {
  $id: 'TransactionStatus',
  type: 'string',
  enum: [...TRANSACTION_STATUSES],
} as const;

export const amountSchema = {
  $id: 'Amount',
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'currency'],
  properties: {
    amount: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      description:
        "Decimal string, more than zero; precision 18 and scale 5, and no more fraction digits than the currency's ISO 4217 minor units",
      example: '123456.78',
    },
    currency: { $ref: 'Currency#' },
  },
} as const;

export const name = (description: string) =>
  ({ type: 'string', minLength: 1, maxLength: NAME_MAX_LENGTH, description }) as const;

const crossBorderAccountSchema = {
  $id: 'CrossBorderAccountReference',
  type: 'object',
  additionalProperties: false,
  required: ['currency'],
  description: 'An account by bban or iban (one at least; when both, they must agree)',
  properties: {
    bban: { type: 'string', minLength: 1, maxLength: BBAN_MAX_LENGTH },
    iban: { type: 'string', minLength: 1, maxLength: IBAN_MAX_LENGTH },
    currency: { $ref: 'Currency#' },
  },
} as const;

const bbanAccountSchema = {
  $id: 'BbanAccountReference',
  type: 'object',
  additionalProperties: false,
  required: ['bban', 'currency'],
  properties: {
    bban: {
      type: 'string',
      minLength: 1,
      maxLength: BBAN_MAX_LENGTH,
      description: 'Norwegian account number, 11 digits with MOD11 check digit',
    },
    currency: { $ref: 'Currency#' },
  },
} as const;

const addressSchema = {
  $id: 'Address',
  type: 'object',
  additionalProperties: false,
  required: ['country'],
  properties: {
    street: { type: 'string', minLength: 1, maxLength: STREET_MAX_LENGTH },
    buildingNumber: { type: 'string', minLength: 1, maxLength: BUILDING_NUMBER_MAX_LENGTH },
    postalCode: { type: 'string', minLength: 1, maxLength: POSTAL_CODE_MAX_LENGTH },
    city: { type: 'string', minLength: 1, maxLength: CITY_MAX_LENGTH },
    country: { $ref: 'Country#' },
  },
} as const;

export const remittanceUnstructured = {
  type: 'string',
  minLength: 1,
  maxLength: REMITTANCE_UNSTRUCTURED_MAX_LENGTH,
  description: 'Payment message, 1 to 140 characters; ASCII and UTF-8; may be truncated or re-encoded in processing',
} as const;

const structuredField = { type: 'string', minLength: 1, maxLength: STRUCTURED_REMITTANCE_FIELD_MAX_LENGTH } as const;

export const structuredRemittanceSchema = {
  $id: 'RemittanceInformationStructured',
  type: 'object',
  additionalProperties: false,
  required: ['reference'],
  'x-required-code': 'KID_MISSING',
  description:
    'A structured reference; with referenceType SCOR (or none) the reference is a KID/OCR number, checked by MOD10 or MOD11',
  properties: {
    reference: { ...structuredField, example: '2345676' },
    referenceType: { ...structuredField, example: 'SCOR' },
    referenceIssuer: structuredField,
  },
} as const;

export const crossBorderBodySchema = {
  $id: 'CrossBorderCreditTransfer',
  type: 'object',
  additionalProperties: false,
  required: ['instructedAmount', 'creditorName', 'creditorAccount', 'debtorAccount'],
  properties: {
    instructedAmount: { $ref: 'Amount#' },
    creditorName: name('Creditor name, at most 70 characters'),
    creditorAgent: {
      type: 'string',
      minLength: 8,
      maxLength: 11,
      description: "BIC of the creditor's bank; required when creditorAccount uses bban",
      example: 'ESSESESSXXX',
    },
    creditorAccount: { $ref: 'CrossBorderAccountReference#' },
    creditorAddress: { $ref: 'Address#' },
    debtorAccount: { $ref: 'CrossBorderAccountReference#' },
    remittanceInformationUnstructured: remittanceUnstructured,
    purposeCode: { $ref: 'PurposeCode#' },
    requestedExecutionDate: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      format: 'date',
      description: 'ISO 8601 date; from today (Norwegian time) to 365 days ahead',
    },
    regulatoryReportingCode: {
      type: 'string',
      enum: [...REGULATORY_REPORTING_CODES],
      description: 'Required for transfers of NOK 100 000 or more',
    },
    regulatoryReportingInformation: {
      type: 'string',
      minLength: 1,
      maxLength: REGULATORY_REPORTING_INFORMATION_MAX_LENGTH,
      description: 'Free-text purpose; required for transfers of NOK 100 000 or more',
    },
  },
} as const;

export const bulkEntrySchema = {
  $id: 'DomesticBulkEntry',
  type: 'object',
  additionalProperties: false,
  required: ['instructedAmount', 'creditorName', 'creditorAccount', 'creditorAddress'],
  properties: {
    instructedAmount: { $ref: 'Amount#' },
    debtorName: name('At most 70 characters'),
    creditorName: name('At most 70 characters'),
    creditorAccount: { $ref: 'BbanAccountReference#' },
    creditorAddress: { $ref: 'Address#' },
    ultimateDebtor: name('At most 70 characters'),
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
  },
} as const;

export const bulkBodySchema = {
  $id: 'DomesticBulkPayment',
  type: 'object',
  additionalProperties: false,
  required: ['payments', 'debtorAccount'],
  properties: {
    paymentInformationId: {
      type: 'string',
      maxLength: PAYMENT_INFORMATION_ID_MAX_LENGTH,
      description: 'Identifies the bulk payment, assigned by the sender; 0 to 35 characters',
    },
    debtorAccount: { $ref: 'BbanAccountReference#' },
    requestedExecutionDate: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      format: 'date',
      description: 'ISO 8601 date; from today (Norwegian time) to 365 days ahead',
    },
    payments: { type: 'array', minItems: 1, maxItems: MAX_BULK_ENTRIES, items: { $ref: 'DomesticBulkEntry#' } },
  },
} as const;

export const paymentCreatedSchema = {
  $id: 'PaymentInitiationResponse',
  type: 'object',
  required: ['paymentId', 'transactionStatus'],
  properties: {
    paymentId: { type: 'string' },
    transactionStatus: { $ref: 'TransactionStatus#' },
    transactionFees: { $ref: 'Amount#' },
    transactionFeeIndicator: { type: 'boolean' },
    tppMessages: { type: 'array', items: { $ref: 'TppMessage#' } },
    psuMessage: { type: 'string', maxLength: TPP_MESSAGE_TEXT_MAX_LENGTH },
    _links: { $ref: 'Links#' },
  },
} as const;

/**
 * A payment's links as they stand (status and read): `self` (with DELETE while a DELETE alone cancels
 * it) and `status` always; `startAuthorisation` while it waits for its SCA.
 */
const paymentLinksSchema = {
  type: 'object',
  required: ['self', 'status'],
  properties: { self: { $ref: 'Link#' }, status: { $ref: 'Link#' } },
  additionalProperties: { $ref: 'Link#' },
  description: 'self (GET, and DELETE while RCVD), status; startAuthorisation while the payment waits for its SCA',
} as const;

export const paymentStatusSchema = {
  $id: 'PaymentStatusResponse',
  type: 'object',
  required: ['paymentId', 'transactionStatus', '_links'],
  properties: {
    paymentId: { type: 'string', description: "The payment's id, as the platform's status answer repeats it" },
    transactionStatus: { $ref: 'TransactionStatus#' },
    fundsAvailable: {
      type: 'boolean',
      description:
        'Present once the batch run has checked the funds (ACSC, PART, RJCT): whether the account covered the payment',
    },
    psuMessage: { type: 'string', maxLength: TPP_MESSAGE_TEXT_MAX_LENGTH },
    tppMessages: { type: 'array', items: { $ref: 'TppMessage#' } },
    _links: paymentLinksSchema,
  },
} as const;

/** The status of a bulk payment: once the batch run executed it, what became of each entry. */
export const bulkPaymentStatusSchema = {
  $id: 'BulkPaymentStatusResponse',
  type: 'object',
  required: paymentStatusSchema.required,
  properties: {
    ...paymentStatusSchema.properties,
    entries: {
      type: 'array',
      maxItems: MAX_BULK_ENTRIES,
      description:
        'Once the batch run executed the bulk (ACSC, PART, RJCT): each entry of `payments`, in its order, executed (ACSC) or rejected (RJCT) with its own statusReason, which starts with the ISO 20022 reason code (AM04 insufficient funds, AC01, AC04, AC06, AM02: docs/scenarios.md). A bulk executed in part is PART',
      items: {
        type: 'object',
        required: ['transactionStatus'],
        properties: {
          transactionStatus: { type: 'string', enum: ['ACSC', 'RJCT'] },
          statusReason: { type: 'string', maxLength: TPP_MESSAGE_TEXT_MAX_LENGTH },
        },
      },
    },
  },
} as const;

/** GET of a payment, of any product: the body as submitted, with its id, its status and its links as they stand. */
export function paymentReadSchema(id: string, bodySchema: { properties: object; required: readonly string[] }) {
  return {
    $id: id,
    type: 'object',
    required: ['paymentId', 'transactionStatus', ...bodySchema.required, '_links'],
    properties: {
      paymentId: { type: 'string' },
      transactionStatus: { $ref: 'TransactionStatus#' },
      ...bodySchema.properties,
      _links: paymentLinksSchema,
    },
  } as const;
}

export const paymentSchemas = [
  currencySchema,
  countrySchema,
  purposeCodeSchema,
  transactionStatusSchema,
  amountSchema,
  crossBorderAccountSchema,
  bbanAccountSchema,
  addressSchema,
  structuredRemittanceSchema,
  crossBorderBodySchema,
  bulkEntrySchema,
  bulkBodySchema,
  paymentCreatedSchema,
  paymentStatusSchema,
  bulkPaymentStatusSchema,
  paymentReadSchema('CrossBorderCreditTransferRead', crossBorderBodySchema),
  paymentReadSchema('DomesticBulkPaymentRead', bulkBodySchema),
];
