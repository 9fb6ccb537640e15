import type { FastifyInstance } from 'fastify';
import type { SandboxDataService } from '../../services/sandbox-data-service.js';
import { contextOf } from '../hooks/request-context.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { sandboxReadHeaders } from '../schemas/sandbox-schemas.js';
import { SANDBOX_READ_AUTH, SANDBOX_TAGS, sandboxParams } from './sandbox-route-parts.js';
import {
  registerSandboxCreate,
  registerSandboxReadAndDelete,
  registerSandboxTransactions,
  registerSandboxUpdate,
} from './sandbox-resource-routes.js';

/** The sandbox's accounts: create, read, delete. */
export function registerSandboxAccountRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  const accounts = sandbox.accounts;
  registerSandboxCreate(app, {
    collection: 'accounts',
    summary: 'Create a sandbox account of a customer',
    body: 'SandboxAccountCreate#',
    resource: 'SandboxAccount#',
    errors: [409, 415],
    create: (ctx, body, problems) => accounts.createAccount(ctx.tpp, body, ctx.acceptFix, problems),
  });
  registerSandboxReadAndDelete(app, {
    collection: 'accounts',
    param: 'mockAccountId',
    resource: 'SandboxAccount#',
    readSummary: 'Read a sandbox account with its balance now',
    deleteSummary: 'Delete a sandbox account with its transactions and engagements',
    read: (tpp, id) => accounts.readAccount(tpp, id),
    remove: (tpp, id) => accounts.deleteAccount(tpp, id),
  });
  registerSandboxUpdate(app, {
    collection: 'accounts',
    param: 'mockAccountId',
    summary: "Change a sandbox account's status: enabled, blocked or deleted (closed)",
    description:
      'A payment from or to a blocked account is rejected when it executes (statusReason AC06), from or to a deleted one too (AC04); account information shows the status. docs/scenarios.md',
    body: 'SandboxAccountUpdate#',
    resource: 'SandboxAccount#',
    update: (tpp, id, body, problems) => accounts.updateAccount(tpp, id, body, problems),
  });
}

/** The transactions of a sandbox account: post (history), list (endpoint 5 of the specification), read one. */
export function registerSandboxAccountTransactionRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  const transactions = sandbox.accountTransactions;
  registerSandboxTransactions(app, {
    collection: 'accounts',
    param: 'mockAccountId',
    create: 'SandboxTransactionCreate#',
    resource: 'SandboxTransaction#',
    summaries: {
      post: 'Post test transactions to a sandbox account (history: the balance does not change)',
      list: 'Read the transactions of a sandbox account, in posting order, a page at a time',
      read: 'Read one transaction of a sandbox account',
    },
    add: (tpp, account, body, problems) => transactions.addTransactions(tpp, account, body, problems),
    list: (tpp, account, query) => transactions.listTransactions(tpp, account, query),
    read: (tpp, account, id) => transactions.readTransaction(tpp, account, id),
  });
}

/**
 * The standing orders running from a sandbox account: how a TPP finds the paymentId of one it did not
 * create, such as the default data set's (docs/decisions/0239).
 */
export function registerSandboxStandingOrderRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  app.get<{ Params: { mockAccountId: string } }>(
    '/v1/sandbox/accounts/:mockAccountId/standing-orders',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'List the standing orders running from a sandbox account, with their paymentIds',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('mockAccountId'),
        response: { 200: { type: 'array', items: { $ref: 'SandboxStandingOrder#' } }, ...errorResponses(404) },
      },
    },
    async (request) => sandbox.standingOrders.listStandingOrders(contextOf(request).tpp, request.params.mockAccountId),
  );
}
