import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES, MAX_SANDBOX_TRANSACTIONS_PER_REQUEST } from '../../domain/limits.js';
import type { ListQuery, SandboxDataService } from '../../services/sandbox-data-service.js';
import { contextOf } from '../hooks/request-context.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { sandboxCreateHeaders, sandboxReadHeaders, transactionListQuery } from '../schemas/sandbox-schemas.js';
import {
  DELETED,
  SANDBOX_CREATE_AUTH,
  SANDBOX_READ_AUTH,
  SANDBOX_TAGS,
  created,
  sandboxParams,
} from './sandbox-route-parts.js';

type AccountParams = { Params: { mockAccountId: string } };

/** The sandbox's accounts: create, read, delete. */
export function registerSandboxAccountRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  app.post(
    '/v1/sandbox/accounts',
    {
      config: { api: { auth: SANDBOX_CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: 'Create a sandbox account of a customer',
        tags: SANDBOX_TAGS,
        headers: sandboxCreateHeaders(),
        body: { $ref: 'SandboxAccountCreate#' },
        response: { 201: { $ref: 'SandboxAccount#' }, ...errorResponses(409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { tpp, acceptFix } = contextOf(request);
      return created(
        reply,
        await sandbox.accounts.createAccount(tpp, request.body, acceptFix, request.schemaProblems ?? []),
      );
    },
  );

  app.get<AccountParams>(
    '/v1/sandbox/accounts/:mockAccountId',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Read a sandbox account with its balance now',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('mockAccountId'),
        response: { 200: { $ref: 'SandboxAccount#' }, ...errorResponses(404) },
      },
    },
    async (request) => sandbox.accounts.readAccount(contextOf(request).tpp, request.params.mockAccountId),
  );

  app.delete<AccountParams>(
    '/v1/sandbox/accounts/:mockAccountId',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Delete a sandbox account with its transactions and engagements',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('mockAccountId'),
        response: { ...DELETED, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await sandbox.accounts.deleteAccount(contextOf(request).tpp, request.params.mockAccountId);
      return reply.code(204).send();
    },
  );
}

/** The transactions of a sandbox account: post (history), list (endpoint 5 of the specification), read one. */
export function registerSandboxAccountTransactionRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  app.post<AccountParams>(
    '/v1/sandbox/accounts/:mockAccountId/transactions',
    {
      bodyLimit: BODY_LIMIT_BYTES,
      config: { api: { auth: SANDBOX_CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: 'Post test transactions to a sandbox account (history: the balance does not change)',
        tags: SANDBOX_TAGS,
        headers: sandboxCreateHeaders(),
        params: sandboxParams('mockAccountId'),
        body: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_SANDBOX_TRANSACTIONS_PER_REQUEST,
          items: { $ref: 'SandboxTransactionCreate#' },
        },
        response: { 201: { type: 'array', items: { $ref: 'SandboxCreated#' } }, ...errorResponses(404, 413, 415) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await sandbox.accountTransactions.addTransactions(
          contextOf(request).tpp,
          request.params.mockAccountId,
          request.body,
          request.schemaProblems ?? [],
        ),
      ),
  );

  app.get<AccountParams & { Querystring: ListQuery }>(
    '/v1/sandbox/accounts/:mockAccountId/transactions',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Read the transactions of a sandbox account, in posting order, a page at a time',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('mockAccountId'),
        querystring: transactionListQuery,
        response: { 200: { type: 'array', items: { $ref: 'SandboxTransaction#' } }, ...errorResponses(404) },
      },
    },
    async (request) =>
      sandbox.accountTransactions.listTransactions(contextOf(request).tpp, request.params.mockAccountId, request.query),
  );

  app.get<{ Params: { mockAccountId: string; transactionId: string } }>(
    '/v1/sandbox/accounts/:mockAccountId/transactions/:transactionId',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Read one transaction of a sandbox account',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('mockAccountId', 'transactionId'),
        response: { 200: { $ref: 'SandboxTransaction#' }, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { mockAccountId, transactionId } = request.params;
      return sandbox.accountTransactions.readTransaction(contextOf(request).tpp, mockAccountId, transactionId);
    },
  );
}
