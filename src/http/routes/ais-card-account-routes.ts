import type { FastifyInstance } from 'fastify';
import type { AisService, TransactionListQuery } from '../../services/ais-service.js';
import { accountQuery, transactionQuery } from '../schemas/ais-schemas.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { aisReadHeaders } from '../schemas/header-schemas.js';
import { contextOf } from '../hooks/request-context.js';
import { AIS_AUTH } from './ais-consent-routes.js';

const params = {
  type: 'object',
  required: ['cardAccountId'],
  properties: { cardAccountId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;
const TAGS = ['account-information'];
const READ_ERRORS = errorResponses(403, 404, 429);
const CONSENT_NOTE =
  'Authorised by the consent the PSU gave in the session PSU-ID and TPP-Session-ID name (card accounts are shared in the private context); without a valid one, 401 with an scaRedirect. Without PSU-IP-Address at most 4 reads a day, then 429 ACCESS_EXCEEDED.';

type CardParams = { Params: { cardAccountId: string } };
type AccountQuery = { Querystring: { withBalance?: boolean } };

/** GET /v1/card-accounts and its resources (docs/ais.md), in this order in the OpenAPI document. */
export function registerAisCardAccountRoutes(app: FastifyInstance, ais: AisService): void {
  registerCardAccounts(app, ais);
  registerCardAccountBalances(app, ais);
  registerCardAccountTransactions(app, ais);
}

function registerCardAccounts(app: FastifyInstance, ais: AisService): void {
  app.get<AccountQuery>(
    '/v1/card-accounts',
    {
      config: { api: { auth: AIS_AUTH } },
      schema: {
        summary: 'The card accounts the PSU shared',
        description: CONSENT_NOTE,
        tags: TAGS,
        headers: aisReadHeaders(),
        querystring: accountQuery,
        response: { 200: { $ref: 'CardAccountList#' }, ...READ_ERRORS },
      },
    },
    async (request) => ais.cardAccounts.list(contextOf(request), request.query.withBalance === true),
  );

  app.get<CardParams & AccountQuery>(
    '/v1/card-accounts/:cardAccountId',
    {
      config: { api: { auth: AIS_AUTH } },
      schema: {
        summary: 'One card account the PSU shared',
        description: CONSENT_NOTE,
        tags: TAGS,
        headers: aisReadHeaders(),
        params,
        querystring: accountQuery,
        response: { 200: { $ref: 'CardAccountDetailsResponse#' }, ...READ_ERRORS },
      },
    },
    async (request) =>
      ais.cardAccounts.read(contextOf(request), request.params.cardAccountId, request.query.withBalance === true),
  );
}

function registerCardAccountBalances(app: FastifyInstance, ais: AisService): void {
  app.get<CardParams>(
    '/v1/card-accounts/:cardAccountId/balances',
    {
      config: { api: { auth: AIS_AUTH } },
      schema: {
        summary: 'The balances of a card account, as given at its creation',
        description: CONSENT_NOTE,
        tags: TAGS,
        headers: aisReadHeaders(),
        params,
        response: { 200: { $ref: 'ReadCardAccountBalanceResponse#' }, ...READ_ERRORS },
      },
    },
    async (request) => ais.cardAccounts.readBalances(contextOf(request), request.params.cardAccountId),
  );
}

function registerCardAccountTransactions(app: FastifyInstance, ais: AisService): void {
  app.get<CardParams & { Querystring: TransactionListQuery }>(
    '/v1/card-accounts/:cardAccountId/transactions',
    {
      config: { api: { auth: AIS_AUTH } },
      schema: {
        summary: 'Transactions of a card account in booking-date order, a page at a time (_links.next)',
        description: `${CONSENT_NOTE} Transactions booked before 90 days ago need an SCA at most 90 days old.`,
        tags: TAGS,
        headers: aisReadHeaders(),
        params,
        querystring: transactionQuery,
        response: { 200: { $ref: 'CardAccountsTransactionsResponse#' }, ...READ_ERRORS },
      },
    },
    async (request) => ais.cardAccounts.transactions(contextOf(request), request.params.cardAccountId, request.query),
  );
}
