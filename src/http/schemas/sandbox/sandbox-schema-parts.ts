import { BBAN_MAX_LENGTH, FORMATTED_TEXT_MAX_LENGTH, IBAN_MAX_LENGTH } from '../../../domain/limits.js';

/**
 * The pieces the sandbox's request and answer schemas share. Amounts in requests may be JSON numbers
 * or decimal strings (src/domain/sandbox-amount.ts reads them without floating point); amounts in
 * answers are strings, as everywhere (Versioning 5), except the specification's Sandbox transaction
 * `amount`, an int32 of minor units.
 */

export const text = (maxLength: number, description?: string) =>
  ({ type: 'string', minLength: 1, maxLength, ...(description === undefined ? {} : { description }) }) as const;
/** Free text the platform's example bodies send empty (""): an empty string is read as absent. */
export const optionalText = (maxLength: number, description?: string) =>
  ({ type: 'string', maxLength, ...(description === undefined ? {} : { description }) }) as const;
export const date = (description: string) =>
  ({ type: 'string', maxLength: FORMATTED_TEXT_MAX_LENGTH, format: 'date', description }) as const;

export const amountValue = {
  anyOf: [{ type: 'number' }, { type: 'string', minLength: 1, maxLength: 40 }],
  'x-rule-text': 'a number or a decimal string, such as 1500.50 or "1500.50"',
  description:
    'A JSON number or a decimal string; no more fraction digits than the currency has, read without floating-point rounding',
  example: 1500.5,
} as const;

/**
 * WARNINGs about the test data, on the 201 of a create only: what the sandbox took that a real bank
 * would refuse later, and what will happen (an account number that fails MOD11: payments from it are
 * refused). Left out when there is nothing to say.
 */
export const warnings = {
  type: 'array',
  items: { $ref: 'TppMessage#' },
  description:
    'On the 201 of a create only: WARNING messages about test data the sandbox took that a real bank would refuse later, each saying what will happen',
} as const;

export const selfLinks = {
  type: 'object',
  required: ['self'],
  properties: { self: { $ref: 'Link#' } },
  additionalProperties: { $ref: 'Link#' },
} as const;

/** An account in a request (an agreement's engagement, a transaction's either side). */
export const accountReferenceInput = {
  type: 'object',
  additionalProperties: false,
  properties: { iban: text(IBAN_MAX_LENGTH), bban: text(BBAN_MAX_LENGTH) },
  description: 'An account by iban or bban; both must agree when given together',
} as const;

/** An account in an answer: both its numbers. */
export const engagedAccount = {
  type: 'object',
  required: ['iban', 'bban'],
  properties: { iban: { type: 'string' }, bban: { type: 'string' } },
} as const;
