import type { FastifyInstance } from 'fastify';
import { answerBody } from './answer-reply.js';
import { PAYMENT_SERVICES, type PaymentService } from '../../domain/payment-product.js';
import type { AuthRequirement } from '../../security/tpp-authenticator.js';
import type { AuthorisationPurpose } from '../../services/payment-authorisations.js';
import type { PaymentInitiationService } from '../../services/payment-initiation-service.js';
import type { SigningBasketService } from '../../services/signing-basket-service.js';
import { contextOf } from '../hooks/request-context.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { NOTIFICATION_ANSWER_HEADERS, authorisationStartHeaders, readHeaders } from '../schemas/header-schemas.js';

const AUTH: AuthRequirement = { role: 'PSP_PI', digestRequired: false };
const ID = { type: 'string', minLength: 1, maxLength: 100 } as const;
const PAYMENT_PARAMS = {
  type: 'object',
  required: ['product', 'paymentId'],
  properties: { product: { type: 'string', maxLength: 100 }, paymentId: ID },
} as const;
const PAYMENT_AUTHORISATION_PARAMS = {
  type: 'object',
  required: ['product', 'paymentId', 'authorisationId'],
  properties: { ...PAYMENT_PARAMS.properties, authorisationId: ID },
} as const;
const BASKET_PARAMS = { type: 'object', required: ['basketId'], properties: { basketId: ID } } as const;
const BASKET_AUTHORISATION_PARAMS = {
  type: 'object',
  required: ['basketId', 'authorisationId'],
  properties: { basketId: ID, authorisationId: ID },
} as const;

interface PaymentParams {
  product: string;
  paymentId: string;
  authorisationId?: string;
}

interface BasketParams {
  basketId: string;
  authorisationId?: string;
}

/** The two lists of a payment: its path segment and how the OpenAPI document names what it holds. */
const PURPOSES: readonly { purpose: AuthorisationPurpose; segment: string; what: string }[] = [
  { purpose: 'payment', segment: 'authorisations', what: 'SCA of the payment' },
  {
    purpose: 'cancellation',
    segment: 'cancellation-authorisations',
    what: 'SCA of the cancellation of an authorised payment',
  },
];

/**
 * Berlin Group's authorisation sub-resources (docs/sca.md, "Authorisation sub-resources"): for every
 * payment service, POST, GET and GET {authorisationId} of …/authorisations and
 * …/cancellation-authorisations; for signing baskets the same of …/authorisations.
 */
export function registerAuthorisationRoutes(
  app: FastifyInstance,
  payments: PaymentInitiationService,
  baskets: SigningBasketService,
): void {
  for (const service of PAYMENT_SERVICES) {
    for (const list of PURPOSES) registerPaymentList(app, payments, service, list);
  }
  registerBasketList(app, baskets);
}

function registerPaymentList(
  app: FastifyInstance,
  payments: PaymentInitiationService,
  service: PaymentService,
  list: (typeof PURPOSES)[number],
): void {
  const path = `/v1/${service}/:product/:paymentId/${list.segment}`;
  const address = (params: PaymentParams) => ({ service, product: params.product, paymentId: params.paymentId });
  const cancellation = list.purpose === 'cancellation';
  app.post<{ Params: PaymentParams }>(
    path,
    {
      config: { api: { auth: AUTH } },
      schema: {
        summary: cancellation
          ? 'Start the SCA of the cancellation of an authorised payment (after DELETE answered 202)'
          : 'Start a new SCA for a payment waiting for one (created without a link, or its link expired or was used)',
        tags: [service],
        headers: authorisationStartHeaders(),
        params: PAYMENT_PARAMS,
        response: {
          201: { $ref: 'AuthorisationStarted#', headers: NOTIFICATION_ANSWER_HEADERS },
          ...errorResponses(403, 404, ...(cancellation ? [405, 409] : [409])),
        },
      },
    },
    async (request, reply) => {
      const answer = await payments.authorisations.start(contextOf(request), address(request.params), list.purpose);
      return answerBody(reply, answer);
    },
  );
  app.get<{ Params: PaymentParams }>(
    path,
    {
      config: { api: { auth: AUTH } },
      schema: {
        summary: `List the authorisations (${list.what}) started for a payment`,
        tags: [service],
        headers: readHeaders(),
        params: PAYMENT_PARAMS,
        response: { 200: { $ref: 'AuthorisationList#' }, ...errorResponses(403, 404) },
      },
    },
    async (request) => ({
      authorisationIds: await payments.authorisations.ids(contextOf(request), address(request.params), list.purpose),
    }),
  );
  app.get<{ Params: PaymentParams & { authorisationId: string } }>(
    `${path}/:authorisationId`,
    {
      config: { api: { auth: AUTH } },
      schema: {
        summary: `Read the scaStatus of one authorisation (${list.what}) of a payment`,
        tags: [service],
        headers: readHeaders(),
        params: PAYMENT_AUTHORISATION_PARAMS,
        response: { 200: { $ref: 'ScaStatusResponse#' }, ...errorResponses(403, 404) },
      },
    },
    async (request) =>
      payments.authorisations.status(
        contextOf(request),
        address(request.params),
        list.purpose,
        request.params.authorisationId,
      ),
  );
}

function registerBasketList(app: FastifyInstance, baskets: SigningBasketService): void {
  const path = '/v1/signing-baskets/:basketId/authorisations';
  app.post<{ Params: BasketParams }>(
    path,
    {
      config: { api: { auth: AUTH } },
      schema: {
        summary: 'Start a new SCA for a signing basket whose payments all wait for one (its link expired or was used)',
        tags: ['signing-baskets'],
        headers: authorisationStartHeaders(),
        params: BASKET_PARAMS,
        response: {
          201: { $ref: 'AuthorisationStarted#', headers: NOTIFICATION_ANSWER_HEADERS },
          ...errorResponses(404, 409),
        },
      },
    },
    async (request, reply) => {
      const answer = await baskets.startAuthorisation(contextOf(request), request.params.basketId);
      return answerBody(reply, answer);
    },
  );
  app.get<{ Params: BasketParams }>(
    path,
    {
      config: { api: { auth: AUTH } },
      schema: {
        summary: 'List the authorisations started for a signing basket',
        tags: ['signing-baskets'],
        headers: readHeaders(),
        params: BASKET_PARAMS,
        response: { 200: { $ref: 'AuthorisationList#' }, ...errorResponses(404) },
      },
    },
    async (request) => ({
      authorisationIds: await baskets.authorisationIds(contextOf(request), request.params.basketId),
    }),
  );
  app.get<{ Params: BasketParams & { authorisationId: string } }>(
    `${path}/:authorisationId`,
    {
      config: { api: { auth: AUTH } },
      schema: {
        summary: 'Read the scaStatus of one authorisation of a signing basket',
        tags: ['signing-baskets'],
        headers: readHeaders(),
        params: BASKET_AUTHORISATION_PARAMS,
        response: { 200: { $ref: 'ScaStatusResponse#' }, ...errorResponses(404) },
      },
    },
    async (request) =>
      baskets.authorisationStatus(contextOf(request), request.params.basketId, request.params.authorisationId),
  );
}
