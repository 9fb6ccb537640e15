import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BODY_LIMIT_BYTES, MAX_SANDBOX_TRANSACTIONS_PER_REQUEST } from '../../domain/limits.js';
import type { AuthRequirement } from '../../security/tpp-authenticator.js';
import type { ListQuery, SandboxDataService } from '../../services/sandbox-data-service.js';
import { errorResponses } from '../schemas/common-schemas.js';
import {
  customerListQuery,
  sandboxCreateHeaders,
  sandboxReadHeaders,
  transactionListQuery,
} from '../schemas/sandbox-schemas.js';

/** Any PSD2 role may prepare test data (docs/decisions.md); creates carry a Digest of their body. */
const CREATE_AUTH: AuthRequirement = { role: 'any', digestRequired: true, testData: true };
const READ_AUTH: AuthRequirement = { role: 'any', digestRequired: false, testData: true };

const id = { type: 'string', minLength: 1, maxLength: 100 } as const;
const params = (...names: string[]) => ({
  type: 'object',
  required: names,
  properties: Object.fromEntries(names.map((name) => [name, id])),
});
const TAGS = ['sandbox'];
const DELETED = { 204: { description: 'Deleted', type: 'null' } } as const;

type Params = Record<string, string>;

/**
 * The sandbox's test-data API (the platform's mock-data API), sandbox mode only: customers, accounts,
 * agreements, card accounts, their transactions, and initialize (docs/sandbox.md). Endpoints 4 and 5
 * of the specification are GET /v1/sandbox/customers/{customerId} and GET
 * /v1/sandbox/accounts/{mockAccountId}/transactions.
 */
