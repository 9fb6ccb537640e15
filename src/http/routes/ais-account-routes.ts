import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AisRequest, AisService, TransactionListQuery } from '../../services/ais-service.js';
import { accountQuery, transactionQuery } from '../schemas/ais-schemas.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { aisReadHeaders } from '../schemas/header-schemas.js';
import { scaContextOf } from '../sca-context.js';
import { AIS_AUTH } from './ais-consent-routes.js';

const id = { type: 'string', minLength: 1, maxLength: 100 } as const;
const params = (...names: string[]) => ({
  type: 'object',
  required: names,
  properties: Object.fromEntries(names.map((name) => [name, id])),
});
const TAGS = ['account-information'];
const READ_ERRORS = errorResponses(404, 429);
const CONSENT_NOTE =
  'Authorised by the consent the PSU gave in the session PSU-ID and TPP-Session-ID name; without a valid one, 401 with an scaRedirect that gives (or renews) it. Without PSU-IP-Address at most 4 reads a day (RTS 36(5)), then 429 ACCESS_EXCEEDED.';

/** What a read tells the account-information service about itself. */
export function aisRequestOf(request: FastifyRequest, ais: AisService): AisRequest {
  const acceptFix = request.headers['x-accept-fix'];
  return {
    tpp: request.tpp!,
    sca: scaContextOf(request, ais.nationalIdKey),
    psuPresent: typeof request.headers['psu-ip-address'] === 'string',
    retry: request.retry,
    acceptFix: typeof acceptFix === 'string' ? acceptFix : undefined,
  };
}

type Params = Record<string, string>;

/** GET /v1/accounts and its resources (docs/ais.md). */
export function registerAisAccountRoutes(app: FastifyInstance, ais: AisService): void {
  app.get(
    '/v1/accounts',
    {
      config: { api: { auth: AIS_AUTH } },
      schema: {
        summary: 'The accounts the PSU shared',
        description: CONSENT_NOTE,
        tags: TAGS,
        headers: aisReadHeaders(),
        querystring: accountQuery,
        response: { 200: { $ref: 'AccountList#' }, ...READ_ERRORS },
      },
    },
    async (request) =>
      ais.accounts.list(aisRequestOf(request, ais), (request.query as { withBalance?: boolean }).withBalance === true),
  );

  app.get(
    '/v1/accounts/:accountId',
    {
      config: { api: { auth: AIS_AUTH } },
      schema: {
        summary: 'One account the PSU shared',
        description: CONSENT_NOTE,
        tags: TAGS,
        headers: aisReadHeaders(),
        params: params('accountId'),
        querystring: accountQuery,
        response: { 200: { $ref: 'AccountDetailsResponse#' }, ...READ_ERRORS },
      },
    },
    async (request) =>
      ais.accounts.read(
        aisRequestOf(request, ais),
        (request.params as Params).accountId!,
        (request.query as { withBalance?: boolean }).withBalance === true,
      ),
  );

  app.get(
    '/v1/accounts/:accountId/balances',
    {
      config: { api: { auth: AIS_AUTH } },
      schema: {
        summary:
          'The balances of an account: booked, expected (less authorised payments) and available (with the credit line)',
        description: CONSENT_NOTE,
        tags: TAGS,
        headers: aisReadHeaders(),
        params: params('accountId'),
        response: { 200: { $ref: 'ReadAccountBalanceResponse#' }, ...READ_ERRORS },
      },
    },
    async (request) => ais.accounts.readBalances(aisRequestOf(request, ais), (request.params as Params).accountId!),
  );

  app.get(
    '/v1/accounts/:accountId/transactions',
    {
      config: { api: { auth: AIS_AUTH } },
      schema: {
        summary:
          'Transactions of an account: booked in booking-date order a page at a time (_links.next), pending on the first page',
        description: `${CONSENT_NOTE} Transactions booked before 90 days ago need an SCA at most 90 days old: an earlier dateFrom is answered 401 with an scaRedirect that renews it.`,
        tags: TAGS,
        headers: aisReadHeaders(),
        params: params('accountId'),
        querystring: transactionQuery,
        response: { 200: { $ref: 'TransactionsResponse#' }, ...READ_ERRORS },
      },
    },
    async (request) =>
      ais.transactions.list(
        aisRequestOf(request, ais),
        (request.params as Params).accountId!,
        request.query as TransactionListQuery,
      ),
  );

  app.get(
    '/v1/accounts/:accountId/transactions/:transactionId',
    {
      config: { api: { auth: AIS_AUTH } },
      schema: {
        summary: 'One booked transaction of an account, by its stable id',
        description: CONSENT_NOTE,
        tags: TAGS,
        headers: aisReadHeaders(),
        params: params('accountId', 'transactionId'),
        response: { 200: { $ref: 'TransactionDetailsResponse#' }, ...READ_ERRORS },
      },
    },
    async (request) => {
      const { accountId, transactionId } = request.params as Params;
      return ais.transactions.read(aisRequestOf(request, ais), accountId!, transactionId!);
    },
  );
}
