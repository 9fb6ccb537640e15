import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.js';
import { CONSOLE_CONSENTS_LISTED, CONSOLE_PAYMENTS_LISTED } from '../../domain/limits.js';
import { noticeOf } from '../console-pages/console-forms.js';
import type { SignedInPages } from './console-scope.js';

/** The console's views of the TPP's bank: the overview (its clock), customers, payments, a payment's story, consents. */
export function registerConsoleViewRoutes({ pages, bank, show, sessionOf }: SignedInPages): void {
  const signed = (request: FastifyRequest) => ({ session: sessionOf(request) });

  pages.get<{ Querystring: Record<string, unknown> }>('', { schema: { hide: true } }, async (request, reply) =>
    show(
      request,
      reply,
      {
        kind: 'overview',
        clock: await bank.readClock(sessionOf(request).tppId),
        notice: noticeOf(request.query),
      },
      signed(request),
    ),
  );
  pages.get('/customers', { schema: { hide: true } }, async (request, reply) =>
    show(request, reply, { kind: 'customers', ...(await bank.customers(sessionOf(request).tppId)) }, signed(request)),
  );
  pages.get('/payments', { schema: { hide: true } }, async (request, reply) =>
    show(
      request,
      reply,
      {
        kind: 'payments',
        payments: await bank.payments(sessionOf(request).tppId),
        limit: CONSOLE_PAYMENTS_LISTED,
      },
      signed(request),
    ),
  );
  pages.get<{ Params: { paymentId: string } }>(
    '/payments/:paymentId',
    { schema: { hide: true } },
    async (request, reply) => {
      try {
        const story = await bank.payment(sessionOf(request).tppId, request.params.paymentId);
        return show(request, reply, { kind: 'payment', story }, signed(request));
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'RESOURCE_UNKNOWN') throw error;
        return show(
          request,
          reply,
          { kind: 'message', message: 'payment-unknown' },
          { ...signed(request), status: 404 },
        );
      }
    },
  );
  pages.get('/consents', { schema: { hide: true } }, async (request, reply) =>
    show(
      request,
      reply,
      {
        kind: 'consents',
        consents: await bank.consents(sessionOf(request).tppId),
        limit: CONSOLE_CONSENTS_LISTED,
      },
      signed(request),
    ),
  );
}
