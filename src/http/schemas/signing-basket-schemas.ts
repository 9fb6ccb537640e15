import { MAX_BASKET_ENTRIES } from '../../domain/signing-basket.js';
import { BASKET_STATUSES } from '../../domain/signing-basket.js';

/**
 * Signing baskets, in the Berlin Group form. Berlin Group lets a basket hold consentIds too; this
 * bank's consents are bank-offered and have no id (docs/decisions/0209),
 * so consentIds may only be empty.
 */
export const basketCreateSchema = {
  $id: 'SigningBasketCreate',
  type: 'object',
  additionalProperties: false,
  required: ['paymentIds'],
  properties: {
    paymentIds: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BASKET_ENTRIES,
      items: { type: 'string', minLength: 1, maxLength: 100 },
      description: `Payments of one PSU to sign with one SCA: 1 to ${MAX_BASKET_ENTRIES}, single payments only`,
    },
    consentIds: {
      type: 'array',
      maxItems: 0,
      items: { type: 'string', maxLength: 100 },
      description:
        "Berlin Group allows consents in a basket; this bank's consents (POST /v1/bank-offered-consents) have no id and are given on their own scaRedirect, so the list is empty or absent",
    },
  },
} as const;

export const basketCreatedSchema = {
  $id: 'SigningBasketCreated',
  type: 'object',
  required: ['basketId', 'transactionStatus', '_links'],
  properties: {
    basketId: { type: 'string' },
    transactionStatus: { type: 'string', enum: [...BASKET_STATUSES] },
    tppMessages: { type: 'array', items: { $ref: 'TppMessage#' } },
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
    transactionStatus: {
      type: 'string',
      enum: [...BASKET_STATUSES],
      description: 'The worst case among its payments: RJCT, RCVD, PATC, ACTC from worst to best',
    },
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
