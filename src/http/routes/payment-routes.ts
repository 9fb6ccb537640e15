import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.js';
import { BODY_LIMIT_BYTES } from '../../domain/limits.js';
import {
  CROSS_BORDER,
  DOMESTIC,
  PAYMENT_SERVICES,
  type PaymentProduct,
  type PaymentService,
  productProblem,
} from '../../domain/payment-product.js';
import { type PaymentInitiationService, paymentLinks } from '../../services/payment-initiation-service.js';
import type { AuthRequirement } from '../../security/tpp-authenticator.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { createHeaders, readHeaders } from '../schemas/header-schemas.js';
import { scaContextOf } from '../sca-context.js';

const CREATE_AUTH: AuthRequirement = { role: 'PSP_PI', digestRequired: true };
const READ_AUTH: AuthRequirement = { role: 'PSP_PI', digestRequired: false };
const PAYMENT_ID_PARAM = {
  type: 'object',
  required: ['paymentId'],
  properties: { paymentId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

interface Product {
  service: PaymentService;
  product: PaymentProduct;
  body: string;
  read: string;
  summary: string;
  acceptFixRequired: boolean;
}

const PRODUCTS: Product[] = [
  {
    service: 'payments',
    product: CROSS_BORDER,
    body: 'CrossBorderCreditTransfer#',
    read: 'CrossBorderCreditTransferRead#',
    summary: 'Create a cross-border credit transfer (meant for NOK 100 000 or more)',
    acceptFixRequired: true,
  },
  {
    service: 'bulk-payments',
    product: DOMESTIC,
    body: 'DomesticBulkPayment#',
    read: 'DomesticBulkPaymentRead#',
    summary: 'Create a bulk payment of domestic credit transfers',
    acceptFixRequired: false,
  },
];

type Headers = Record<string, string | undefined>;

/** Endpoints 2 and 3 of the specification, and reading, status and cancellation of what they create. */
export function registerPaymentRoutes(app: FastifyInstance, payments: PaymentInitiationService): void {
  for (const product of PRODUCTS) {
    const base = `/v1/${product.service}/${product.product}`;
    app.post(
      base,
      {
        ...(product.service === 'bulk-payments' ? { bodyLimit: BODY_LIMIT_BYTES } : {}),
        config: { api: { auth: CREATE_AUTH, deferSchemaProblems: true } },
        schema: {
          summary: product.summary,
          tags: [product.service],
          headers: createHeaders({
            acceptFixRequired: product.acceptFixRequired,
            brandLogging: product.product === CROSS_BORDER,
          }),
          querystring: {
            type: 'object',
            properties: {
              allowLogicalDuplicate: {
                type: 'boolean',
                description: 'Create the payment even if it equals one of the same PSU from the last 24 hours',
              },
            },
          },
          body: { $ref: product.body },
          response: { 201: { $ref: 'PaymentInitiationResponse#' }, ...errorResponses(403, 404, 409, 413, 415) },
          description:
            'With PSU-Context the answer carries _links.scaRedirect, the page where the PSU signs. A PSU-ID without a valid session with this TPP is answered 401 with an scaRedirect that establishes one (docs/sca.md).',
        },
      },
      async (request, reply) => {
        const headers = request.headers as Headers;
        const sca = scaContextOf(request, payments.nationalIdKey);
        const answer = await payments.initiate({
          tpp: request.tpp!,
          sca,
          service: product.service,
          product: product.product,
          body: request.body,
          requestId: headers['x-request-id']!,
          retry: request.retry,
          bodySha256: request.bodySha256!,
          psuHeaders: {
            psuId: headers['psu-id'],
            nationalId: headers['x-psu-identity'],
            nationalIdHash: sca.psuNationalIdHash,
            corporateId: headers['psu-corporate-id'],
            context: headers['psu-context'],
          },
          acceptFixHeader: headers['x-accept-fix'],
          tppRedirectUri: headers['tpp-redirect-uri'] ?? '',
          tppSessionId: headers['tpp-session-id'] ?? '',
          allowLogicalDuplicate: (request.query as { allowLogicalDuplicate?: boolean }).allowLogicalDuplicate === true,
          language: request.locale,
          schemaProblems: request.schemaProblems ?? [],
        });
        const paymentId = (answer.body as { paymentId: string }).paymentId;
        reply.header('Location', paymentLinks(product.service, product.product, paymentId).self);
        return reply.code(answer.status as 201).send(answer.body);
      },
    );

    app.get(
      `${base}/:paymentId`,
      {
        config: { api: { auth: READ_AUTH } },
        schema: {
          summary: `Read a ${product.service === 'payments' ? 'payment' : 'bulk payment'}: every field submitted, with its status`,
          tags: [product.service],
          headers: readHeaders(),
          params: PAYMENT_ID_PARAM,
          response: { 200: { $ref: product.read }, ...errorResponses(403, 404) },
        },
      },
      async (request) => {
        const { paymentId } = request.params as { paymentId: string };
        const payment = await payments.read(request.tpp!, product.service, product.product, paymentId);
        return { paymentId: payment.id, transactionStatus: payment.status, ...(payment.body as object) };
      },
    );
  }

  for (const service of PAYMENT_SERVICES) {
    // A product that is not offered in this form, or not at all: 403 PRODUCT_INVALID or 404 PRODUCT_UNKNOWN.
    app.post(
      `/v1/${service}/:product`,
      {
        config: { api: { auth: CREATE_AUTH } },
        schema: { hide: true, params: { type: 'object', properties: { product: { type: 'string', maxLength: 100 } } } },
      },
      async (request) => {
        throw productError(service, (request.params as { product: string }).product);
      },
    );
    app.get(
      `/v1/${service}/:product/:paymentId`,
      {
        config: { api: { auth: READ_AUTH } },
        schema: { hide: true },
      },
      async (request) => {
        throw productError(service, (request.params as { product: string }).product);
      },
    );

    app.get(
      `/v1/${service}/:product/:paymentId/status`,
      {
        config: { api: { auth: READ_AUTH } },
        schema: {
          summary: 'Read the status of a payment',
          tags: [service],
          headers: readHeaders(),
          params: {
            ...PAYMENT_ID_PARAM,
            required: ['product', 'paymentId'],
            properties: { product: { type: 'string', maxLength: 100 }, ...PAYMENT_ID_PARAM.properties },
          },
          response: { 200: { $ref: 'PaymentStatusResponse#' }, ...errorResponses(403, 404) },
        },
      },
      async (request) => {
        const { product, paymentId } = request.params as { product: string; paymentId: string };
        const payment = await payments.read(request.tpp!, service, product, paymentId);
        return {
          transactionStatus: payment.status,
          ...(payment.fundsAvailable === undefined ? {} : { fundsAvailable: payment.fundsAvailable }),
          ...(payment.statusReason === undefined
            ? {}
            : { tppMessages: [{ category: 'ERROR', code: 'PAYMENT_FAILED', text: payment.statusReason }] }),
        };
      },
    );

    app.post(
      `/v1/${service}/:product/:paymentId/authorisations`,
      {
        config: { api: { auth: READ_AUTH } },
        schema: {
          summary: 'Start a new SCA for a payment waiting for one (when its link expired or was used)',
          tags: [service],
          headers: readHeaders(),
          params: {
            type: 'object',
            required: ['product', 'paymentId'],
            properties: { product: { type: 'string', maxLength: 100 }, ...PAYMENT_ID_PARAM.properties },
          },
          response: { 201: { $ref: 'AuthorisationStarted#' }, ...errorResponses(403, 404, 409) },
        },
      },
      async (request, reply) => {
        const { product, paymentId } = request.params as { product: string; paymentId: string };
        const link = await payments.startAuthorisation(
          request.tpp!,
          service,
          product,
          paymentId,
          scaContextOf(request, payments.nationalIdKey),
        );
        return reply.code(201).send({ scaStatus: 'started', _links: { scaRedirect: { href: link, verbs: ['GET'] } } });
      },
    );

    app.delete(
      `/v1/${service}/:product/:paymentId`,
      {
        config: { api: { auth: READ_AUTH } },
        schema: {
          summary: 'Cancel a payment that has not been executed',
          tags: [service],
          headers: readHeaders(),
          params: {
            type: 'object',
            required: ['product', 'paymentId'],
            properties: { product: { type: 'string', maxLength: 100 }, ...PAYMENT_ID_PARAM.properties },
          },
          response: {
            204: { description: 'Cancelled (transactionStatus CANC)', type: 'null' },
            ...errorResponses(403, 404, 405),
          },
        },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const { product, paymentId } = request.params as { product: string; paymentId: string };
        await payments.cancel(request.tpp!, service, product, paymentId, request.headers['x-request-id'] as string);
        return reply.code(204).send();
      },
    );
  }
}

function productError(service: string, product: string): ApiError {
  const problem = productProblem(service, product);
  // The parametric route is reached only when no route of an offered product matched.
  return ApiError.of([
    problem ?? {
      code: 'PRODUCT_INVALID',
      path: 'path:payment-product',
      text: `${product} is not offered as ${service}`,
    },
  ]);
}
