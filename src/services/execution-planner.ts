import type { Mode } from '../config/config.js';
import { planExecution } from '../domain/payment-execution.js';
import type { ReferenceRates } from '../domain/reference-rates.js';
import { SANDBOX_REGISTRATION_NUMBERS } from '../sandbox/default-data-set.js';
import type { Planner } from '../store/ledger-records.js';

/**
 * How the bank plans each payment it executes (the batch run, a Straks payment at its SCA, a standing
 * order's execution): at the reference rates, with the rules of status-reasons.ts. The sandbox knows
 * its registration numbers (those of the default data set), so a payment to a number there that is no
 * account of the bank is rejected (AC01); production's accounts are the core system's, which this
 * server does not model, so it knows none and lets such a payment leave the bank.
 */
export function executionPlanner(rates: ReferenceRates, mode: Mode): Planner {
  const registrationNumbers: ReadonlySet<string> = mode === 'sandbox' ? SANDBOX_REGISTRATION_NUMBERS : new Set();
  return (payment, debtor, creditorOf) => planExecution(payment, debtor, rates, { creditorOf, registrationNumbers });
}
