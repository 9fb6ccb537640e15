import type { FastifyInstance } from 'fastify';
import type { AisService, TransactionListQuery } from '../../services/ais-service.js';
import { accountQuery, transactionQuery } from '../schemas/ais-schemas.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { aisReadHeaders } from '../schemas/header-schemas.js';
import { contextOf } from '../hooks/request-context.js';
import { AIS_AUTH } from './ais-consent-routes.js';

const id = { type: 'string', minLength: 1, maxLength: 100 } as const;
const params = (...names: string[]) => ({
  type: 'object',
  required: names,
  properties: Object.fromEntries(names.map((name) => [name, id])),
});
const TAGS = ['account-information'];
const READ_ERRORS = errorResponses(403, 404, 429);
const CONSENT_NOTE =
  'Authorised by the consent the PSU gave in the session PSU-ID and TPP-Session-ID name; without a valid one, 401 with an scaRedirect that gives (or renews) it. Without PSU-IP-Address at most 4 reads a day (RTS 36(5)), then 429 ACCESS_EXCEEDED.';

type AccountQuery = { Querystring: { withBalance?: boolean } };
type AccountParams = { Params: { accountId: string } };

/** GET /v1/accounts and its resources (docs/ais.md), in this order in the OpenAPI document. */
export function registerAisAccountRoutes(app: FastifyInstance, ais: AisService): void {
  registerAccounts(app, ais);
  registerAccountBalances(app, ais);
  registerAccountTransactions(app, ais);
}

function registerAccounts(app: FastifyInstance, ais: AisService): void {
  app.get<AccountQuery>(
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
    async (request) => ais.accounts.list(contextOf(request), request.query.withBalance === true),
  );

  app.get<AccountQuery & AccountParams>(
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
      ais.accounts.read(contextOf(request), request.params.accountId, request.query.withBalance === true),
  );
}

function registerAccountBalances(app: FastifyInstance, ais: AisService): void {
  app.get<AccountParams>(
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
    async (request) => ais.accounts.readBalances(contextOf(request), request.params.accountId),
  );
}

function registerAccountTransactions(app: FastifyInstance, ais: AisService): void {
  app.get<AccountParams & { Querystring: TransactionListQuery }>(
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
    async (request) => ais.transactions.list(contextOf(request), request.params.accountId, request.query),
  );

  app.get<{ Params: { accountId: string; transactionId: string } }>(
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
      const { accountId, transactionId } = request.params;
      return ais.transactions.read(contextOf(request), accountId, transactionId);
    },
  );
}
