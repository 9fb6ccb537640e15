import { randomUUID } from 'node:crypto';
import type { PaymentOrder } from '../../src/core/core-records.js';
import { ndctBody } from './single-payment-requests.js';

/** A hand-over of a new domestic credit transfer to a core, authorised now, with what `changes` gives instead. */
export function ndctOrder(changes: Partial<PaymentOrder> = {}): PaymentOrder {
  return {
    paymentId: `enc!!core-${randomUUID()}`,
    paymentService: 'payments',
    paymentProduct: 'norwegian-domestic-credit-transfers',
    initiation: ndctBody(),
    transactionFees: { amountMinor: 0n, currency: 'NOK' },
    signerCustomerId: undefined,
    authorisedAt: new Date(),
    ...changes,
  };
}
