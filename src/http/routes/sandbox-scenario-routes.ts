import type { FastifyInstance } from 'fastify';
import type { SandboxScenarios } from '../../services/sandbox/sandbox-scenarios.js';
import type { OperationCatalogue } from '../hooks/scenario-faults.js';
import { contextOf } from '../hooks/request-context.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { sandboxCreateHeaders, sandboxReadHeaders } from '../schemas/sandbox-schemas.js';
import { SANDBOX_BANK_CREATE_AUTH, SANDBOX_TAGS, created, SANDBOX_READ_AUTH } from './sandbox-route-parts.js';
import { registerSandboxDelete } from './sandbox-resource-routes.js';

/**
 * Scenarios on demand (docs/scenarios.md): a TPP's test arms a rule in its sandbox bank, lists the
 * rules armed, and disarms one. No bank fault ever answers these, so a test can always disarm.
 */
export function registerSandboxScenarioRoutes(
  app: FastifyInstance,
  scenarios: SandboxScenarios,
  catalogue: OperationCatalogue,
): void {
  app.post(
    '/v1/sandbox/scenarios',
    {
      config: { api: { auth: SANDBOX_BANK_CREATE_AUTH } },
      schema: {
        summary:
          "Arm a scenario in this TPP's sandbox bank: a payment held or rejected, or the bank throttled, down, slow or failing",
        description:
          "Payment scenarios apply when the bank executes a matching payment (the batch run, or a Straks payment's SCA); bank scenarios answer this TPP's signed requests to the bank's API (never the sandbox's own operations). A rule runs `times` times (default 1) or until disarmed. docs/scenarios.md has an example of each.",
        tags: SANDBOX_TAGS,
        headers: sandboxCreateHeaders(),
        body: { $ref: 'SandboxScenarioArm#' },
        response: { 201: { $ref: 'SandboxScenario#' }, ...errorResponses(415, 429) },
      },
    },
    async (request, reply) => created(reply, await scenarios.arm(contextOf(request).tpp, request.body, catalogue)),
  );

  app.get(
    '/v1/sandbox/scenarios',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: "List the scenarios armed in this TPP's sandbox bank, oldest first",
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        response: { 200: { type: 'array', items: { $ref: 'SandboxScenario#' } }, ...errorResponses() },
      },
    },
    async (request) => scenarios.list(contextOf(request).tpp),
  );

  registerSandboxDelete(app, {
    wholeBank: true,
    collection: 'scenarios',
    param: 'scenarioId',
    summary: 'Disarm a scenario',
    remove: (tpp, scenarioId) => scenarios.disarm(tpp, scenarioId),
  });
}
