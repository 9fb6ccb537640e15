import { NAME_MAX_LENGTH } from '../../../domain/limits.js';
import { selfLinks, text, warnings } from './sandbox-schema-parts.js';

/** A test customer: private (a person) or corporate (a company that owns agreements). */

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
    tppMessages: warnings,
    _links: selfLinks,
  },
} as const;
