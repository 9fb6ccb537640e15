import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/api-error.js';
import { BODY_LIMIT_BYTES } from '../../domain/limits.js';
import {
  CROSS_BORDER,
  DOMESTIC,
  GENERAL_CROSS_BORDER,
  PAYMENT_SERVICES,
  type PaymentProduct,
  type PaymentService,
  SEPA,
  STRAKS,
  productProblem,
} from '../../domain/payment-product.js';
import { type PaymentInitiationService, paymentLinks } from '../../services/payment-initiation-service.js';
import { paymentAnswerLinks } from '../../services/payment-links.js';
import type { EntryOutcome } from '../../store/ledger-records.js';
import type { StoredPayment } from '../../store/store.js';
import type { AuthRequirement } from '../../security/tpp-authenticator.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { NOTIFICATION_ANSWER_HEADERS, createHeaders, readHeaders } from '../schemas/header-schemas.js';
import { contextOf } from '../hooks/request-context.js';
import { answerBody } from './answer-reply.js';

const CREATE_AUTH: AuthRequirement = { role: 'PSP_PI', digestRequired: true };
export const READ_AUTH: AuthRequirement = { role: 'PSP_PI', digestRequired: false };
const PAYMENT_ID_PARAM = {
  type: 'object',
  required: ['paymentId'],
  properties: { paymentId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export interface Product {
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
    service: 'payments',
    product: DOMESTIC,
    body: 'DomesticCreditTransfer#',
    read: 'DomesticCreditTransferRead#',
    summary: 'Create a domestic credit transfer (NDCT), executed by the batch run on its date',
    acceptFixRequired: false,
  },
  {
    service: 'payments',
    product: STRAKS,
    body: 'DomesticCreditTransfer#',
    read: 'DomesticCreditTransferRead#',
    summary: 'Create a Straks (instant domestic) payment, executed at once when the PSU approves it',
    acceptFixRequired: false,
  },
  {
    service: 'payments',
    product: SEPA,
    body: 'SepaCreditTransfer#',
    read: 'SepaCreditTransferRead#',
    summary: 'Create a SEPA credit transfer (EUR to a SEPA country)',
    acceptFixRequired: false,
  },
  {
    service: 'payments',
    product: GENERAL_CROSS_BORDER,
    body: 'GeneralCrossBorderCreditTransfer#',
    read: 'GeneralCrossBorderCreditTransferRead#',
    summary: 'Create a cross-border credit transfer under NOK 100 000 (no regulatory reporting)',
    acceptFixRequired: false,
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

/** Path parameters of an operation on one payment of a product named in the path. */
interface PaymentParams {
  product: string;
  paymentId: string;
}

const PRODUCT_PAYMENT_PARAMS = {
  ...PAYMENT_ID_PARAM,
  required: ['product', 'paymentId'],
  properties: { product: { type: 'string', maxLength: 100 }, ...PAYMENT_ID_PARAM.properties },
} as const;

/**
 * Endpoints 2 and 3 of the specification, and reading, status and cancellation of what they create
 * (their authorisations: authorisation-routes.ts). The routes are added in this order, which is the
 * OpenAPI document's.
 */
export function registerPaymentRoutes(app: FastifyInstance, payments: PaymentInitiationService): void {
  for (const product of PRODUCTS) {
    registerPaymentCreation(app, payments, product);
    registerPaymentRead(app, payments, product);
  }
  for (const service of PAYMENT_SERVICES) {
    registerProductRefusals(app, service);
    registerPaymentStatus(app, payments, service);
    registerPaymentCancellation(app, payments, service);
  }
}

/** POST /v1/{service}/{product}: a payment of a product offered. */
export function registerPaymentCreation(
  app: FastifyInstance,
  payments: PaymentInitiationService,
  product: Product,
): void {
  app.post<{ Querystring: { allowLogicalDuplicate?: boolean } }>(
    `/v1/${product.service}/${product.product}`,
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
        response: {
          201: { $ref: 'PaymentInitiationResponse#', headers: NOTIFICATION_ANSWER_HEADERS },
          ...errorResponses(403, 404, 409, 415),
        },
        description:
          'With PSU-Context the answer carries _links.scaRedirect, the page where the PSU signs. A PSU-ID without a valid session with this TPP is answered 401 with an scaRedirect that establishes one (docs/sca.md).',
      },
    },
    async (request, reply) => {
      const answer = await payments.initiate(contextOf(request), {
        service: product.service,
        product: product.product,
        body: request.body,
        allowLogicalDuplicate: request.query.allowLogicalDuplicate === true,
        schemaProblems: request.schemaProblems ?? [],
      });
      const paymentId = (answer.body as { paymentId: string }).paymentId;
      reply.header('Location', paymentLinks(product.service, product.product, paymentId).self);
      return answerBody(reply, answer);
    },
  );
}

/** GET /v1/{service}/{product}/{paymentId}: the payment as submitted, with its status. */
function registerPaymentRead(app: FastifyInstance, payments: PaymentInitiationService, product: Product): void {
  app.get<{ Params: { paymentId: string } }>(
    `/v1/${product.service}/${product.product}/:paymentId`,
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
      const payment = await payments.read(
        contextOf(request),
        product.service,
        product.product,
        request.params.paymentId,
      );
      return paymentReadAnswer(payment);
    },
  );
}