export function registerSandboxRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  const created = (reply: FastifyReply, body: { _links?: { self?: { href: string } } } | unknown[]) => {
    const self = Array.isArray(body) ? undefined : body._links?.self?.href;
    if (self !== undefined) reply.header('Location', self);
    return reply.code(201).send(body);
  };
  const acceptFix = (request: FastifyRequest) => {
    const value = request.headers['x-accept-fix'];
    return typeof value === 'string' ? value : undefined;
  };

  // ---- Customers ----

  app.post(
    '/v1/sandbox/customers',
    {
      config: { api: { auth: CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: 'Create a sandbox customer: its customerNumber is the identifier at SCA',
        tags: TAGS,
        headers: sandboxCreateHeaders(),
        body: { $ref: 'SandboxCustomerCreate#' },
        response: { 201: { $ref: 'SandboxCustomer#' }, ...errorResponses(409, 413, 415) },
      },
    },
    async (request, reply) =>
      created(reply, await sandbox.customers.createCustomer(request.tpp!, request.body, request.schemaProblems ?? [])),
  );

  app.get(
    '/v1/sandbox/customers',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'List the sandbox customers this TPP sees: its own and the default data set',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        querystring: customerListQuery,
        response: { 200: { type: 'array', items: { $ref: 'SandboxCustomer#' } }, ...errorResponses() },
      },
    },
    async (request) =>
      sandbox.customers.listCustomers(request.tpp!, request.query as { offset?: number; limit?: number }),
  );

  app.get(
    '/v1/sandbox/customers/:customerId',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read a sandbox customer with its agreements, accounts and card accounts',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        params: params('customerId'),
        response: { 200: { $ref: 'SandboxCustomer#' }, ...errorResponses(404) },
      },
    },
    async (request) => sandbox.customers.readCustomer(request.tpp!, (request.params as Params).customerId!),
  );

  app.delete(
    '/v1/sandbox/customers/:customerId',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Delete a sandbox customer with its accounts, card accounts, agreements and transactions',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        params: params('customerId'),
        response: { ...DELETED, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await sandbox.customers.deleteCustomer(request.tpp!, (request.params as Params).customerId!);
      return reply.code(204).send();
    },
  );

  // ---- Accounts and their transactions ----

  app.post(
    '/v1/sandbox/accounts',
    {
      config: { api: { auth: CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: 'Create a sandbox account of a customer',
        tags: TAGS,
        headers: sandboxCreateHeaders(),
        body: { $ref: 'SandboxAccountCreate#' },
        response: { 201: { $ref: 'SandboxAccount#' }, ...errorResponses(409, 413, 415) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await sandbox.accounts.createAccount(
          request.tpp!,
          request.body,
          acceptFix(request),
          request.schemaProblems ?? [],
        ),
      ),
  );

  app.get(
    '/v1/sandbox/accounts/:mockAccountId',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read a sandbox account with its balance now',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        params: params('mockAccountId'),
        response: { 200: { $ref: 'SandboxAccount#' }, ...errorResponses(404) },
      },
    },
    async (request) => sandbox.accounts.readAccount(request.tpp!, (request.params as Params).mockAccountId!),
  );

  app.delete(
    '/v1/sandbox/accounts/:mockAccountId',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Delete a sandbox account with its transactions and engagements',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        params: params('mockAccountId'),
        response: { ...DELETED, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await sandbox.accounts.deleteAccount(request.tpp!, (request.params as Params).mockAccountId!);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v1/sandbox/accounts/:mockAccountId/transactions',
    {
      bodyLimit: BODY_LIMIT_BYTES,
      config: { api: { auth: CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: 'Post test transactions to a sandbox account (history: the balance does not change)',
        tags: TAGS,
        headers: sandboxCreateHeaders(),
        params: params('mockAccountId'),
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
          request.tpp!,
          (request.params as Params).mockAccountId!,
          request.body,
          request.schemaProblems ?? [],
        ),
      ),
  );

  app.get(
    '/v1/sandbox/accounts/:mockAccountId/transactions',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read the transactions of a sandbox account, in posting order, a page at a time',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        params: params('mockAccountId'),
        querystring: transactionListQuery,
        response: { 200: { type: 'array', items: { $ref: 'SandboxTransaction#' } }, ...errorResponses(404) },
      },
    },
    async (request) =>
      sandbox.accountTransactions.listTransactions(
        request.tpp!,
        (request.params as Params).mockAccountId!,
        request.query as ListQuery,
      ),
  );

  app.get(
    '/v1/sandbox/accounts/:mockAccountId/transactions/:transactionId',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read one transaction of a sandbox account',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        params: params('mockAccountId', 'transactionId'),
        response: { 200: { $ref: 'SandboxTransaction#' }, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { mockAccountId, transactionId } = request.params as Params;
      return sandbox.accountTransactions.readTransaction(request.tpp!, mockAccountId!, transactionId!);
    },
  );

  // ---- Agreements ----

  app.post(
    '/v1/sandbox/agreements',
    {
      config: { api: { auth: CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: "Create a corporate agreement: people engaged on the owner's accounts with roles VIEW and REGISTER",
        tags: TAGS,
        headers: sandboxCreateHeaders(),
        body: { $ref: 'SandboxAgreementCreate#' },
        response: { 201: { $ref: 'SandboxAgreement#' }, ...errorResponses(413, 415) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await sandbox.agreements.createAgreement(request.tpp!, request.body, request.schemaProblems ?? []),
      ),
  );

  app.get(
    '/v1/sandbox/agreements/:agreementId',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read a corporate agreement',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        params: params('agreementId'),
        response: { 200: { $ref: 'SandboxAgreement#' }, ...errorResponses(404) },
      },
    },
    async (request) => sandbox.agreements.readAgreement(request.tpp!, (request.params as Params).agreementId!),
  );

  app.delete(
    '/v1/sandbox/agreements/:agreementId',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Delete a corporate agreement (the accounts stay)',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        params: params('agreementId'),
        response: { ...DELETED, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await sandbox.agreements.deleteAgreement(request.tpp!, (request.params as Params).agreementId!);
      return reply.code(204).send();
    },
  );

  // ---- Card accounts and their transactions ----

  app.post(
    '/v1/sandbox/card-accounts',
    {
      config: { api: { auth: CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: 'Create a sandbox card account of a customer',
        tags: TAGS,
        headers: sandboxCreateHeaders(),
        body: { $ref: 'SandboxCardAccountCreate#' },
        response: { 201: { $ref: 'SandboxCardAccount#' }, ...errorResponses(409, 413, 415) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await sandbox.cardAccounts.createCardAccount(
          request.tpp!,
          request.body,
          acceptFix(request),
          request.schemaProblems ?? [],
        ),
      ),
  );

  app.get(
    '/v1/sandbox/card-accounts/:mockCardAccountId',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read a sandbox card account',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        params: params('mockCardAccountId'),
        response: { 200: { $ref: 'SandboxCardAccount#' }, ...errorResponses(404) },
      },
    },
    async (request) =>
      sandbox.cardAccounts.readCardAccount(request.tpp!, (request.params as Params).mockCardAccountId!),
  );

  app.delete(
    '/v1/sandbox/card-accounts/:mockCardAccountId',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Delete a sandbox card account with its transactions',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        params: params('mockCardAccountId'),
        response: { ...DELETED, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await sandbox.cardAccounts.deleteCardAccount(request.tpp!, (request.params as Params).mockCardAccountId!);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v1/sandbox/card-accounts/:mockCardAccountId/transactions',
    {
      bodyLimit: BODY_LIMIT_BYTES,
      config: { api: { auth: CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: 'Post test transactions to a sandbox card account',
        tags: TAGS,
        headers: sandboxCreateHeaders(),
        params: params('mockCardAccountId'),
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
        await sandbox.cardTransactions.addCardTransactions(
          request.tpp!,
          (request.params as Params).mockCardAccountId!,
          request.body,
          request.schemaProblems ?? [],
        ),
      ),
  );

  app.get(
    '/v1/sandbox/card-accounts/:mockCardAccountId/transactions',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read the transactions of a sandbox card account, in posting order, a page at a time',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        params: params('mockCardAccountId'),
        querystring: transactionListQuery,
        response: { 200: { type: 'array', items: { $ref: 'SandboxCardTransaction#' } }, ...errorResponses(404) },
      },
    },
    async (request) =>
      sandbox.cardTransactions.listCardTransactions(
        request.tpp!,
        (request.params as Params).mockCardAccountId!,
        request.query as ListQuery,
      ),
  );

  app.get(
    '/v1/sandbox/card-accounts/:mockCardAccountId/transactions/:transactionId',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: 'Read one transaction of a sandbox card account',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        params: params('mockCardAccountId', 'transactionId'),
        response: { 200: { $ref: 'SandboxCardTransaction#' }, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { mockCardAccountId, transactionId } = request.params as Params;
      return sandbox.cardTransactions.readCardTransaction(request.tpp!, mockCardAccountId!, transactionId!);
    },
  );

  // ---- Initialize ----

  app.post(
    '/v1/sandbox/initialize',
    {
      config: { api: { auth: READ_AUTH } },
      schema: {
        summary: "Reset this TPP's sandbox bank to the default data set (other TPPs' banks are untouched)",
        description:
          'Takes no body, so Digest is optional here (checked when sent). PSU sessions of the deleted customers go with them.',
        tags: TAGS,
        headers: sandboxReadHeaders(),
        response: { 200: { $ref: 'SandboxInitialized#' }, ...errorResponses() },
      },
    },
    async (request) => sandbox.initializer.initialize(request.tpp!),
  );
}
