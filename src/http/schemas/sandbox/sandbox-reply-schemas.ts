import { selfLinks, warnings } from './sandbox-schema-parts.js';

/** Answers of their own: the id of what a create made, and what initialize deleted and restored. */

export const sandboxCreatedSchema = {
  $id: 'SandboxCreated',
  type: 'object',
  required: ['id', '_links'],
  properties: { id: { type: 'string' }, tppMessages: warnings, _links: selfLinks },
} as const;

export const sandboxInitializedSchema = {
  $id: 'SandboxInitialized',
  type: 'object',
  required: ['deletedCustomers', 'defaultDataSet'],
  properties: {
    deletedCustomers: {
      type: 'integer',
      description: 'Customers of this TPP deleted, with their accounts, card accounts, agreements and transactions',
    },
    defaultDataSet: {
      type: 'object',
      required: ['customers', 'accounts', 'agreements'],
      properties: {
        customers: {
          type: 'array',
          items: { type: 'string' },
          description: 'Customer numbers of the default data set, restored',
        },
        accounts: { type: 'integer' },
        agreements: { type: 'integer' },
      },
    },
  },
} as const;
