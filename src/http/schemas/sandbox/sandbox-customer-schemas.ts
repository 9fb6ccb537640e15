import { NAME_MAX_LENGTH } from '../../../domain/limits.js';
import { amountValue, selfLinks, text, warnings } from './sandbox-schema-parts.js';

/** A test customer: private (a person) or corporate (a company that owns agreements). */

/** The most one payment the customer signs may be (docs/scenarios.md, "Over the PSU's limit"). */
const paymentLimit = {
  ...amountValue,
  description:
    'The most one payment (or one entry of a bulk) the customer may sign, in NOK (a payment in another currency at the reference rates), more than zero; a payment over it is rejected when it executes (AM02). Left out: no limit',
  example: '5000.00',
} as const;

export const sandboxCustomerCreateSchema = {
  $id: 'SandboxCustomerCreate',
  type: 'object',
  additionalProperties: false,
  required: ['customerNumber', 'name', 'type'],
  properties: {
    customerNumber: {
      ...text(11),
      description:
        'Private: a Norwegian national identity number (or D- or synthetic number). Corporate: an organisation number (9 digits), an 11-digit national identity number, or other digits such as 55555555 (taken with a WARNING). The identifier at SCA.',
      example: '01078900497',
    },
    name: text(NAME_MAX_LENGTH, "The customer's name, at most 70 characters"),
    type: {
      type: 'string',
      enum: ['private', 'corporate', 'PRIVATE', 'CORPORATE'],
      'x-rule-text': 'private or corporate',
    },
    paymentLimit,
  },
} as const;

/** PATCH of a customer: what a test changes of it (its payment limit; null removes it). */
export const sandboxCustomerUpdateSchema = {
  $id: 'SandboxCustomerUpdate',
  type: 'object',
  additionalProperties: false,
  required: ['paymentLimit'],
  properties: {
    paymentLimit: {
      // OpenAPI 3.0 has no null type: the string alternative is nullable (Ajv reads nullable as OpenAPI does).
      anyOf: [paymentLimit.anyOf[0], { ...paymentLimit.anyOf[1], nullable: true }],
      'x-rule-text': 'a number, a decimal string, or null (no limit)',
      description: `${paymentLimit.description}; null removes it`,
      example: '5000.00',
    },
  },
} as const;

/** spec: Sandbox customer. */
export const sandboxCustomerSchema = {
  $id: 'SandboxCustomer',
  type: 'object',
  required: [
    'customerId',
    'customerNumber',
    'customerType',
    'customerName',
    'agreements',
    'accounts',
    'cardAccounts',
    '_links',
  ],
  properties: {
    customerId: { type: 'string' },
    customerNumber: { type: 'string', description: 'The identifier to use when performing SCA in test' },
    customerType: { type: 'string', enum: ['PRIVATE', 'CORPORATE'] },
    customerName: { type: 'string' },
    agreements: {
      type: 'array',
      description:
        'Agreements the customer owns (corporate) or is engaged on (a person), each with the ids of its accounts',
      items: {
        type: 'object',
        required: ['id', 'name', 'engagements'],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          engagements: { type: 'array', items: { type: 'string' }, description: 'Account ids' },
        },
      },
    },
    accounts: { type: 'array', items: { type: 'string' }, description: 'Account ids' },
    cardAccounts: { type: 'array', items: { type: 'string' }, description: 'Card account ids' },
    paymentLimit: {
      type: 'string',
      description: 'The most one payment the customer may sign, NOK, a decimal string; absent when there is no limit',
    },
    tppMessages: warnings,
    _links: selfLinks,
  },
} as const;
