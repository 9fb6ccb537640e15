import type { FastifyInstance } from 'fastify';
import type { AuthRequirement } from '../../security/tpp-authenticator.js';
import type { SigningBasketService } from '../../services/signing-basket-service.js';
import { contextOf } from '../hooks/request-context.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { NOTIFICATION_ANSWER_HEADERS, basketCreateHeaders, readHeaders } from '../schemas/header-schemas.js';
import { answerBody } from './answer-reply.js';

const CREATE_AUTH: AuthRequirement = { role: 'PSP_PI', digestRequired: true };
const READ_AUTH: AuthRequirement = { role: 'PSP_PI', digestRequired: false };
const BASKET_ID = {
  type: 'object',
  required: ['basketId'],
  properties: { basketId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

interface BasketParams {
  basketId: string;
}

/** Signing baskets: create, read (specification endpoint 1), status, delete; in this order in the OpenAPI document. */
export function registerSigningBasketRoutes(app: FastifyInstance, baskets: SigningBasketService): void {
  registerBasketCreation(app, baskets);
  registerBasketRead(app, baskets);
  registerBasketStatus(app, baskets);
  registerBasketDeletion(app, baskets);
}

function registerBasketCreation(app: FastifyInstance, baskets: SigningBasketService): void {
  app.post(
    '/v1/signing-baskets',
    {
      config: { api: { auth: CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: 'Create a signing basket: one SCA signs every payment in it',
        tags: ['signing-baskets'],
        headers: basketCreateHeaders(),
        body: { $ref: 'SigningBasketCreate#' },
        response: {
          201: { $ref: 'SigningBasketCreated#', headers: NOTIFICATION_ANSWER_HEADERS },
          ...errorResponses(404, 409, 415),
        },
      },
    },
    async (request, reply) => {
      const answer = await baskets.create(contextOf(request), request.body, request.schemaProblems ?? []);
      reply.header(
        'Location',
        `/v1/signing-baskets/${encodeURIComponent((answer.body as { basketId: string }).basketId)}`,
      );
      return answerBody(reply, answer);
    },
  );
}

function registerBasketRead(app: FastifyInstance, baskets: SigningBasketService): void {
  app.get<{ Params: BasketParams }>(
    '/v1/signing-baskets/:basketId',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read a signing basket: its payments and its status, the worst case among them',
        tags: ['signing-baskets'],
        headers: readHeaders(),
        params: BASKET_ID,
        response: { 200: { $ref: 'SigningBasket#' }, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { basketId } = request.params;
      const view = await baskets.read(contextOf(request), basketId);
      const self = `/v1/signing-baskets/${encodeURIComponent(basketId)}`;
      return {
        payments: view.payments,
        transactionStatus: view.transactionStatus,
        _links: { self: { href: self, verbs: ['GET', 'DELETE'] }, status: { href: `${self}/status`, verbs: ['GET'] } },
      };
    },
  );
}

function registerBasketStatus(app: FastifyInstance, baskets: SigningBasketService): void {
  app.get<{ Params: BasketParams }>(
    '/v1/signing-baskets/:basketId/status',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read the status of a signing basket',
        tags: ['signing-baskets'],
        headers: readHeaders(),
        params: BASKET_ID,
        response: { 200: { $ref: 'SigningBasketStatus#' }, ...errorResponses(404) },
      },
    },
    async (request) => ({
      transactionStatus: (await baskets.read(contextOf(request), request.params.basketId)).transactionStatus,
    }),
  );
}

function registerBasketDeletion(app: FastifyInstance, baskets: SigningBasketService): void {
  app.delete<{ Params: BasketParams }>(
    '/v1/signing-baskets/:basketId',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Delete a signing basket while none of its payments is authorised; the payments stay',
        tags: ['signing-baskets'],
        headers: readHeaders(),
        params: BASKET_ID,
        response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses(404, 405) },
      },
    },
    async (request, reply) => {
      await baskets.delete(contextOf(request), request.params.basketId);
      return reply.code(204).send();
    },
  );
}
