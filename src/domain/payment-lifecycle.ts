import type { TransactionStatus } from './transaction-status.js';

/**
 * Which payments the bank's runs take, by status (docs/batch.md): the one place the batch run, the
 * scheduler, the standing orders' run and the hand-over to a core read them from. The store turns
 * them into the conditions of its partial indexes (store/queries/payment-index-conditions.ts), whose
 * migrations wrote the same lists; a test holds the two to each other.
 */

/** Authorised and waiting for a batch run: today's (ACTC), or a later date's (PDNG). */
export const BATCH_TAKES: readonly TransactionStatus[] = ['ACTC', 'PDNG'];

/** What a sandbox scenario may hold until a time, instead of the batch run taking it (docs/scenarios.md). */
export const SCENARIO_HOLDS: readonly TransactionStatus[] = ['PDNG', 'ACSP'];

/** A standing order the bank itself executes, waiting for its next date (rule 6). */
export const STANDING_ORDER_RUNS: readonly TransactionStatus[] = ['ACTC', 'PDNG'];

/**
 * A standing order runs while it waits for its next date here, or once a bank's own core accepted it
 * and runs it (ACSP; docs/core.md, "Standing orders"): then it has a next execution.
 */
export function isRunningOrder(status: string): boolean {
  return (STANDING_ORDER_RUNS as readonly string[]).includes(status) || status === 'ACSP';
}

/** The interface's own statuses before a hand-over to a core: what a core's report never sets (docs/core.md). */
export const BEFORE_HANDOVER: readonly TransactionStatus[] = ['RCVD', 'ACTC'];
