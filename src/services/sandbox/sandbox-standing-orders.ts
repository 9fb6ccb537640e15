import type { Json } from '../../domain/json.js';
import { MAX_SANDBOX_STANDING_ORDERS_LISTED } from '../../domain/limits/sandbox.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import type { Store } from '../../store/store.js';
import type { Banks } from '../banks.js';
import { paymentLinks } from '../payment-links.js';
import { PERIODIC } from '../periodic-payment-service.js';
import { link } from './sandbox-links.js';
import type { SandboxLookup } from './sandbox-lookup.js';

/**
 * The standing orders running from a sandbox account: where a TPP finds the paymentId of an order it
 * did not create itself, such as Per Hansen's rent in the default data set (docs/sandbox.md). Berlin
 * Group and the platform have no list of a PSU's payments; the sandbox's test-data API is the place.
 */
export class SandboxStandingOrders {
  constructor(
    private readonly store: Pick<Store, 'listStandingOrders'>,
    private readonly banks: Banks,
    private readonly lookup: SandboxLookup,
  ) {}

  async listStandingOrders(tpp: TppIdentity, accountId: string): Promise<Json[]> {
    const account = await this.lookup.visibleAccount(tpp, accountId, 'mockAccountId');
    const bank = this.banks.of(tpp.id);
    const orders = await this.store.listStandingOrders(bank, account, MAX_SANDBOX_STANDING_ORDERS_LISTED);
    return orders.map((order) => {
      const links = paymentLinks(PERIODIC, order.product, order.paymentId);
      const body = order.body as Record<string, unknown>;
      return {
        paymentId: order.paymentId,
        transactionStatus: order.status,
        instructedAmount: body.instructedAmount,
        creditorName: body.creditorName,
        creditorAccount: body.creditorAccount,
        ...(typeof body.remittanceInformationUnstructured === 'string'
          ? { remittanceInformationUnstructured: body.remittanceInformationUnstructured }
          : {}),
        startDate: body.startDate,
        ...(typeof body.endDate === 'string' ? { endDate: body.endDate } : {}),
        frequency: body.frequency,
        ...(typeof body.dayOfExecution === 'string' ? { dayOfExecution: body.dayOfExecution } : {}),
        ...(order.nextExecutionDate === undefined ? {} : { nextExecutionDate: order.nextExecutionDate }),
        _links: { self: link(links.self, 'GET', 'DELETE'), status: link(links.status, 'GET') },
      };
    });
  }
}
