import {
  BUILDING_NUMBER_MAX_LENGTH,
  CITY_MAX_LENGTH,
  FORMATTED_TEXT_MAX_LENGTH,
  POSTAL_CODE_MAX_LENGTH,
  REMITTANCE_UNSTRUCTURED_MAX_LENGTH,
  SANDBOX_TEXT_MAX_LENGTH,
  STREET_MAX_LENGTH,
} from '../../../domain/limits.js';
import { MASKED_PAN_PATTERN, MASKED_PAN_RULE } from '../../../domain/sandbox-rules.js';
import { date, optionalText, selfLinks, text } from './sandbox-schema-parts.js';

/** A test transaction on a card account: a purchase, with its merchant. */

const cardAcceptorAddress = {
  type: 'object',
  additionalProperties: false,
  properties: {
    street: optionalText(STREET_MAX_LENGTH),
    buildingNumber: optionalText(BUILDING_NUMBER_MAX_LENGTH),
    postalCode: optionalText(POSTAL_CODE_MAX_LENGTH),
    city: optionalText(CITY_MAX_LENGTH),
    country: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      pattern: '^([A-Z]{2})?$',
      'x-rule-text': 'an ISO 3166-1 alpha-2 country code',
    },
  },
} as const;

export const sandboxCardTransactionCreateSchema = {
  $id: 'SandboxCardTransactionCreate',
  type: 'object',
  additionalProperties: false,
  required: ['cardTransactionId', 'transactionAmount', 'bookingDate'],
  properties: {
    cardTransactionId: text(SANDBOX_TEXT_MAX_LENGTH),
    terminalId: optionalText(SANDBOX_TEXT_MAX_LENGTH),
    transactionDate: date('Date of the purchase; not after today'),
    bookingDate: date('Not after today, nor after valueDate'),
    valueDate: date('Not after today'),
    transactionAmount: { $ref: 'SandboxAmountInput#' },
    originalAmount: { $ref: 'SandboxAmountInput#' },
    merchantCategoryCode: optionalText(
      SANDBOX_TEXT_MAX_LENGTH,
      "Usually an ISO 18245 code of 4 digits; any text is stored as given (the platform's scripts send BOB and TEST)",
    ),
    markupFee: { $ref: 'SandboxAmountInput#' },
    markupFeePercentage: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      pattern: '^(\\d{1,3}(\\.\\d{1,4})?)?$',
      'x-rule-text': 'a percentage such as "2" or "1.75"',
    },
    cardAcceptorId: optionalText(SANDBOX_TEXT_MAX_LENGTH),
    cardAcceptorAddress,
    maskedPan: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      pattern: `^$|${MASKED_PAN_PATTERN}`,
      'x-rule-text': MASKED_PAN_RULE,
    },
    transactionDetails: optionalText(REMITTANCE_UNSTRUCTURED_MAX_LENGTH),
    invoiced: {
      anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['', 'true', 'false'] }],
      'x-rule-text': 'true or false',
    },
    proprietaryBankTransactionCode: optionalText(35),
  },
} as const;

export const sandboxCardTransactionSchema = {
  $id: 'SandboxCardTransaction',
  type: 'object',
  required: ['id', 'cardTransactionId', 'transactionAmount', 'bookingDate', '_links'],
  properties: {
    id: { type: 'string' },
    cardTransactionId: { type: 'string' },
    terminalId: { type: 'string' },
    transactionDate: { type: 'string', format: 'date' },
    bookingDate: { type: 'string', format: 'date' },
    valueDate: { type: 'string', format: 'date' },
    transactionAmount: { $ref: 'Amount#' },
    originalAmount: { $ref: 'Amount#' },
    merchantCategoryCode: { type: 'string' },
    markupFee: { $ref: 'Amount#' },
    markupFeePercentage: { type: 'string' },
    cardAcceptorId: { type: 'string' },
    cardAcceptorAddress: {
      type: 'object',
      properties: {
        street: { type: 'string' },
        buildingNumber: { type: 'string' },
        postalCode: { type: 'string' },
        city: { type: 'string' },
        country: { type: 'string' },
      },
    },
    maskedPan: { type: 'string' },
    transactionDetails: { type: 'string' },
    invoiced: { type: 'boolean' },
    proprietaryBankTransactionCode: { type: 'string' },
    _links: selfLinks,
  },
} as const;
