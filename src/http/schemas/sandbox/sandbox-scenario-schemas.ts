import {
  BBAN_MAX_LENGTH,
  END_TO_END_IDENTIFICATION_MAX_LENGTH,
  FORMATTED_TEXT_MAX_LENGTH,
  IBAN_MAX_LENGTH,
  MAX_SANDBOX_SCENARIO_TIMES,
  SANDBOX_RETRY_AFTER_MAX_SECONDS,
  SANDBOX_SCENARIO_REASON_MAX_LENGTH,
  SANDBOX_SLOW_MAX_DELAY_MS,
} from '../../../domain/limits.js';
import { SCENARIO_KINDS, UNLIMITED } from '../../../domain/sandbox-scenarios.js';
import { STATUS_REASON_CODE_LIST } from '../../../domain/status-reasons.js';
import { text } from './sandbox-schema-parts.js';

/**
 * Scenarios on demand (docs/scenarios.md): the body that arms one, and an armed one as it is read.
 * One flat body for every kind: `kind` says which fields apply, and the sandbox names a field a kind
 * does not take at its path (a oneOf would answer every alternative's problems at once).
 */

const KIND_TEXT =
  'payment-pending (the matching payment goes PDNG when the bank executes it, then ACSC or RJCT at the first batch run at or after `until`); payment-held (ACSP, held in settlement until `until`, then executed); payment-rejected (RJCT with the reason); bank-throttled (429 ACCESS_EXCEEDED with Retry-After); bank-maintenance (503 SERVICE_UNAVAILABLE with Retry-After from `from` to `until`); bank-slow (the answer after `delayMs`); bank-error (500 SYSTEM_ERROR on `operationId`)';

const instant = (description: string) =>
  ({ type: 'string', format: 'date-time', maxLength: FORMATTED_TEXT_MAX_LENGTH, description }) as const;

const operationId = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  description:
    "bank-*: the operation that answers so, an operationId of /v1/openapi.json (getAccountList, initiatePaymentNorwegianDomesticCreditTransfers, ...); never one of the sandbox's own. Left out (not bank-error): every operation of the bank's API",
  example: 'getAccountList',
} as const;

const match = {
  type: 'object',
  additionalProperties: false,
  description:
    'payment-*: the payments the rule takes, those with all that is given; left out, the next payment the bank executes',
  properties: {
    debtorAccount: {
      type: 'object',
      additionalProperties: false,
      properties: { iban: text(IBAN_MAX_LENGTH), bban: text(BBAN_MAX_LENGTH) },
      description: 'The account paid from, by iban or by bban',
    },
    instructedAmount: {
      type: 'object',
      additionalProperties: false,
      required: ['amount', 'currency'],
      properties: {
        amount: { type: 'string', maxLength: 40, description: 'Decimal string, as in the payment', example: '250.00' },
        currency: { type: 'string', minLength: 3, maxLength: 3 },
      },
      description: "A payment of this amount (a bulk: one of its entries')",
    },
    endToEndIdentification: {
      type: 'string',
      minLength: 1,
      maxLength: END_TO_END_IDENTIFICATION_MAX_LENGTH,
      description: "A payment with this endToEndIdentification (a bulk: one of its entries')",
    },
  },
} as const;

export const sandboxScenarioArmSchema = {
  $id: 'SandboxScenarioArm',
  type: 'object',
  additionalProperties: false,
  required: ['kind'],
  properties: {
    kind: { type: 'string', enum: [...SCENARIO_KINDS], 'x-rule-text': 'a scenario kind', description: KIND_TEXT },
    match,
    until: instant(
      "payment-pending, payment-held: the instant of the bank's clock the payment is held until (after now); bank-maintenance: the window's end",
    ),
    from: instant("bank-maintenance: the window's start (default now)"),
    then: {
      type: 'string',
      enum: ['ACSC', 'RJCT'],
      description: 'payment-pending: what the payment becomes at `until` (default ACSC: executed then, as any payment)',
    },
    reasonCode: {
      type: 'string',
      enum: STATUS_REASON_CODE_LIST,
      description:
        'payment-rejected, payment-pending with then RJCT: the ISO 20022 reason code the statusReason starts with (default MS03). AC01 account does not exist, AC04 closed, AC06 blocked, AM02 over the limit, AM04 insufficient funds, CURR currency, MS03 not specified',
    },
    reasonText: {
      type: 'string',
      minLength: 1,
      maxLength: SANDBOX_SCENARIO_REASON_MAX_LENGTH,
      description: "The words after the code (default: the code's own)",
    },
    operationId,
    retryAfterSeconds: {
      type: 'integer',
      minimum: 1,
      maximum: SANDBOX_RETRY_AFTER_MAX_SECONDS,
      description: 'bank-throttled: the Retry-After the 429 carries, in seconds (default 1)',
    },
    delayMs: {
      type: 'integer',
      minimum: 1,
      maximum: SANDBOX_SLOW_MAX_DELAY_MS,
      description: `bank-slow: how long the bank takes before it answers, 1 to ${SANDBOX_SLOW_MAX_DELAY_MS} ms`,
    },
    times: {
      anyOf: [
        { type: 'integer', minimum: 1, maximum: MAX_SANDBOX_SCENARIO_TIMES },
        { type: 'string', enum: [UNLIMITED] },
      ],
      'x-rule-text': `an integer from 1 to ${MAX_SANDBOX_SCENARIO_TIMES}, or "${UNLIMITED}"`,
      description: `How many payments (payment-*) or requests (bank-*) the rule takes before it is spent: default 1; "${UNLIMITED}" until it is disarmed. A maintenance window takes every request in it`,
    },
  },
} as const;

export const sandboxScenarioSchema = {
  $id: 'SandboxScenario',
  type: 'object',
  required: ['scenarioId', 'kind', 'armedAt', '_links'],
  properties: {
    scenarioId: { type: 'string' },
    kind: { type: 'string', enum: [...SCENARIO_KINDS] },
    match: { type: 'object', additionalProperties: true, description: 'As armed' },
    operationId: { type: 'string' },
    from: { type: 'string', format: 'date-time' },
    until: { type: 'string', format: 'date-time' },
    then: { type: 'string', enum: ['ACSC', 'RJCT'] },
    statusReason: { type: 'string', description: 'The statusReason a payment it rejects gets (code, then words)' },
    retryAfterSeconds: { type: 'integer' },
    delayMs: { type: 'integer' },
    timesLeft: {
      anyOf: [{ type: 'integer' }, { type: 'string', enum: [UNLIMITED] }],
      description: `Payments or requests it still takes ("${UNLIMITED}": until disarmed); absent for a maintenance window`,
    },
    armedAt: { type: 'string', format: 'date-time', description: "The bank's time it was armed at" },
    _links: {
      type: 'object',
      required: ['self'],
      properties: { self: { $ref: 'Link#' } },
      description: 'self: DELETE disarms it',
    },
  },
} as const;
