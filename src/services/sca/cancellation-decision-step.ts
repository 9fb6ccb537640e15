import { randomUUID } from 'node:crypto';
import type { Customer } from '../../domain/bank.js';
import type { Authorisation } from '../../store/sca-records.js';
import type { Store } from '../../store/store.js';
import type { AuthorisationSteps, NextStep } from './authorisation-steps.js';
import type { PaymentCancellation } from '../core-handover/payment-cancellation.js';
import { type ScaPage, message } from './sca-page.js';
import { backToTpp, returnUrl } from './tpp-redirect.js';

/**
 * The PSU approves or declines the cancellation of a payment they authorised (the platform mandates
 * this SCA, docs/platform-research.md §3.5). Approved, the payment is CANC, as a DELETE makes one not yet
 * authorised; declined, it stays as it was. A payment the batch run took while the PSU was on the
 * page is not cancelled, and the page and the TPP are told so.
 */
export class CancellationDecisionStep {
  constructor(
    private readonly store: Pick<Store, 'recordSca'>,
    private readonly steps: AuthorisationSteps,
    /** Cancels here, or at the bank's own core that holds the payment. */
    private readonly cancellation: PaymentCancellation,
    private readonly bankOf: (tppId: string) => string,
  ) {}

  async decide(
    authorisation: Authorisation,
    stepToken: string,
    customer: Customer,
    approve: boolean,
    now: Date,
  ): Promise<ScaPage> {
    const next: NextStep = { stage: 'done', status: approve ? 'finalised' : 'failed' };
    if (
      (await this.steps.advance(authorisation, stepToken, next, now)) === undefined ||
      authorisation.objectId === undefined
    )
      return message('link-invalid', undefined);
    const session = await this.store.recordSca(
      authorisation.tppId,
      customer.id,
      now,
      authorisation.tppSessionId,
      randomUUID(),
    );
    if (!approve) return backToTpp(authorisation, session.psuId, 'declined', 'cancellation-declined');
    // The authorisation's id stands for the DELETE's X-Request-ID: the cancellation it records is this SCA's.
    const result = await this.cancellation.cancel(
      this.bankOf(authorisation.tppId),
      authorisation.tppId,
      authorisation.objectId,
      now,
      `cancellation-authorisation:${authorisation.id}`,
    );
    if (result.outcome === 'cancelled')
      return backToTpp(authorisation, session.psuId, undefined, 'cancellation-approved');
    if (result.outcome === 'core-unavailable')
      return message('bank-unavailable', returnUrl(authorisation, session.psuId, 'bank-unavailable'));
    return message('cancellation-too-late', returnUrl(authorisation, session.psuId, 'cancellation-too-late'));
  }
}
