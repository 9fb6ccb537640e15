import type { FastifyInstance } from 'fastify';
import type { AuthRequirement } from '../../security/tpp-authenticator.js';
import type { SigningBasketService } from '../../services/signing-basket-service.js';
import { scaContextOf } from '../sca-context.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { basketCreateHeaders, readHeaders } from '../schemas/header-schemas.js';

const CREATE_AUTH: AuthRequirement = { role: 'PSP_PI', digestRequired: true };
const READ_AUTH: AuthRequirement = { role: 'PSP_PI', digestRequired: false };
const BASKET_ID = {
  type: 'object',
  required: ['basketId'],
  properties: { basketId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

/** Signing baskets: create, read (specification endpoint 1), status, delete. */
export function registerSigningBasketRoutes(app: FastifyInstance, baskets: SigningBasketService): void {
  app.post(
    '/v1/signing-baskets',
    {
      config: { api: { auth: CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: 'Create a signing basket: one SCA signs every payment in it',
        tags: ['signing-baskets'],
        headers: basketCreateHeaders(),
        body: { $ref: 'SigningBasketCreate#' },
        response: { 201: { $ref: 'SigningBasketCreated#' }, ...errorResponses(404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const answer = await baskets.create(
        request.tpp!,
        request.body,
        request.headers['x-request-id'] as string,
        request.bodySha256!,
        scaContextOf(request, baskets.nationalIdKey),
        request.schemaProblems ?? [],
      );
      reply.header(
        'Location',
        `/v1/signing-baskets/${encodeURIComponent((answer.body as { basketId: string }).basketId)}`,
      );
      return reply.code(answer.status as 201).send(answer.body);
    },
  );

  app.get(
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
      const { basketId } = request.params as { basketId: string };
      const view = await baskets.read(request.tpp!, basketId, scaContextOf(request, baskets.nationalIdKey));
      const self = `/v1/signing-baskets/${encodeURIComponent(basketId)}`;
      return {
        payments: view.payments,
        transactionStatus: view.transactionStatus,
        _links: { self: { href: self, verbs: ['GET', 'DELETE'] }, status: { href: `${self}/status`, verbs: ['GET'] } },
      };
    },
  );

  app.get(
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
    async (request) => {
      const { basketId } = request.params as { basketId: string };
      return {
        transactionStatus: (await baskets.read(request.tpp!, basketId, scaContextOf(request, baskets.nationalIdKey)))
          .transactionStatus,
      };
    },
  );

  app.delete(
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
      const { basketId } = request.params as { basketId: string };
      await baskets.delete(request.tpp!, basketId, scaContextOf(request, baskets.nationalIdKey));
      return reply.code(204).send();
    },
  );
}
