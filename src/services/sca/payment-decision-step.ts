import { randomUUID } from 'node:crypto';
import type { Customer } from '../../domain/bank.js';
import { productRules } from '../../domain/payments/product-rules.js';
import { EXPIRED_REASON, isSigningWindowOver } from '../../domain/sca.js';
import { isDueNow, mayMove, statusAfterApproval } from '../../domain/payment-lifecycle.js';
import type { Authorisation, PaymentDecision, ScaPayment } from '../../store/sca-records.js';
import type { Store } from '../../store/store.js';
import type { Banks } from '../banks.js';
import type { InstantExecution } from '../instant-execution.js';
import type { AuthorisationSteps, NextStep } from './authorisation-steps.js';
import { type ChangedMeanwhile, type ScaPage, message } from './sca-page.js';
import type { ScaPayments } from './sca-payments.js';
import { backToTpp, returnUrl } from './tpp-redirect.js';

/** When several payments of a basket changed, the page and the TPP are told the first of these that happened. */
const CHANGED_ORDER: readonly ChangedMeanwhile[] = [
  'basket-cancelled',
  'payment-cancelled',
  'payment-rejected',
  'payment-expired',
];

/** What the PSU's answer does to the payments still waiting for it, and what changed while they were on the page. */
interface DecisionPlan {
  decisions: PaymentDecision[];
  changed: ChangedMeanwhile[];
  /** The payments to be approved, by id. */
  approvals: Set<string>;
}

/**
 * The PSU approves or declines the payments of an authorisation (one payment, or a basket's).
 * Payments that cannot be signed by this PSU are rejected either way.
 */
export class PaymentDecisionStep {
  constructor(
    private readonly store: Pick<Store, 'decidePayments' | 'findPaymentsForSca' | 'recordSca'>,
    private readonly banks: Banks,
    private readonly steps: AuthorisationSteps,
    private readonly payments: ScaPayments,
    /** Executes approved instant payments (Straks) before the PSU is sent back; none without it. */
    private readonly instant?: InstantExecution,
    /** A bank's own core: each payment authorised is handed to it (docs/core.md); none with the embedded core. */
    private readonly handOver?: { nudge(): void },
  ) {}

  async decide(
    authorisation: Authorisation,
    stepToken: string,
    customer: Customer,
    approve: boolean,
    now: Date,
  ): Promise<ScaPage> {
    const next: NextStep = { stage: 'done', status: approve ? 'finalised' : 'failed' };
    if ((await this.steps.advance(authorisation, stepToken, next, now)) === undefined)
      return message('link-invalid', undefined);
    const payments = await this.payments.of(authorisation);
    const plan = await this.plan(authorisation, payments, customer, approve, now);
    // decidePayments changes only payments still RCVD: one cancelled since it was read above is left as it is.
    const decided = new Set(
      await this.store.decidePayments(plan.decisions, customer.id, now, this.handOver !== undefined),
    );
    if (plan.approvals.size > 0) this.handOver?.nudge();
    // An instant payment due now is executed within this request: its status is ACSC (or RJCT) when the TPP is told.
    const dueNow = new Set(plan.decisions.filter((d) => isDueNow(d.status)).map((d) => d.paymentId));
    const instant = payments
      .filter((p) => dueNow.has(p.id) && decided.has(p.id) && productRules(p.service, p.product)?.instant)
      .map((p) => p.id);
    await this.instant?.execute(this.banks.of(authorisation.tppId), instant, now);
    const lost = [...plan.approvals].filter((id) => !decided.has(id));
    if (lost.length > 0) {
      for (const payment of await this.store.findPaymentsForSca(authorisation.tppId, lost)) {
        const why = changedMeanwhile(payment, now);
        if (why !== undefined) plan.changed.push(why);
      }
    }
    const approved = plan.approvals.size - lost.length;
    const session = await this.store.recordSca(
      authorisation.tppId,
      customer.id,
      now,
      authorisation.tppSessionId,
      randomUUID(),
    );
    if (!approve) return backToTpp(authorisation, session.psuId, 'declined', 'declined');
    const first = CHANGED_ORDER.find((reason) => plan.changed.includes(reason));
    if (first !== undefined) return message(first, returnUrl(authorisation, session.psuId, first));
    return backToTpp(
      authorisation,
      session.psuId,
      approved === 0 ? 'nothing-to-sign' : undefined,
      approved === 0 ? 'nothing-to-sign' : 'approved',
    );
  }

  private async plan(
    authorisation: Authorisation,
    payments: readonly ScaPayment[],
    customer: Customer,
    approve: boolean,
    now: Date,
  ): Promise<DecisionPlan> {
    const decisions: PaymentDecision[] = [];
    // What changed while the PSU was on the page: a payment cancelled, rejected or expired, a basket withdrawn.
    const changed: ChangedMeanwhile[] =
      payments.length === 0 ? [authorisation.kind === 'basket' ? 'basket-cancelled' : 'payment-cancelled'] : [];
    const approvals = new Set<string>();
    for (const payment of payments) {
      if (!mayMove('approve', payment.status)) {
        // Approved already (on its own link) is what the PSU wants; cancelled or rejected is not.
        const why = changedMeanwhile(payment, now);
        if (why !== undefined) changed.push(why);
        continue;
      }
      const problem = await this.payments.payFromProblem(
        this.banks.of(authorisation.tppId),
        payment,
        customer,
        authorisation.psuCorporateId,
      );
      if (isSigningWindowOver(payment.createdAt, now)) {
        decisions.push({ paymentId: payment.id, status: 'RJCT', reason: EXPIRED_REASON });
        changed.push('payment-expired');
      } else if (!approve) decisions.push({ paymentId: payment.id, status: 'RJCT', reason: 'declined by the PSU' });
      else if (problem !== undefined)
        decisions.push({ paymentId: payment.id, status: 'RJCT', reason: `not approved: ${problem}` });
      else {
        decisions.push({
          paymentId: payment.id,
          status: statusAfterApproval(payment.requestedExecutionDate, now),
          reason: undefined,
        });
        approvals.add(payment.id);
      }
    }
    return { decisions, changed, approvals };
  }
}

/** Why a payment no longer waiting for SCA cannot be approved; undefined when it was approved already (or is still RCVD). */
function changedMeanwhile(payment: ScaPayment, now: Date): ChangedMeanwhile | undefined {
  if (payment.status === 'CANC') return 'payment-cancelled';
  if (payment.status === 'RJCT')
    return isSigningWindowOver(payment.createdAt, now) ? 'payment-expired' : 'payment-rejected';
  return undefined;
}
