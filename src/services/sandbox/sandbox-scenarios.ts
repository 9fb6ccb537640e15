import type { SandboxDataStore } from '../../store/sandbox-data-store.js';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../domain/api-error.js';
import type { Json } from '../../domain/json.js';
import { MAX_SANDBOX_SCENARIOS_ARMED } from '../../domain/limits.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import {
  type ArmedScenario,
  type BankRule,
  UNLIMITED,
  faultFor,
  retryAfterSeconds,
  ruleView,
} from '../../domain/sandbox-scenarios.js';
import { readScenario } from '../../domain/sandbox-scenario-reading.js';
import type { Banks } from '../banks.js';
import { asObject, unknown } from './sandbox-input.js';
import { link } from './sandbox-links.js';

/** The TPP a request or a console session acts for: its bank is all that is read. */
type TppRef = Pick<TppIdentity, 'id'>;

/** The operations a scenario may name: the bank's API (which faults answer for) and the sandbox's own (which they never do). */
export interface ScenarioOperations {
  faultable: ReadonlySet<string>;
  sandbox: ReadonlySet<string>;
}

/** A bank fault that answers a request: the rule, and the Retry-After it says (throttled, maintenance). */
export interface BankFault {
  rule: BankRule;
  retryAfterSeconds: number | undefined;
}

/**
 * Scenarios on demand (docs/scenarios.md): a TPP's test arms, lists and disarms rules in its sandbox
 * bank; the batch run applies the payment scenarios (store: payment-course-queries.ts), and every
 * signed request of the TPP asks here for the bank fault that answers it.
 */
export class SandboxScenarios {
  constructor(
    private readonly store: SandboxDataStore,
    private readonly banks: Banks,
  ) {}

  async arm(tpp: TppRef, body: unknown, operations: ScenarioOperations): Promise<Json> {
    const bank = this.banks.of(tpp.id);
    const now = await this.banks.now(tpp.id);
    const reading = readScenario(asObject(body), {
      now,
      faultableOperations: operations.faultable,
      sandboxOperations: operations.sandbox,
    });
    if (!reading.ok) throw ApiError.of(reading.problems);
    const scenario: ArmedScenario = {
      id: randomUUID(),
      rule: reading.rule,
      timesLeft: reading.timesLeft,
      createdAt: now,
    };
    if (!(await this.store.armSandboxScenario(bank, scenario, MAX_SANDBOX_SCENARIOS_ARMED, now)))
      throw new ApiError(
        'ACCESS_EXCEEDED',
        `your sandbox bank has ${MAX_SANDBOX_SCENARIOS_ARMED} scenarios armed, the most it keeps; disarm some (DELETE /v1/sandbox/scenarios/{scenarioId}) or start afresh (POST /v1/sandbox/initialize)`,
      );
    return scenarioView(scenario);
  }

  async list(tpp: TppRef): Promise<Json[]> {
    const now = await this.banks.now(tpp.id);
    return (await this.store.listSandboxScenarios(this.banks.of(tpp.id), now)).map(scenarioView);
  }

  async disarm(tpp: TppRef, scenarioId: string): Promise<void> {
    if (!(await this.store.disarmSandboxScenario(this.banks.of(tpp.id), scenarioId)))
      throw unknown('scenarioId', 'scenario', scenarioId);
  }

  /**
   * The bank fault armed for this TPP's request to this operation, with one of its times taken; none
   * when nothing is armed, which the bank's facts held in the process say without a read.
   */
  faultFor(tppId: string, operationId: string): Promise<BankFault | undefined> | undefined {
    const bank = this.banks.of(tppId);
    // Nearly every request: the facts held say nothing is armed, and nothing is waited for.
    if (this.banks.surelyFaultFree(bank)) return undefined;
    return this.armedFaultFor(tppId, bank, operationId);
  }

  private async armedFaultFor(tppId: string, bank: string, operationId: string): Promise<BankFault | undefined> {
    if (!(await this.banks.mayHaveFault(bank))) return undefined;
    let armed = await this.store.listBankFaults(bank);
    if (armed.length === 0) return undefined;
    const now = await this.banks.now(tppId);
    for (;;) {
      const fault = faultFor(armed, operationId, now);
      if (fault === undefined) return undefined;
      if (await this.store.spendSandboxScenario(fault)) {
        return { rule: fault.rule, retryAfterSeconds: retryAfterSeconds(fault.rule, now) };
      }
      // Another request took its last time meanwhile: the next armed rule may still apply.
      armed = armed.filter((s) => s.id !== fault.id);
    }
  }
}

/** An armed scenario as the TPP reads it: the rule as armed, its times left, and how to disarm it. */
function scenarioView(scenario: ArmedScenario): Json {
  const self = `/v1/sandbox/scenarios/${encodeURIComponent(scenario.id)}`;
  return {
    scenarioId: scenario.id,
    ...ruleView(scenario.rule),
    ...(scenario.rule.kind === 'bank-maintenance' ? {} : { timesLeft: scenario.timesLeft ?? UNLIMITED }),
    armedAt: scenario.createdAt.toISOString(),
    _links: { self: link(self, 'DELETE') },
  } as Json;
}
