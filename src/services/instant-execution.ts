import type { Mode } from '../config/config.js';
import { osloDate } from '../domain/clock.js';
import type { ReferenceRates } from '../domain/reference-rates.js';
import type { Planner } from '../store/ledger-records.js';
import type { Store } from '../store/store.js';
import { executionPlanner } from './execution-planner.js';

/**
 * Executes instant payments (Straks) at once, within the request in which the PSU approves them,
 * through the batch run's own ledger step: the store claims each payment in its transaction, so a
 * payment is executed once even if a batch run reaches it at the same moment, and one whose execution
 * here did not happen (a crash after the approval) is executed by the next batch run instead. The
 * funds are checked as the batch run checks them: not covered, RJCT with the reason.
 */
export class InstantExecution {
  private readonly plan: Planner;
  /** The sandbox's armed payment scenarios apply to a Straks payment too (docs/scenarios.md). */
  private readonly scenarios: boolean;

  constructor(
    private readonly store: Pick<Store, 'executePayments'>,
    rates: ReferenceRates,
    mode: Mode,
  ) {
    this.plan = executionPlanner(rates, mode);
    this.scenarios = mode === 'sandbox';
  }

  async execute(bank: string, paymentIds: readonly string[], now: Date): Promise<void> {
    if (paymentIds.length === 0) return;
    await this.store.executePayments(bank, paymentIds, osloDate(now), now, this.plan, this.scenarios);
  }
}
