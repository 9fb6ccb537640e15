import {
  FORMATTED_TEXT_MAX_LENGTH,
  INT32_MAX,
  SANDBOX_CUSTOMERS_PAGE_MAX,
  SANDBOX_TRANSACTIONS_PAGE_DEFAULT,
  SANDBOX_TRANSACTIONS_PAGE_MAX,
} from '../../domain/limits.js';
import { SIGNED, SIGNED_REQUIRED, headersSchema } from './header-schemas.js';
import {
  sandboxAccountCreateSchema,
  sandboxAccountSchema,
  sandboxAccountUpdateSchema,
} from './sandbox/sandbox-account-schemas.js';
import {
  sandboxTransactionCreateSchema,
  sandboxTransactionSchema,
} from './sandbox/sandbox-account-transaction-schemas.js';
import { sandboxAgreementCreateSchema, sandboxAgreementSchema } from './sandbox/sandbox-agreement-schemas.js';
import { balanceInputSchema, balanceSchema, sandboxAmountInputSchema } from './sandbox/sandbox-balance-schemas.js';
import { sandboxCardAccountCreateSchema, sandboxCardAccountSchema } from './sandbox/sandbox-card-account-schemas.js';
import {
  sandboxCardTransactionCreateSchema,
  sandboxCardTransactionSchema,
} from './sandbox/sandbox-card-transaction-schemas.js';
import {
  sandboxCustomerCreateSchema,
  sandboxCustomerSchema,
  sandboxCustomerUpdateSchema,
} from './sandbox/sandbox-customer-schemas.js';
import { sandboxScenarioArmSchema, sandboxScenarioSchema } from './sandbox/sandbox-scenario-schemas.js';
import { sandboxStandingOrderSchema } from './sandbox/sandbox-standing-order-schemas.js';
import { sandboxCreatedSchema, sandboxInitializedSchema } from './sandbox/sandbox-reply-schemas.js';
import {
  sandboxSnapshotCreateSchema,
  sandboxSnapshotListSchema,
  sandboxSnapshotSchema,
} from './sandbox/sandbox-snapshot-schemas.js';

/**
 * The sandbox's mock-data API (the platform's mock-data-customer-api and mock-data-account-api):
 * request bodies as the platform's own scripts send them, and the answers, one file per resource
 * under sandbox/. Here: the headers and query strings its routes take, and every named schema.
 */

/** spec, Request headers: sandbox reads take only the signed set (and content negotiation). */
export function sandboxReadHeaders() {
  return headersSchema(SIGNED, SIGNED_REQUIRED);
}

/**
 * Sandbox actions that change the bank without test data (a clock move, a batch run, a snapshot's
 * save and restore): the signed set with Digest, of the empty body when none is sent.
 */
export function sandboxActionHeaders() {
  return headersSchema([...SIGNED, 'Digest'], [...SIGNED_REQUIRED, 'Digest']);
}

/** Sandbox creates: the signed set with Digest; x-accept-fix for longer-name. */
export function sandboxCreateHeaders() {
  return headersSchema([...SIGNED, 'Digest', 'x-accept-fix'], [...SIGNED_REQUIRED, 'Digest']);
}

export const transactionListQuery = {
  type: 'object',
  properties: {
    fromDate: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      format: 'date',
      description: 'Earliest booking date',
    },
    toDate: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      format: 'date',
      description: 'Latest booking date',
    },
    offset: {
      type: 'integer',
      minimum: 0,
      maximum: INT32_MAX,
      description: 'Transactions skipped before counting the limit (default 0)',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: SANDBOX_TRANSACTIONS_PAGE_MAX,
      description: `Transactions returned, 1 to ${SANDBOX_TRANSACTIONS_PAGE_MAX} (default ${SANDBOX_TRANSACTIONS_PAGE_DEFAULT})`,
    },
  },
} as const;

export const customerListQuery = {
  type: 'object',
  properties: {
    offset: { type: 'integer', minimum: 0, maximum: INT32_MAX, description: 'Customers skipped (default 0)' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: SANDBOX_CUSTOMERS_PAGE_MAX,
      description: `Customers returned, 1 to ${SANDBOX_CUSTOMERS_PAGE_MAX} (default ${SANDBOX_CUSTOMERS_PAGE_MAX})`,
    },
  },
} as const;

/** Every named schema of the sandbox, in the order the OpenAPI document lists them. */
export const sandboxSchemas = [
  sandboxStandingOrderSchema,
  sandboxAmountInputSchema,
  balanceInputSchema,
  balanceSchema,
  sandboxCustomerCreateSchema,
  sandboxCustomerUpdateSchema,
  sandboxCustomerSchema,
  sandboxAccountCreateSchema,
  sandboxAccountUpdateSchema,
  sandboxAccountSchema,
  sandboxAgreementCreateSchema,
  sandboxAgreementSchema,
  sandboxCardAccountCreateSchema,
  sandboxCardAccountSchema,
  sandboxCardTransactionCreateSchema,
  sandboxCardTransactionSchema,
  sandboxTransactionCreateSchema,
  sandboxTransactionSchema,
  sandboxCreatedSchema,
  sandboxInitializedSchema,
  sandboxSnapshotCreateSchema,
  sandboxSnapshotSchema,
  sandboxSnapshotListSchema,
  sandboxScenarioArmSchema,
  sandboxScenarioSchema,
];
