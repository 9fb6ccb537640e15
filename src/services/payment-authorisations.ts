import { ApiError } from '../domain/api-error.js';
import type { ScaStatusAnswer } from './authorisation-service.js';
import { needsCancellationSca } from '../domain/transaction-status.js';
import type { Store } from '../store/store.js';
import type { AuthorisationList, AuthorisationService } from './authorisation-service.js';
import type { Answer } from './idempotent-create.js';
import { paymentLinks } from './payment-links.js';
import type { PaymentReader } from './payment-reader.js';
import type { RequestContext } from './request-context.js';

/** A payment named by its path: /v1/{service}/{product}/{paymentId}. */
export interface PaymentAddress {
  service: string;
  product: string;
  paymentId: string;
}

/** Which of a payment's two lists: its own authorisations, or its cancellation's. */
export type AuthorisationPurpose = 'payment' | 'cancellation';

/**
 * A payment's authorisation sub-resources (Berlin Group): …/authorisations signs the payment,
 * …/cancellation-authorisations signs its cancellation once it was authorised (the platform mandates
 * that SCA, docs/platform-research.md §3.5). Every payment service has both, the same way.
 */
export class PaymentAuthorisations {
  constructor(
    private readonly payments: PaymentReader,
    private readonly store: Pick<Store, 'findBasketOfPayment'>,
    private readonly authorisations: AuthorisationService,
  ) {}

  /**
   * POST …/authorisations: a new SCA link for a payment still waiting for one (its link expired or
   * was used, or it was created without one). POST …/cancellation-authorisations: the SCA of the
   * cancellation of a payment the PSU authorised and the bank has not executed.
   */
  start(request: RequestContext, address: PaymentAddress, purpose: AuthorisationPurpose): Promise<Answer> {
    const check =
      purpose === 'payment'
        ? () => this.checkSignable(request, address)
        : () => this.checkCancellable(request, address);
    return this.authorisations.start(request, listOf(address, purpose), check);
  }

  /** GET of the list: the ids of the payment's authorisations of this purpose, oldest first. */
  async ids(request: RequestContext, address: PaymentAddress, purpose: AuthorisationPurpose): Promise<string[]> {
    await this.payments.read(request, address.service, address.product, address.paymentId);
    return this.authorisations.ids(request, listOf(address, purpose));
  }

  /** GET of one: its scaStatus. */
  async status(
    request: RequestContext,
    address: PaymentAddress,
    purpose: AuthorisationPurpose,
    authorisationId: string,
  ): Promise<ScaStatusAnswer> {
    await this.payments.read(request, address.service, address.product, address.paymentId);
    return this.authorisations.status(request, listOf(address, purpose), authorisationId);
  }

  private async checkSignable(request: RequestContext, { service, product, paymentId }: PaymentAddress): Promise<void> {
    const payment = await this.payments.read(request, service, product, paymentId);
    if (payment.status !== 'RCVD') {
      throw new ApiError(
        'REFERENCE_STATUS_INVALID',
        `payment ${paymentId} is ${payment.status}; only a payment waiting for SCA (RCVD) can be authorised`,
      );
    }
    const basketId = await this.store.findBasketOfPayment(paymentId);
    if (basketId !== undefined) {
      throw new ApiError(
        'REFERENCE_STATUS_INVALID',
        `payment ${paymentId} is in signing basket ${basketId}; it is signed with the basket`,
      );
    }
  }

  /** A payment waiting for its SCA needs none to be cancelled; one executed, rejected or cancelled cannot be. */
  private async checkCancellable(
    request: RequestContext,
    { service, product, paymentId }: PaymentAddress,
  ): Promise<void> {
    const payment = await this.payments.read(request, service, product, paymentId);
    if (needsCancellationSca(payment.status)) return;
    if (payment.status === 'RCVD') {
      throw new ApiError(
        'REFERENCE_STATUS_INVALID',
        `payment ${paymentId} is RCVD: it is not authorised, so DELETE cancels it without an SCA`,
      );
    }
    throw new ApiError(
      'CANCELLATION_INVALID',
      `payment ${paymentId} is ${payment.status} and can no longer be cancelled; a payment can be cancelled until the batch run executes it`,
    );
  }
}

function listOf({ service, product, paymentId }: PaymentAddress, purpose: AuthorisationPurpose): AuthorisationList {
  const links = paymentLinks(service, product, paymentId);
  return purpose === 'payment'
    ? { kind: 'payment', objectId: paymentId, path: links.authorisations }
    : { kind: 'cancellation', objectId: paymentId, path: links.cancellationAuthorisations };
}
