import {
  ACCOUNT_NAME_LONGER_MAX_LENGTH,
  BBAN_MAX_LENGTH,
  IBAN_MAX_LENGTH,
  MAX_SANDBOX_BALANCES,
  SANDBOX_TEXT_MAX_LENGTH,
} from '../../../domain/limits.js';
import { ACCOUNT_STATUSES } from '../../../domain/bank.js';
import { CASH_ACCOUNT_TYPES } from '../../../domain/sandbox-rules.js';
import { amountValue, selfLinks, text, warnings } from './sandbox-schema-parts.js';

/** A test account of a customer, with its balances. */

const cashAccountType = {
  type: 'string',
  enum: [...CASH_ACCOUNT_TYPES],
  description: 'ISO 20022 ExternalCashAccountType1Code',
  'x-rule-text': 'an ISO 20022 ExternalCashAccountType1Code (CACC, SVGS, TAXE, TRAN, LOAN, CARD, OTHR, ...)',
} as const;

/** Berlin Group's accountStatus, in any case (the platform's card accounts send ENABLED). */
const accountStatus = {
  type: 'string',
  enum: [...ACCOUNT_STATUSES, ...ACCOUNT_STATUSES.map((s) => s.toUpperCase())],
  'x-rule-text': 'enabled, blocked or deleted',
  description:
    "Berlin Group's accountStatus: enabled (default), blocked (a payment from or to it is rejected when it executes, AC06) or deleted (closed: AC04). docs/scenarios.md",
  example: 'blocked',
} as const;

export const sandboxAccountCreateSchema = {
  $id: 'SandboxAccountCreate',
  type: 'object',
  additionalProperties: false,
  required: ['customerNumber', 'accountName', 'bban', 'currency', 'product', 'cashAccountType'],
  properties: {
    customerNumber: text(11, 'The owner: a customer this TPP created, or one of the default data set'),
    accountName: text(ACCOUNT_NAME_LONGER_MAX_LENGTH, 'At most 35 characters; 70 with x-accept-fix longer-name'),
    bban: {
      ...text(BBAN_MAX_LENGTH),
      description:
        'Norwegian account number: 11 digits. One whose MOD11 check digit is wrong is taken with a WARNING: it holds test transactions, but payments from or to it are refused',
      example: '90412263056',
    },
    iban: {
      ...text(IBAN_MAX_LENGTH),
      description: 'The IBAN of the bban (composed from it when left out)',
      example: 'NO2390412263056',
    },
    currency: { $ref: 'Currency#' },
    product: text(SANDBOX_TEXT_MAX_LENGTH),
    cashAccountType,
    creditLine: {
      ...amountValue,
      description: 'Credit line in the account currency, zero or more (default 0); a number or a decimal string',
    },
    balances: {
      type: 'array',
      maxItems: MAX_SANDBOX_BALANCES,
      items: { $ref: 'SandboxBalanceInput#' },
      description:
        "The first balance of type interimAvailable, expected or closingBooked (else the first one) is the account's balance; none is 0",
    },
    status: accountStatus,
  },
} as const;

/** PATCH of an account: what a test changes of it (its status). */
export const sandboxAccountUpdateSchema = {
  $id: 'SandboxAccountUpdate',
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: accountStatus },
} as const;

export const sandboxAccountSchema = {
  $id: 'SandboxAccount',
  type: 'object',
  required: [
    'id',
    'customerNumber',
    'accountName',
    'bban',
    'iban',
    'currency',
    'product',
    'cashAccountType',
    'creditLine',
    'balances',
    'status',
    '_links',
  ],
  properties: {
    id: { type: 'string' },
    customerNumber: { type: 'string' },
    accountName: { type: 'string' },
    bban: { type: 'string' },
    iban: { type: 'string' },
    currency: { type: 'string' },
    product: { type: 'string' },
    cashAccountType: { type: 'string' },
    creditLine: { type: 'string', description: 'Decimal string in the account currency' },
    balances: {
      type: 'array',
      items: { $ref: 'SandboxBalance#' },
      description: "The account's balance now (type expected): payments executed in the sandbox change it",
    },
    status: {
      type: 'string',
      enum: [...ACCOUNT_STATUSES],
      description: "Berlin Group's accountStatus: enabled, blocked or deleted (closed)",
    },
    tppMessages: warnings,
    _links: selfLinks,
  },
} as const;
