import type { FastifyInstance } from 'fastify';
import { DOMESTIC } from '../../domain/payment-product.js';
import { PERIODIC, type PeriodicPaymentService, orderFields } from '../../services/periodic-payment-service.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { readHeaders } from '../schemas/header-schemas.js';
import { contextOf } from '../hooks/request-context.js';
import { type Product, READ_AUTH, registerPaymentCreation } from './payment-routes.js';
import type { PaymentInitiationService } from '../../services/payment-initiation-service.js';

const PERIODIC_NDCT: Product = {
  service: PERIODIC,
  product: DOMESTIC,
  body: 'PeriodicDomesticCreditTransfer#',
  read: 'PeriodicDomesticCreditTransferRead#',
  summary: 'Create a standing order (periodic domestic credit transfer)',
  acceptFixRequired: false,
};

const PARAMS = {
  type: 'object',
  required: ['paymentId'],
  properties: { paymentId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

/**
 * Standing orders: POST /v1/periodic-payments/norwegian-domestic-credit-transfers, its read and its
 * status, which say when it executes next and what its latest executions did. Its authorisations and
 * DELETE are every payment's (payment-routes.ts).
 */
export function registerPeriodicPaymentRoutes(
  app: FastifyInstance,
  payments: PaymentInitiationService,
  periodic: PeriodicPaymentService,
): void {
  registerPaymentCreation(app, payments, PERIODIC_NDCT);
  const path = `/v1/${PERIODIC}/${DOMESTIC}/:paymentId`;
  app.get<{ Params: { paymentId: string } }>(
    path,
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read a standing order: every field submitted, its status, next execution and latest executions',
        tags: [PERIODIC],
        headers: readHeaders(),
        params: PARAMS,
        response: { 200: { $ref: PERIODIC_NDCT.read }, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const view = await periodic.read(contextOf(request), DOMESTIC, request.params.paymentId);
      return {
        paymentId: view.payment.id,
        transactionStatus: view.payment.status,
        ...(view.payment.body as object),
        ...orderFields(view),
        _links: view.links,
      };
    },
  );
  app.get<{ Params: { paymentId: string } }>(
    `${path}/status`,
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read the status of a standing order, its next execution date and its latest executions',
        tags: [PERIODIC],
        headers: readHeaders(),
        params: PARAMS,
        response: { 200: { $ref: 'PeriodicPaymentStatusResponse#' }, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const view = await periodic.read(contextOf(request), DOMESTIC, request.params.paymentId);
      return {
        paymentId: view.payment.id,
        transactionStatus: view.payment.status,
        ...orderFields(view),
        ...(view.payment.statusReason === undefined
          ? {}
          : { tppMessages: [{ category: 'ERROR', code: 'PAYMENT_FAILED', text: view.payment.statusReason }] }),
        _links: view.links,
      };
    },
  );
}