/**
 * A payment's read, of every product: the body as initiated, with its id, its status and its links as
 * they stand (docs/platform-research.md §3.4: the platform's read carries paymentId and _links; Berlin Group's
 * the status). The read schema of each product (paymentReadSchema) lists the same fields.
 */
export function paymentReadAnswer(payment: StoredPayment): object {
  return {
    paymentId: payment.id,
    transactionStatus: payment.status,
    ...(payment.body as object),
    _links: paymentAnswerLinks(payment.service, payment.product, payment.id, payment.status),
  };
}

/**
 * A product that is not offered in this form, or not at all: 403 PRODUCT_INVALID or 404
 * PRODUCT_UNKNOWN. The parametric routes are reached only when no route of an offered product matched.
 */
function registerProductRefusals(app: FastifyInstance, service: PaymentService): void {
  app.post<{ Params: { product: string } }>(
    `/v1/${service}/:product`,
    {
      config: { api: { auth: CREATE_AUTH } },
      schema: { hide: true, params: { type: 'object', properties: { product: { type: 'string', maxLength: 100 } } } },
    },
    async (request) => {
      throw productError(service, request.params.product);
    },
  );
  app.get<{ Params: PaymentParams }>(
    `/v1/${service}/:product/:paymentId`,
    { config: { api: { auth: READ_AUTH } }, schema: { hide: true } },
    async (request) => {
      throw productError(service, request.params.product);
    },
  );
}

/** GET …/{paymentId}/status: the status, with why a payment failed. */
function registerPaymentStatus(
  app: FastifyInstance,
  payments: PaymentInitiationService,
  service: PaymentService,
): void {
  app.get<{ Params: PaymentParams }>(
    `/v1/${service}/:product/:paymentId/status`,
    {
      // A status with its links is a few hundred bytes, under COMPRESSION_MIN_BYTES: the compression
      // plugin's two hooks only ever let it pass, and are left off the most frequent read
      // (docs/decisions/0372). A bulk's status lists its entries, and keeps them.
      ...(service === 'bulk-payments' ? {} : { compress: false }),
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read the status of a payment',
        tags: [service],
        headers: readHeaders(),
        params: PRODUCT_PAYMENT_PARAMS,
        response: {
          200: { $ref: service === 'bulk-payments' ? 'BulkPaymentStatusResponse#' : 'PaymentStatusResponse#' },
          ...errorResponses(403, 404),
        },
      },
    },
    async (request) => {
      const { product, paymentId } = request.params;
      const payment = await payments.read(contextOf(request), service, product, paymentId);
      const entries = await payments.entryOutcomes(payment);
      return { ...paymentStatusAnswer(payment), ...(entries === undefined ? {} : { entries: entries.map(entryView) }) };
    },
  );
}

/**
 * A payment's status answer, of every kind: the platform's, with paymentId and the payment's links as
 * they stand (docs/platform-research.md §3.3); fundsAvailable once the batch run checked the funds (release
 * 1.14.2); why it failed.
 */
export function paymentStatusAnswer(payment: StoredPayment): object {
  return {
    paymentId: payment.id,
    transactionStatus: payment.status,
    ...(payment.fundsAvailable === undefined ? {} : { fundsAvailable: payment.fundsAvailable }),
    ...(payment.statusReason === undefined
      ? {}
      : { tppMessages: [{ category: 'ERROR', code: 'PAYMENT_FAILED', text: payment.statusReason }] }),
    _links: paymentAnswerLinks(payment.service, payment.product, payment.id, payment.status),
  };
}

/** An entry of an executed bulk, as its status read lists it. */
function entryView(entry: EntryOutcome): object {
  return {
    transactionStatus: entry.status,
    ...(entry.statusReason === undefined ? {} : { statusReason: entry.statusReason }),
  };
}

/**
 * DELETE …/{paymentId}: cancels a payment the batch run has not executed: at once while it waits for
 * its SCA (204), through a cancellation SCA once the PSU authorised it (202, docs/sca.md).
 */
function registerPaymentCancellation(
  app: FastifyInstance,
  payments: PaymentInitiationService,
  service: PaymentService,
): void {
  app.delete<{ Params: PaymentParams }>(
    `/v1/${service}/:product/:paymentId`,
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Cancel a payment that has not been executed (an authorised one through a cancellation SCA: 202)',
        tags: [service],
        headers: readHeaders(),
        params: PRODUCT_PAYMENT_PARAMS,
        response: {
          202: { $ref: 'PaymentCancellationAccepted#' },
          204: { description: 'Cancelled (transactionStatus CANC)', type: 'null' },
          ...errorResponses(403, 404, 405),
        },
      },
    },
    async (request, reply) => {
      const { product, paymentId } = request.params;
      const answer = await payments.cancel(contextOf(request), service, product, paymentId);
      return answer.status === 204 ? reply.code(204).send() : reply.code(answer.status).send(answer.body);
    },
  );
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
