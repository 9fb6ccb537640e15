import type { Kysely } from 'kysely';
import type { PaymentToExecute } from '../../domain/payment-execution.js';
import {
  type Course,
  courseOf,
  isPaymentRule,
  matchesPayment,
  settlementOf,
  treatmentOf,
} from '../../domain/sandbox-scenarios.js';
import type { Database } from '../database.js';
import { listPaymentScenarios, spendScenario } from './sandbox-scenario-queries.js';

/** A claimed payment with what the store holds of its hold (migration 019). */
export interface ClaimedForCourse {
  payment: PaymentToExecute;
  debtorBban: string | null;
  debtorIban: string | null;
  heldUntil: string | null;
  heldThen: string | null;
  heldReason: string | null;
}

/**
 * What the batch run (or a Straks payment's SCA) does with each payment it claimed, in the claim's
 * transaction: a payment held until now settles as its rule said; in the sandbox, a payment the
 * bank's armed payment scenarios take (the oldest rule that matches, one of its times spent here, so
 * that no two runs both take its last) is held or rejected; everything else is booked.
 */
export async function coursesOf(
  trx: Kysely<Database>,
  bank: string,
  claimed: readonly ClaimedForCourse[],
  at: Date,
  scenarios: boolean,
): Promise<Map<string, Course>> {
  const courses = new Map<string, Course>();
  const fresh = claimed.filter((c) => c.heldUntil === null);
  for (const c of claimed) {
    if (c.heldUntil !== null)
      courses.set(c.payment.id, settlementOf(c.heldThen === 'RJCT' ? 'RJCT' : 'ACSC', c.heldReason ?? undefined));
  }
  const rules = scenarios && fresh.length > 0 ? await listPaymentScenarios(trx, bank) : [];
  for (const c of fresh) {
    let course: Course = { kind: 'book' };
    for (const scenario of rules) {
      if (!isPaymentRule(scenario.rule) || scenario.timesLeft === 0) continue;
      const facts = {
        debtorBban: c.debtorBban ?? undefined,
        debtorIban: c.debtorIban ?? undefined,
        entries: c.payment.transfers,
      };
      if (!matchesPayment(scenario.rule.match, facts)) continue;
      if (!(await spendScenario(trx, scenario))) {
        scenario.timesLeft = 0;
        continue;
      }
      if (scenario.timesLeft !== undefined) scenario.timesLeft -= 1;
      course = courseOf(treatmentOf(scenario.rule), at);
      break;
    }
    courses.set(c.payment.id, course);
  }
  return courses;
}

/** Writes the holds: each payment PDNG or ACSP until its time, with what it becomes then; out of the batch run's look-up until then. */
export async function holdPayments(
  trx: Kysely<Database>,
  holds: readonly { id: string; course: Extract<Course, { kind: 'hold' }> }[],
  now: string,
): Promise<void> {
  for (const { id, course } of holds) {
    await trx
      .updateTable('payments')
      .set({
        status: course.status,
        held_until: course.until.toISOString(),
        held_then: course.then,
        held_reason: course.reason ?? null,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }
}
