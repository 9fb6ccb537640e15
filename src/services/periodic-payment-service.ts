import { isRunningOrder } from '../domain/payment-lifecycle.js';
import type { PeriodicOrderState } from '../store/periodic-records.js';
import type { Store, StoredPayment } from '../store/store.js';
import type { PaymentInitiationService } from './payment-initiation-service.js';
import { type Link, paymentAnswerLinks } from './payment-links.js';
import type { RequestContext } from './request-context.js';

/** The service of standing orders in the path. */
export const PERIODIC = 'periodic-payments';

/** A standing order as its reads answer it: the payment, its next execution and its latest executions. */
export interface PeriodicOrderView {
  payment: StoredPayment;
  order: PeriodicOrderState;
  /** Its links as they stand, as every payment's status and read give them (paymentAnswerLinks). */
  links: Record<string, Link>;
}

/**
 * Reads of standing orders (periodic payments). They are created, authorised and cancelled as every
 * payment is (PaymentInitiationService); what is their own is the schedule they execute on, read
 * here, and their executions (PeriodicRunner). Ending an authorised order is Store.cancelPayment: its
 * status becomes CANC, no execution is due after it, and the executions made stay booked.
 */
export class PeriodicPaymentService {
  constructor(
    private readonly payments: PaymentInitiationService,
    private readonly store: Pick<Store, 'findPeriodicOrder'>,
  ) {}

  async read(
    request: Pick<RequestContext, 'tpp' | 'bank'>,
    product: string,
    paymentId: string,
  ): Promise<PeriodicOrderView> {
    const payment = await this.payments.read(request, PERIODIC, product, paymentId);
    const order = (await this.store.findPeriodicOrder(payment.id)) ?? { nextExecutionDate: undefined, executions: [] };
    return {
      payment,
      // A standing order that waits for its SCA, or was refused or cancelled, has no next execution.
      order: isRunningOrder(payment.status) ? order : { ...order, nextExecutionDate: undefined },
      links: paymentAnswerLinks(PERIODIC, product, payment.id, payment.status),
    };
  }
}

/** The order's own fields of its reads. */
export function orderFields(view: PeriodicOrderView): Record<string, unknown> {
  return {
    ...(view.order.nextExecutionDate === undefined ? {} : { nextExecutionDate: view.order.nextExecutionDate }),
    executions: view.order.executions.map((e) => ({
      executionDate: e.executionDate,
      transactionStatus: e.status,
      ...(e.statusReason === undefined ? {} : { statusReason: e.statusReason }),
    })),
  };
}
