import type { OperationExamples } from './operation-example.js';
import { link } from './operation-example.js';
import { EXAMPLE_NOW, OLA_CURRENT } from './example-values.js';

/**
 * Scenarios a TPP's test arms (docs/scenarios.md): Ola Nordmann's next payment from his current
 * account held pending until 4 January 2027, then rejected for want of funds.
 */

const ID = '53b8d2f5-a1c3-49bc-86f5-79b3647d6530';

const pending = {
  scenarioId: ID,
  kind: 'payment-pending',
  armedAt: EXAMPLE_NOW,
  _links: { self: link(`/v1/sandbox/scenarios/${ID}`, 'DELETE') },
  match: { debtorAccount: { bban: OLA_CURRENT.bban } },
  until: '2027-01-04T08:00:00.000Z',
  then: 'RJCT',
  statusReason:
    "AM04 insufficient funds: the debtor account's balance and credit line do not cover the amount and its fees",
  timesLeft: 1,
};

export const sandboxScenarioExamples: OperationExamples = {
  armSandboxScenario: {
    summary: 'Ola’s next payment from his current account: PDNG until Monday 4 January 2027, 09:00, then RJCT AM04',
    request: {
      kind: 'payment-pending',
      match: { debtorAccount: { bban: OLA_CURRENT.bban } },
      until: '2027-01-04T08:00:00.000Z',
      then: 'RJCT',
      reasonCode: 'AM04',
    },
    answer: { status: 201, body: pending },
  },
  getSandboxScenarioList: {
    summary: 'The one scenario armed in the bank',
    answer: { status: 200, body: [pending] },
  },
  disarmSandboxScenario: {
    summary: 'The scenario disarmed before it matched',
    answer: { status: 204 },
  },
};
