import { ENGAGEMENT_ROLES } from '../../../domain/bank.js';
import { MAX_AGREEMENT_ENGAGEMENTS, NAME_MAX_LENGTH } from '../../../domain/limits.js';
import { accountReferenceInput, engagedAccount, selfLinks, text } from './sandbox-schema-parts.js';

/** A corporate customer's agreement: which persons act on which of its accounts, and how. */

export const sandboxAgreementCreateSchema = {
  $id: 'SandboxAgreementCreate',
  type: 'object',
  additionalProperties: false,
  required: ['owner', 'name', 'engagements'],
  properties: {
    owner: text(11, 'customerNumber of the corporate customer that owns the agreement'),
    name: text(NAME_MAX_LENGTH),
    engagements: {
      type: 'array',
      maxItems: MAX_AGREEMENT_ENGAGEMENTS,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['customer', 'account', 'roles'],
        properties: {
          customer: text(11, 'customerNumber of the private customer who acts on the account'),
          account: accountReferenceInput,
          roles: {
            type: 'array',
            minItems: 1,
            maxItems: ENGAGEMENT_ROLES.length,
            uniqueItems: true,
            items: { type: 'string', enum: [...ENGAGEMENT_ROLES] },
            description: 'VIEW sees the account; REGISTER also registers and signs payments from it',
          },
        },
      },
    },
  },
} as const;

export const sandboxAgreementSchema = {
  $id: 'SandboxAgreement',
  type: 'object',
  required: ['id', 'owner', 'name', 'engagements', '_links'],
  properties: {
    id: { type: 'string', description: 'Send it as PSU-Corporate-ID' },
    owner: { type: 'string' },
    name: { type: 'string' },
    engagements: {
      type: 'array',
      items: {
        type: 'object',
        required: ['customer', 'account', 'roles'],
        properties: {
          customer: { type: 'string' },
          account: engagedAccount,
          roles: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    _links: selfLinks,
  },
} as const;
