import type { Customer } from '../../domain/bank.js';
import { debtorAccountProblem, type HoldingsCore } from '../debtor-account.js';
import { EXPIRED_REASON, isSigningWindowOver } from '../../domain/sca.js';
import type { Authorisation, ScaPayment } from '../../store/sca-records.js';
import type { Store } from '../../store/store.js';
import { type ScaPage, message } from './sca-page.js';
import { failureRedirect } from './tpp-redirect.js';

/** The payments an authorisation signs (one payment's, or a basket's), as the SCA page reads them. */
export class ScaPayments {
  constructor(
    private readonly store: Pick<Store, 'findPaymentsForSca' | 'findBasket' | 'decidePayments'>,
    private readonly core: HoldingsCore,
  ) {}

  async of(authorisation: Authorisation): Promise<ScaPayment[]> {
    if (authorisation.objectId === undefined || authorisation.kind === 'consent') return [];
    if (authorisation.kind === 'payment' || authorisation.kind === 'cancellation')
      return this.store.findPaymentsForSca(authorisation.tppId, [authorisation.objectId]);
    const basket = await this.store.findBasket(authorisation.tppId, authorisation.objectId);
    return basket === undefined ? [] : this.store.findPaymentsForSca(authorisation.tppId, basket.paymentIds);
  }

  /** Payments whose signing window has passed are rejected when their link is opened; nothing to sign is no page to show. */
  async expired(authorisation: Authorisation, now: Date): Promise<ScaPage | undefined> {
    // A cancellation's payment was authorised: its signing window is over and does not matter.
    if (authorisation.kind === 'session' || authorisation.kind === 'consent' || authorisation.kind === 'cancellation')
      return undefined;
    const payments = await this.of(authorisation);
    // A basket deleted since its link was issued has nothing left to sign.
    if (payments.length === 0) return message('link-invalid', undefined);
    const expired = payments.filter((p) => p.status === 'RCVD' && isSigningWindowOver(p.createdAt, now));
    if (expired.length === 0 || expired.length < payments.length) return undefined;
    await this.store.decidePayments(
      expired.map((p) => ({ paymentId: p.id, status: 'RJCT', reason: EXPIRED_REASON })),
      undefined,
      now,
    );
    return message('payment-expired', failureRedirect(authorisation, 'payment-expired'));
  }

  /** Why the signer cannot pay `payment` from its debtor account (for the agreement they act for), if they cannot. */
  payFromProblem(
    bank: string,
    payment: ScaPayment,
    signer: Customer,
    corporateId: string | undefined,
  ): Promise<string | undefined> {
    return debtorAccountProblem(
      this.core,
      bank,
      { bban: payment.debtorBban, iban: payment.debtorIban },
      signer,
      payment.psuCorporateId ?? corporateId,
    );
  }
}
