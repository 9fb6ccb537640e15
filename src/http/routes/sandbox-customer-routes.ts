import type { FastifyInstance } from 'fastify';
import type { SandboxDataService } from '../../services/sandbox-data-service.js';
import { contextOf } from '../hooks/request-context.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { customerListQuery, sandboxCreateHeaders, sandboxReadHeaders } from '../schemas/sandbox-schemas.js';
import {
  DELETED,
  SANDBOX_CREATE_AUTH,
  SANDBOX_READ_AUTH,
  SANDBOX_TAGS,
  created,
  sandboxParams,
} from './sandbox-route-parts.js';

type CustomerParams = { Params: { customerId: string } };

/** The sandbox's customers: create, list, read (endpoint 4 of the specification), delete. */
export function registerSandboxCustomerRoutes(app: FastifyInstance, sandbox: SandboxDataService): void {
  app.post(
    '/v1/sandbox/customers',
    {
      config: { api: { auth: SANDBOX_CREATE_AUTH, deferSchemaProblems: true } },
      schema: {
        summary: 'Create a sandbox customer: its customerNumber is the identifier at SCA',
        tags: SANDBOX_TAGS,
        headers: sandboxCreateHeaders(),
        body: { $ref: 'SandboxCustomerCreate#' },
        response: { 201: { $ref: 'SandboxCustomer#' }, ...errorResponses(409, 413, 415) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await sandbox.customers.createCustomer(contextOf(request).tpp, request.body, request.schemaProblems ?? []),
      ),
  );

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
    async (request) => sandbox.customers.listCustomers(contextOf(request).tpp, request.query),
  );

  app.get<CustomerParams>(
    '/v1/sandbox/customers/:customerId',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Read a sandbox customer with its agreements, accounts and card accounts',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('customerId'),
        response: { 200: { $ref: 'SandboxCustomer#' }, ...errorResponses(404) },
      },
    },
    async (request) => sandbox.customers.readCustomer(contextOf(request).tpp, request.params.customerId),
  );

  app.delete<CustomerParams>(
    '/v1/sandbox/customers/:customerId',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Delete a sandbox customer with its accounts, card accounts, agreements and transactions',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: sandboxParams('customerId'),
        response: { ...DELETED, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await sandbox.customers.deleteCustomer(contextOf(request).tpp, request.params.customerId);
      return reply.code(204).send();
    },
  );
}
