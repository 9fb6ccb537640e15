import type { FastifyInstance } from 'fastify';
import type { SandboxDataService } from '../../services/sandbox-data-service.js';
import { contextOf } from '../hooks/request-context.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { customerListQuery, sandboxReadHeaders } from '../schemas/sandbox-schemas.js';
import { SANDBOX_READ_AUTH, SANDBOX_TAGS } from './sandbox-route-parts.js';
import {
  registerSandboxCreate,
  registerSandboxReadAndDelete,
  registerSandboxUpdate,
} from './sandbox-resource-routes.js';

/** The sandbox's customers: create, list, read (endpoint 4 of the specification), delete. */
export function registerSandboxCustomerRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  const customers = sandbox.customers;
  registerSandboxCreate(app, {
    collection: 'customers',
    summary: 'Create a sandbox customer: its customerNumber is the identifier at SCA',
    body: 'SandboxCustomerCreate#',
    resource: 'SandboxCustomer#',
    errors: [409, 415],
    create: (ctx, body, problems) => customers.createCustomer(ctx.tpp, body, problems),
  });

  app.get<{ Querystring: { offset?: number; limit?: number } }>(
    '/v1/sandbox/customers',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'List the sandbox customers this TPP sees: its own and the default data set',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        querystring: customerListQuery,
        response: { 200: { type: 'array', items: { $ref: 'SandboxCustomer#' } }, ...errorResponses() },
      },
    },
    async (request) => customers.listCustomers(contextOf(request).tpp, request.query),
  );

  registerSandboxReadAndDelete(app, {
    collection: 'customers',
    param: 'customerId',
    resource: 'SandboxCustomer#',
    readSummary: 'Read a sandbox customer with its agreements, accounts and card accounts',
    deleteSummary: 'Delete a sandbox customer with its accounts, card accounts, agreements and transactions',
    read: (tpp, id) => customers.readCustomer(tpp, id),
    remove: (tpp, id) => customers.deleteCustomer(tpp, id),
  });
  registerSandboxUpdate(app, {
    collection: 'customers',
    param: 'customerId',
    summary: "Set or remove a sandbox customer's payment limit",
    description:
      'A payment (or a bulk entry) the customer signs over the limit is rejected when it executes (statusReason AM02). null removes the limit. docs/scenarios.md',
    body: 'SandboxCustomerUpdate#',
    resource: 'SandboxCustomer#',
    update: (tpp, id, body, problems) => customers.updateCustomer(tpp, id, body, problems),
  });
}
