import { FORMATTED_TEXT_MAX_LENGTH, SANDBOX_TEXT_MAX_LENGTH } from '../../../domain/limits.js';
import { amountValue, date, optionalText, text } from './sandbox-schema-parts.js';

/** Amounts and balances of the sandbox's accounts and card accounts, as a TPP sends them and reads them back. */

export const sandboxAmountInputSchema = {
  $id: 'SandboxAmountInput',
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'currency'],
  properties: { amount: amountValue, currency: { $ref: 'Currency#' } },
} as const;

export const balanceInputSchema = {
  $id: 'SandboxBalanceInput',
  type: 'object',
  additionalProperties: false,
  required: ['balanceType', 'balanceAmount'],
  properties: {
    balanceType: {
      ...text(35),
      description:
        'Berlin Group balance type in any case: expected, EXPECTED, closingBooked, CLOSING_BOOKED, interimAvailable, ... (and authorised on card accounts)',
      example: 'EXPECTED',
    },
    balanceAmount: { $ref: 'SandboxAmountInput#' },
    referenceDate: date('Date the balance refers to'),
    lastChangeDateTime: { type: 'string', maxLength: FORMATTED_TEXT_MAX_LENGTH, format: 'date-time' },
    lastCommittedTransaction: optionalText(SANDBOX_TEXT_MAX_LENGTH),
    creditLimitIncluded: { type: 'boolean' },
  },
} as const;

export const balanceSchema = {
  $id: 'SandboxBalance',
  type: 'object',
  required: ['balanceType', 'balanceAmount'],
  properties: {
    balanceType: { type: 'string' },
    balanceAmount: { $ref: 'Amount#' },
    referenceDate: { type: 'string', format: 'date' },
    lastChangeDateTime: { type: 'string', format: 'date-time' },
    lastCommittedTransaction: { type: 'string' },
    creditLimitIncluded: { type: 'boolean' },
  },
} as const;
