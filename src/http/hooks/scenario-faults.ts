import { setTimeout as delay } from 'node:timers/promises';
import { ApiError } from '../../domain/api-error.js';
import type { BankFault, SandboxScenarios, ScenarioOperations } from '../../services/sandbox/sandbox-scenarios.js';
import { operationIdOfRoute } from '../schemas/operation-ids.js';
import { signedRequestOf } from './authenticate.js';
import type { SometimesWaiting } from './waits-only-when-needed.js';

/** The sandbox's own operations, which no bank fault answers: a test can always read, move and disarm. */
const SANDBOX_PATH = '/v1/sandbox/';

/**
 * The signed operations by operationId, as the routes are added: those of the bank's API, which an
 * armed bank fault may answer for, and the sandbox's own, which it never does. The scenarios' arm
 * checks a body's operationId against it.
 */
export class OperationCatalogue implements ScenarioOperations {
  readonly faultable = new Set<string>();
  readonly sandbox = new Set<string>();

  /** Notes a signed route; its operationId when a fault may answer for it. */
  note(method: string | readonly string[], url: string): string | undefined {
    const operationId = operationIdOfRoute(method, url);
    if (operationId === undefined) return undefined;
    if (url.startsWith(SANDBOX_PATH)) {
      this.sandbox.add(operationId);
      return undefined;
    }
    this.faultable.add(operationId);
    return operationId;
  }
}

/**
 * preValidation of a signed operation of the bank's API, sandbox mode only, after the TPP's bank is
 * entered and before the replay guard (so the X-Request-ID of a refused request stays free for its
 * retry): the bank fault the TPP's test armed for it (docs/scenarios.md). Throttled is 429
 * ACCESS_EXCEEDED and maintenance 503 SERVICE_UNAVAILABLE, both with Retry-After; an error is 500
 * SYSTEM_ERROR; slow answers as ever after the delay, on a timer, so the server answers others
 * meanwhile. The request is marked, so its log line and metrics count it as a scenario, not a fault.
 */
export function answerBankFault(scenarios: SandboxScenarios, operationId: string): SometimesWaiting {
  return (request, reply) => {
    const finding = scenarios.faultFor(signedRequestOf(request).tpp.id, operationId);
    return finding?.then(async (fault) => {
      if (fault === undefined) return;
      request.scenario = fault.rule.kind;
      if (fault.retryAfterSeconds !== undefined) reply.header('Retry-After', String(fault.retryAfterSeconds));
      const refusal = refusalOf(fault);
      if (refusal !== undefined) throw refusal;
      if (fault.rule.kind === 'bank-slow') await delay(fault.rule.delayMs);
    });
  };
}

function refusalOf(fault: BankFault): ApiError | undefined {
  const rule = fault.rule;
  switch (rule.kind) {
    case 'bank-throttled':
      return new ApiError(
        'ACCESS_EXCEEDED',
        `too many requests: send again in ${fault.retryAfterSeconds} seconds (Retry-After; sandbox scenario bank-throttled)`,
      );
    case 'bank-maintenance':
      return new ApiError(
        'SERVICE_UNAVAILABLE',
        `the bank is down for maintenance until ${rule.until.toISOString()} by its clock: send again in ${fault.retryAfterSeconds} seconds (Retry-After; sandbox scenario bank-maintenance)`,
      );
    case 'bank-error':
      // The body of a 500 says nothing of why (error-response.ts); the log line names the scenario.
      return new ApiError('SYSTEM_ERROR', 'sandbox scenario bank-error');
    case 'bank-slow':
      return undefined;
  }
}
