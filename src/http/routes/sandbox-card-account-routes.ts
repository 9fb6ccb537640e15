import type { FastifyInstance } from 'fastify';
import type { SandboxDataService } from '../../services/sandbox-data-service.js';
import {
  registerSandboxCreate,
  registerSandboxReadAndDelete,
  registerSandboxTransactions,
} from './sandbox-resource-routes.js';

/** The sandbox's card accounts: create, read, delete. */
export function registerSandboxCardAccountRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  const cards = sandbox.cardAccounts;
  registerSandboxCreate(app, {
    collection: 'card-accounts',
    summary: 'Create a sandbox card account of a customer',
    body: 'SandboxCardAccountCreate#',
    resource: 'SandboxCardAccount#',
    errors: [409, 415],
    create: (ctx, body, problems) => cards.createCardAccount(ctx.tpp, body, ctx.acceptFix, problems),
  });
  registerSandboxReadAndDelete(app, {
    collection: 'card-accounts',
    param: 'mockCardAccountId',
    resource: 'SandboxCardAccount#',
    readSummary: 'Read a sandbox card account',
    deleteSummary: 'Delete a sandbox card account with its transactions',
    read: (tpp, id) => cards.readCardAccount(tpp, id),
    remove: (tpp, id) => cards.deleteCardAccount(tpp, id),
  });
}

/** The transactions of a sandbox card account: post, list, read one. */
export function registerSandboxCardTransactionRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  const transactions = sandbox.cardTransactions;
  registerSandboxTransactions(app, {
    collection: 'card-accounts',
    param: 'mockCardAccountId',
    create: 'SandboxCardTransactionCreate#',
    resource: 'SandboxCardTransaction#',
    summaries: {
      post: 'Post test transactions to a sandbox card account',
      list: 'Read the transactions of a sandbox card account, in posting order, a page at a time',
      read: 'Read one transaction of a sandbox card account',
    },
    add: (tpp, card, body, problems) => transactions.addCardTransactions(tpp, card, body, problems),
    list: (tpp, card, query) => transactions.listCardTransactions(tpp, card, query),
    read: (tpp, card, id) => transactions.readCardTransaction(tpp, card, id),
  });
}
