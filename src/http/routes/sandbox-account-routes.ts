import type { FastifyInstance } from 'fastify';
import type { SandboxDataService } from '../../services/sandbox-data-service.js';
import {
  registerSandboxCreate,
  registerSandboxReadAndDelete,
  registerSandboxTransactions,
} from './sandbox-resource-routes.js';

/** The sandbox's accounts: create, read, delete. */
export function registerSandboxAccountRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  const accounts = sandbox.accounts;
  registerSandboxCreate(app, {
    collection: 'accounts',
    summary: 'Create a sandbox account of a customer',
    body: 'SandboxAccountCreate#',
    resource: 'SandboxAccount#',
    errors: [409, 413, 415],
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
