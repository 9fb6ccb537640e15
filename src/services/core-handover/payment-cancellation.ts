import { type BankCore, CoreUnavailable } from '../../core/bank-core.js';
import type { HandoverStore } from '../../store/handover-store.js';
import type { CancelResult, Store } from '../../store/store.js';

/** A cancellation's outcome, and one more: the core that holds the payment could not be asked. */
export type CancellationOutcome = CancelResult | { outcome: 'core-unavailable' };

/**
 * Cancels a payment the PSU authorised and then asked to cancel (the cancellation SCA approved),
 * wherever it is: in this server (the embedded core, or a payment not yet handed to the bank's own
 * core: its hand-over is cancelled with it, in one transaction, so it is never sent), or at the
 * bank's own core, which may refuse it (executed already; docs/core.md, "Cancellation").
 */
export class PaymentCancellation {
  constructor(
    private readonly store: Pick<Store, 'cancelPayment'> &
      Pick<HandoverStore, 'cancelUnsentHandover' | 'applyCoreReports'>,
    private readonly core: Pick<BankCore, 'kind' | 'cancelPayment'>,
  ) {}

  async cancel(
    bank: string,
    tppId: string,
    paymentId: string,
    at: Date,
    requestId: string,
  ): Promise<CancellationOutcome> {
    if (this.core.kind === 'embedded') return this.store.cancelPayment(tppId, paymentId, at, requestId);
    const here = await this.store.cancelUnsentHandover(tppId, paymentId, at, requestId);
    if (here === 'cancelled') return { outcome: 'cancelled' };
    if (here === 'not-cancellable') return this.store.cancelPayment(tppId, paymentId, at, requestId);
    let answer: Awaited<ReturnType<BankCore['cancelPayment']>>;
    try {
      answer = await this.core.cancelPayment(bank, paymentId);
    } catch (error) {
      if (error instanceof CoreUnavailable) return { outcome: 'core-unavailable' };
      throw error;
    }
    const status = answer.outcome === 'cancelled' ? 'CANC' : answer.transactionStatus;
    await this.store.applyCoreReports(
      [
        {
          paymentId,
          transactionStatus: status,
          statusReason: answer.outcome === 'cancelled' ? "DS02 cancelled at the PSU's request" : undefined,
          entries: undefined,
          executions: undefined,
          nextExecutionDate: undefined,
          at,
        },
      ],
      at,
    );
    return answer.outcome === 'cancelled' ? { outcome: 'cancelled' } : { outcome: 'not-cancellable', status };
  }
}
