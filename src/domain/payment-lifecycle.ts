import { osloDate } from './clock.js';
import { CANCELLABLE_STATUSES, type TransactionStatus } from './transaction-status.js';

/**
 * A payment's life, by its transactionStatus: every move the bank makes, and which payments its runs
 * take or hold (docs/batch.md, "Lifecycle", is this table in words). The store's queries write a
 * status only along a move of this table, and read its lists for their conditions; the store turns
 * the lists into the conditions of its partial indexes (store/queries/payment-index-conditions.ts),
 * whose migrations wrote the same lists, and a test holds the two to each other (docs/decisions/0318).
 */

/** Authorised and waiting for a batch run: today's (ACTC), or a later date's (PDNG). */
export const BATCH_TAKES: readonly TransactionStatus[] = ['ACTC', 'PDNG'];

/** What a sandbox scenario may hold until a time, instead of the batch run taking it (docs/scenarios.md). */
export const SCENARIO_HOLDS: readonly TransactionStatus[] = ['PDNG', 'ACSP'];

/** A standing order the bank itself executes, waiting for its next date (rule 6). */
export const STANDING_ORDER_RUNS: readonly TransactionStatus[] = ['ACTC', 'PDNG'];

/** The interface's own statuses before a hand-over to a core: what a core's report never sets (docs/core.md). */
export const BEFORE_HANDOVER: readonly TransactionStatus[] = ['RCVD', 'ACTC'];

/**
 * Payments that no longer count as logical duplicates of a new one: they will never be executed.
 * Both creates read it: SQLite's statement (store/sqlite/sqlite-hot-path.ts) and PostgreSQL's
 * function (migration 009's text), which a test holds to this list.
 */
export const ENDED_WITHOUT_EXECUTION: readonly TransactionStatus[] = ['RJCT', 'CANC'];

/** What a payment is while a run books it: taken, and not yet executed or rejected. */
export const TAKEN: TransactionStatus = 'ACSP';

/** One move: from which statuses, to which, and what makes it. */
export interface Move {
  readonly from: readonly TransactionStatus[];
  readonly to: readonly TransactionStatus[];
  readonly by: string;
}

/** Every move of a payment the bank makes, by name. */
export const LIFECYCLE = {
  approve: {
    from: ['RCVD'],
    to: ['ACTC', 'PDNG'],
    by: 'the PSU approves it in SCA: ACTC when it is due today, PDNG when it asks for a later date',
  },
  refuse: {
    from: ['RCVD'],
    to: ['RJCT'],
    by: 'the PSU declines it, the bank refuses to debit the account, or its signing window passes',
  },
  cancel: {
    from: [...CANCELLABLE_STATUSES],
    to: ['CANC'],
    by: "the TPP's DELETE, through a cancellation SCA once the PSU authorised it",
  },
  take: {
    from: BATCH_TAKES,
    to: [TAKEN],
    by: 'a batch run, or the approval of an instant payment, takes it on its date',
  },
  release: {
    from: SCENARIO_HOLDS,
    to: [TAKEN],
    by: 'a run takes what a sandbox scenario held, once its time came',
  },
  hold: {
    from: [TAKEN],
    to: SCENARIO_HOLDS,
    by: 'an armed sandbox scenario holds what a run took, until a time',
  },
  settle: {
    from: [TAKEN],
    to: ['ACSC', 'PART', 'RJCT'],
    by: 'the run books it: executed, a bulk in part, or rejected for its reason',
  },
  report: {
    from: [...BEFORE_HANDOVER, 'ACSP', 'PDNG'],
    to: ['ACSP', 'PDNG', 'ACSC', 'PART', 'RJCT', 'CANC'],
    by: "a bank's own core reports on a payment handed to it",
  },
  endOrder: {
    from: [...STANDING_ORDER_RUNS, 'ACSP'],
    to: ['CANC'],
    by: "a sandbox data set's reload ends the standing orders it loaded before",
  },
} as const satisfies Record<string, Move>;

export type MoveName = keyof typeof LIFECYCLE;

/** Whether a payment in status `from` may make the move. */
export function mayMove(name: MoveName, from: TransactionStatus): boolean {
  const move: Move = LIFECYCLE[name];
  return move.from.includes(from);
}

/** The status an approved payment takes: due today (ACTC), or waiting for its later date (PDNG). */
export function statusAfterApproval(requestedExecutionDate: string | undefined, now: Date): TransactionStatus {
  return requestedExecutionDate !== undefined && requestedExecutionDate > osloDate(now) ? 'PDNG' : 'ACTC';
}

/** Whether an approved payment is due at once: what instant execution executes within the approval. */
export function isDueNow(status: TransactionStatus): boolean {
  return status === 'ACTC';
}

/**
 * A standing order runs while it waits for its next date here, or once a bank's own core accepted it
 * and runs it (ACSP; docs/core.md, "Standing orders"): then it has a next execution.
 */
export function isRunningOrder(status: string): boolean {
  return (STANDING_ORDER_RUNS as readonly string[]).includes(status) || status === 'ACSP';
}
