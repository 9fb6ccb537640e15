import { MAX_BASKET_ENTRIES } from '../../domain/signing-basket.js';
import { BASKET_STATUSES } from '../../domain/signing-basket.js';

/** Signing baskets, in the Berlin Group form (paymentIds only: this interface has no consents). */
export const basketCreateSchema = {
  $id: 'SigningBasketCreate',
  type: 'object',
  additionalProperties: false,
  required: ['paymentIds'],
  properties: {
    paymentIds: { type: 'array', minItems: 1, maxItems: MAX_BASKET_ENTRIES, items: { type: 'string', minLength: 1, maxLength: 100 }, description: `Payments of one PSU to sign with one SCA: 1 to ${MAX_BASKET_ENTRIES}, single payments only` },
  },
} as const;

export const basketCreatedSchema = {
  $id: 'SigningBasketCreated',
  type: 'object',
  required: ['basketId', 'transactionStatus', '_links'],
  properties: {
    basketId: { type: 'string' },
    transactionStatus: { type: 'string', enum: [...BASKET_STATUSES] },
    _links: { $ref: 'Links#' },
  },
} as const;

/** spec, endpoint 1: the basket read result. */
export const basketSchema = {
  $id: 'SigningBasket',
  type: 'object',
  required: ['payments', 'transactionStatus', '_links'],
  properties: {
    payments: { type: 'array', items: { type: 'string' } },
    transactionStatus: { type: 'string', enum: [...BASKET_STATUSES], description: 'The worst case among its payments: RJCT, RCVD, PATC, ACTC from worst to best' },
    _links: { $ref: 'Links#' },
  },
} as const;

export const basketStatusSchema = {
  $id: 'SigningBasketStatus',
  type: 'object',
  required: ['transactionStatus'],
  properties: { transactionStatus: { type: 'string', enum: [...BASKET_STATUSES] } },
} as const;

export const basketSchemas = [basketCreateSchema, basketCreatedSchema, basketSchema, basketStatusSchema];
