import type { FastifyInstance } from 'fastify';
import type { SandboxDataService } from '../../services/sandbox-data-service.js';
import { contextOf } from '../hooks/request-context.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { sandboxReadHeaders } from '../schemas/sandbox-schemas.js';
import {
  registerSandboxAccountRoutes,
  registerSandboxAccountTransactionRoutes,
  registerSandboxStandingOrderRoutes,
} from './sandbox-account-routes.js';
import { registerSandboxAgreementRoutes } from './sandbox-agreement-routes.js';
import {
  registerSandboxCardAccountRoutes,
  registerSandboxCardTransactionRoutes,
} from './sandbox-card-account-routes.js';
import { registerSandboxCustomerRoutes } from './sandbox-customer-routes.js';
import { SANDBOX_TAGS, SANDBOX_BANK_READ_AUTH } from './sandbox-route-parts.js';
import { registerSandboxScenarioRoutes } from './sandbox-scenario-routes.js';
import type { OperationCatalogue } from '../hooks/scenario-faults.js';

/**
 * The sandbox's test-data API (the platform's mock-data API), sandbox mode only: customers, accounts,
 * agreements, card accounts, their transactions, initialize (docs/sandbox.md), and the scenarios a
 * test arms (docs/scenarios.md), one resource a
 * function, added in this order (the OpenAPI document's). Endpoints 4 and 5 of the specification are
 * GET /v1/sandbox/customers/{customerId} and GET /v1/sandbox/accounts/{mockAccountId}/transactions.
 */
export function registerSandboxRoutes(
  app: FastifyInstance,
  sandbox: SandboxDataService,
  catalogue: OperationCatalogue,
): void {
  registerSandboxCustomerRoutes(app, sandbox);
  registerSandboxAccountRoutes(app, sandbox);
  registerSandboxAccountTransactionRoutes(app, sandbox);
  registerSandboxStandingOrderRoutes(app, sandbox);
  registerSandboxAgreementRoutes(app, sandbox);
  registerSandboxCardAccountRoutes(app, sandbox);
  registerSandboxCardTransactionRoutes(app, sandbox);
  registerSandboxInitialize(app, sandbox);
  registerSandboxScenarioRoutes(app, sandbox.scenarios, catalogue);
}

/** POST /v1/sandbox/initialize: the TPP's bank back to the default data set. */
function registerSandboxInitialize(app: FastifyInstance, sandbox: SandboxDataService): void {
  app.post(
    '/v1/sandbox/initialize',
    {
      config: { api: { auth: SANDBOX_BANK_READ_AUTH }, bulk: true },
      schema: {
        summary: "Reset this TPP's sandbox bank to the default data set (other TPPs' banks are untouched)",
        description:
          'Takes no body, so Digest is optional here (checked when sent). PSU sessions of the deleted customers go with them.',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        response: { 200: { $ref: 'SandboxInitialized#' }, ...errorResponses(409, 429) },
      },
    },
    async (request) => sandbox.initializer.initialize(contextOf(request).tpp),
  );
}
