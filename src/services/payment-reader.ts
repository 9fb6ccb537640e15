import type { StoredPayment } from '../store/store.js';
import type { RequestContext } from './request-context.js';

/**
 * Reads a payment of the request's TPP as it stands by its bank's clock (PaymentInitiationService):
 * what a payment's authorisations (payment-authorisations.ts) check the payment with, without
 * depending on the service that makes them.
 */
export interface PaymentReader {
  read(
    request: Pick<RequestContext, 'tpp' | 'bank'>,
    service: string,
    product: string,
    paymentId: string,
  ): Promise<StoredPayment>;
}
