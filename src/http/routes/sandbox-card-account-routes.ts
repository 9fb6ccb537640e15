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

type CardAccountParams = { Params: { mockCardAccountId: string } };

/** The sandbox's card accounts: create, read, delete. */
export function registerSandboxCardAccountRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  app.post(
    '/v1/sandbox/card-accounts',
    {
      config: { api: { auth: SANDBOX_CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: 'Create a sandbox card account of a customer',
        tags: SANDBOX_TAGS,
        headers: sandboxCreateHeaders(),
        body: { $ref: 'SandboxCardAccountCreate#' },
        response: { 201: { $ref: 'SandboxCardAccount#' }, ...errorResponses(409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { tpp, acceptFix } = contextOf(request);
      return created(
        reply,
        await sandbox.cardAccounts.createCardAccount(tpp, request.body, acceptFix, request.schemaProblems ?? []),
      );
    },
  );

  app.get<CardAccountParams>(
    '/v1/sandbox/card-accounts/:mockCardAccountId',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Read a sandbox card account',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('mockCardAccountId'),
        response: { 200: { $ref: 'SandboxCardAccount#' }, ...errorResponses(404) },
      },
    },
    async (request) => sandbox.cardAccounts.readCardAccount(contextOf(request).tpp, request.params.mockCardAccountId),
  );

  app.delete<CardAccountParams>(
    '/v1/sandbox/card-accounts/:mockCardAccountId',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Delete a sandbox card account with its transactions',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('mockCardAccountId'),
        response: { ...DELETED, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await sandbox.cardAccounts.deleteCardAccount(contextOf(request).tpp, request.params.mockCardAccountId);
      return reply.code(204).send();
    },
  );
}

/** The transactions of a sandbox card account: post, list, read one. */
export function registerSandboxCardTransactionRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  const transactions = sandbox.cardTransactions;
  app.post<CardAccountParams>(
    '/v1/sandbox/card-accounts/:mockCardAccountId/transactions',
    {
      bodyLimit: BODY_LIMIT_BYTES,
      config: { api: { auth: SANDBOX_CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: 'Post test transactions to a sandbox card account',
        tags: SANDBOX_TAGS,
        headers: sandboxCreateHeaders(),
        params: sandboxParams('mockCardAccountId'),
        body: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_SANDBOX_TRANSACTIONS_PER_REQUEST,
          items: { $ref: 'SandboxCardTransactionCreate#' },
        },
        response: { 201: { type: 'array', items: { $ref: 'SandboxCreated#' } }, ...errorResponses(404, 413, 415) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await transactions.addCardTransactions(
          contextOf(request).tpp,
          request.params.mockCardAccountId,
          request.body,
          request.schemaProblems ?? [],
        ),
      ),
  );

  app.get<CardAccountParams & { Querystring: ListQuery }>(
    '/v1/sandbox/card-accounts/:mockCardAccountId/transactions',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Read the transactions of a sandbox card account, in posting order, a page at a time',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('mockCardAccountId'),
        querystring: transactionListQuery,
        response: { 200: { type: 'array', items: { $ref: 'SandboxCardTransaction#' } }, ...errorResponses(404) },
      },
    },
    async (request) =>
      transactions.listCardTransactions(contextOf(request).tpp, request.params.mockCardAccountId, request.query),
  );

  app.get<{ Params: { mockCardAccountId: string; transactionId: string } }>(
    '/v1/sandbox/card-accounts/:mockCardAccountId/transactions/:transactionId',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Read one transaction of a sandbox card account',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('mockCardAccountId', 'transactionId'),
        response: { 200: { $ref: 'SandboxCardTransaction#' }, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { mockCardAccountId, transactionId } = request.params;
      return transactions.readCardTransaction(contextOf(request).tpp, mockCardAccountId, transactionId);
    },
  );
}
