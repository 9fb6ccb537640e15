import {
  DAY_OF_EXECUTION_MAX_LENGTH,
  FORMATTED_TEXT_MAX_LENGTH,
  MONTHS_OF_EXECUTION_MAX_ITEMS,
  TPP_MESSAGE_TEXT_MAX_LENGTH,
} from '../../domain/limits.js';
import { DAY_OF_EXECUTION, EXECUTION_RULES, MONTH } from '../../domain/payments/periodic-payment.js';
import { FREQUENCIES } from '../../domain/periodic/schedule.js';
import { domesticPaymentSchema } from './single-payment-schemas.js';

/**
 * A periodic norwegian-domestic-credit-transfers payment (a standing order): the fields of a single
 * domestic credit transfer (single-payment-schemas.ts) but its execution date, and Berlin Group's
 * periodic fields (docs/decisions/0227, docs/decisions/0228 and docs/decisions/0229). Rules across fields are in
 * src/domain/payments/periodic-payment.ts.
 */
const date = (description: string) =>
  ({ type: 'string', maxLength: FORMATTED_TEXT_MAX_LENGTH, format: 'date', description }) as const;

/** The fields of a single domestic credit transfer (NDCT) but its execution date: a standing order has its schedule. */
const domesticTransferProperties = Object.fromEntries(
  Object.entries(domesticPaymentSchema.properties).filter(([key]) => key !== 'requestedExecutionDate'),
);

export const periodicBodySchema = {
  $id: 'PeriodicDomesticCreditTransfer',
  type: 'object',
  additionalProperties: false,
  required: ['instructedAmount', 'creditorName', 'creditorAccount', 'debtorAccount', 'startDate', 'frequency'],
  properties: {
    ...domesticTransferProperties,
    startDate: date('The first day an execution may fall on; from today (Norwegian time) to 365 days ahead'),
    endDate: date('The last day an execution may fall on; none for an order without end'),
    frequency: { type: 'string', enum: [...FREQUENCIES] },
    executionRule: {
      type: 'string',
      enum: Object.keys(EXECUTION_RULES),
      description:
        "Where an execution falling on a weekend or Norwegian bank holiday goes: 'following' (the default) or 'preceding' bank day; 'preceeding', the platform's spelling, is 'preceding'",
    },
    dayOfExecution: {
      type: 'string',
      maxLength: DAY_OF_EXECUTION_MAX_LENGTH,
      pattern: DAY_OF_EXECUTION.source,
      description:
        'Day of the month, "1" to "31" without leading zeroes, "31" the last day (a shorter month executes on its last day); for Weekly and EveryTwoWeeks the weekday, "1" Monday to "7" Sunday; none for Daily. Left out: the day of startDate',
    },
    monthsOfExecution: {
      type: 'array',
      minItems: 1,
      maxItems: MONTHS_OF_EXECUTION_MAX_ITEMS,
      items: { type: 'string', maxLength: 2, pattern: MONTH.source },
      description: 'With frequency MonthlyVariable, and only then: the months ("1" to "12") it executes in, each once',
    },
  },
} as const;

const execution = {
  type: 'object',
  required: ['executionDate', 'transactionStatus'],
  properties: {
    executionDate: { type: 'string', format: 'date' },
    transactionStatus: { $ref: 'TransactionStatus#' },
    statusReason: { type: 'string', maxLength: TPP_MESSAGE_TEXT_MAX_LENGTH },
  },
} as const;

/** What a standing order's reads add to a payment's: when it executes next, and what its latest executions did. */
const orderProperties = {
  nextExecutionDate: {
    type: 'string',
    format: 'date',
    description: 'The bank day of the next execution, while the order runs',
  },
  executions: {
    type: 'array',
    items: execution,
    description: 'The latest executions, newest first (at most 12): ACSC booked, RJCT rejected (without funds)',
  },
} as const;

export const periodicStatusSchema = {
  $id: 'PeriodicPaymentStatusResponse',
  type: 'object',
  required: ['paymentId', 'transactionStatus', 'executions', '_links'],
  properties: {
    paymentId: { type: 'string' },
    transactionStatus: { $ref: 'TransactionStatus#' },
    ...orderProperties,
    tppMessages: { type: 'array', items: { $ref: 'TppMessage#' } },
    _links: { $ref: 'Links#' },
  },
} as const;

export const periodicReadSchema = {
  $id: 'PeriodicDomesticCreditTransferRead',
  type: 'object',
  required: ['paymentId', 'transactionStatus', 'executions', '_links', ...periodicBodySchema.required],
  properties: {
    paymentId: { type: 'string' },
    transactionStatus: { $ref: 'TransactionStatus#' },
    ...periodicBodySchema.properties,
    ...orderProperties,
    _links: { $ref: 'Links#' },
  },
} as const;

export const periodicPaymentSchemas = [periodicBodySchema, periodicStatusSchema, periodicReadSchema];
