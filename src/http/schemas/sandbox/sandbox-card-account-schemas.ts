import {
  ACCOUNT_NAME_LONGER_MAX_LENGTH,
  FORMATTED_TEXT_MAX_LENGTH,
  MAX_SANDBOX_BALANCES,
  SANDBOX_TEXT_MAX_LENGTH,
} from '../../../domain/limits.js';
import { MASKED_PAN_PATTERN, MASKED_PAN_RULE } from '../../../domain/sandbox-rules.js';
import { date, optionalText, selfLinks, text } from './sandbox-schema-parts.js';

/** A test card account of a customer, with its balances and credit limit. */

const cardExtras = {
  cardId: optionalText(SANDBOX_TEXT_MAX_LENGTH),
  cardIdVNo: optionalText(SANDBOX_TEXT_MAX_LENGTH),
  accountNumber: optionalText(SANDBOX_TEXT_MAX_LENGTH),
  expiry: date('Expiry of the card'),
  status: optionalText(35, 'Such as ENABLED or BLOCKED'),
} as const;

export const sandboxCardAccountCreateSchema = {
  $id: 'SandboxCardAccountCreate',
  type: 'object',
  additionalProperties: false,
  required: ['customerNumber', 'maskedPan', 'name', 'product', 'currency'],
  properties: {
    customerNumber: text(11),
    maskedPan: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      pattern: MASKED_PAN_PATTERN,
      'x-rule-text': MASKED_PAN_RULE,
      example: '525412******3241',
    },
    name: text(ACCOUNT_NAME_LONGER_MAX_LENGTH, 'At most 35 characters; 70 with x-accept-fix longer-name'),
    product: text(SANDBOX_TEXT_MAX_LENGTH),
    currency: { $ref: 'Currency#' },
    creditLimit: { $ref: 'SandboxAmountInput#' },
    balances: { type: 'array', maxItems: MAX_SANDBOX_BALANCES, items: { $ref: 'SandboxBalanceInput#' } },
    ...cardExtras,
  },
} as const;

export const sandboxCardAccountSchema = {
  $id: 'SandboxCardAccount',
  type: 'object',
  required: ['id', 'customerNumber', 'maskedPan', 'name', 'product', 'currency', 'creditLimit', 'balances', '_links'],
  properties: {
    id: { type: 'string' },
    customerNumber: { type: 'string' },
    maskedPan: { type: 'string' },
    name: { type: 'string' },
    product: { type: 'string' },
    currency: { type: 'string' },
    creditLimit: { $ref: 'Amount#' },
    balances: { type: 'array', items: { $ref: 'SandboxBalance#' } },
    cardId: { type: 'string' },
    cardIdVNo: { type: 'string' },
    accountNumber: { type: 'string' },
    expiry: { type: 'string', format: 'date' },
    status: { type: 'string' },
    _links: selfLinks,
  },
} as const;
