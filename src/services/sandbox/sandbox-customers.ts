import type { SandboxDataStore } from '../../store/sandbox-data-store.js';
import { type Json, withWarnings } from '../../domain/json.js';
import type { Problem } from '../../domain/api-error.js';
import { SANDBOX_CUSTOMERS_PAGE_MAX } from '../../domain/limits.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import { customerNumberFindings } from '../../domain/sandbox-rules.js';
import { newBankId } from '../../domain/bank.js';
import type { SandboxCustomer, SandboxCustomerHoldings } from '../../store/sandbox-records.js';
import type { Banks } from '../banks.js';
import { formatAmount } from '../../domain/money.js';
import { amountOf, asObject, conflict, customerTypeOf, reject, unknown, asWarnings } from './sandbox-input.js';
import { link } from './sandbox-links.js';
import type { SandboxLookup } from './sandbox-lookup.js';

/** Sandbox customers: create, read (endpoint 4), list, delete. */
export class SandboxCustomers {
  constructor(
    private readonly store: SandboxDataStore,
    private readonly banks: Banks,
    private readonly lookup: SandboxLookup,
  ) {}

  async createCustomer(tpp: TppIdentity, body: unknown, schemaProblems: Problem[]): Promise<Json> {
    const problems: Problem[] = [];
    const warnings: Problem[] = [];
    const b = asObject(body);
    const type = typeof b.type === 'string' ? customerTypeOf(b.type) : undefined;
    if (typeof b.customerNumber === 'string' && type !== undefined) {
      const found = customerNumberFindings(b.customerNumber, type, '$.customerNumber');
      problems.push(...found.problems);
      warnings.push(...found.warnings);
    }
    const paymentLimitMinor = paymentLimitOf(b.paymentLimit, problems);
    reject(schemaProblems, problems);
    const customerNumber = b.customerNumber as string;
    const customer = {
      id: newBankId(),
      customerNumber,
      name: b.name as string,
      type: type!,
      tppId: tpp.id,
      paymentLimitMinor,
      createdAt: await this.banks.now(tpp.id),
    };
    if (!(await this.store.createSandboxCustomer(this.banks.of(tpp.id), customer))) {
      const existing = await this.store.findSandboxCustomer(this.banks.of(tpp.id), { customerNumber });
      const whose =
        existing === undefined
          ? ''
          : existing.tppId === undefined
            ? ' (a customer of the default data set)'
            : ` (your customer ${existing.id})`;
      throw conflict(
        '$.customerNumber',
        `$.customerNumber: a customer with number ${customerNumber} exists already${whose}; customer numbers are unique in your sandbox bank`,
      );
    }
    return withWarnings(
      customerView(customer, { agreements: [], accountIds: [], cardAccountIds: [] }),
      asWarnings(warnings),
    );
  }

  async readCustomer(tpp: TppIdentity, customerId: string): Promise<Json> {
    const customer = await this.lookup.visibleCustomer(tpp, customerId);
    const holdings = await this.store.sandboxCustomerHoldings(this.banks.of(tpp.id), [customer.id]);
    return customerView(customer, holdings.get(customer.id)!);
  }

  async listCustomers(tpp: TppIdentity, query: { offset?: number; limit?: number }): Promise<Json[]> {
    const customers = await this.store.listSandboxCustomers(
      this.banks.of(tpp.id),
      query.offset ?? 0,
      query.limit ?? SANDBOX_CUSTOMERS_PAGE_MAX,
    );
    const holdings = await this.store.sandboxCustomerHoldings(
      this.banks.of(tpp.id),
      customers.map((c) => c.id),
    );
    return customers.map((c) => customerView(c, holdings.get(c.id)!));
  }

  /**
   * PATCH: a test sets the customer's payment limit (a payment over it is rejected when it executes,
   * AM02), or removes it with null. The answer is the customer as it is now.
   */
  async updateCustomer(tpp: TppIdentity, customerId: string, body: unknown, schemaProblems: Problem[]): Promise<Json> {
    const problems: Problem[] = [];
    const given = asObject(body).paymentLimit;
    const limit = given === null ? null : (paymentLimitOf(given, problems) ?? null);
    reject(schemaProblems, problems);
    if (!(await this.store.updateSandboxCustomerLimit(this.banks.of(tpp.id), customerId, limit)))
      throw unknown('customerId', 'customer', customerId);
    return this.readCustomer(tpp, customerId);
  }

  /** Removes the customer with its accounts, card accounts, agreements, transactions and PSU sessions. */
  async deleteCustomer(tpp: TppIdentity, customerId: string): Promise<void> {
    if (!(await this.store.deleteSandboxCustomer(this.banks.of(tpp.id), customerId)))
      throw unknown('customerId', 'customer', customerId);
  }
}

function customerView(customer: SandboxCustomer, holdings: SandboxCustomerHoldings): Json {
  return {
    customerId: customer.id,
    customerNumber: customer.customerNumber,
    customerType: customer.type,
    customerName: customer.name,
    agreements: holdings.agreements.map((a) => ({ id: a.id, name: a.name, engagements: a.accountIds })),
    accounts: holdings.accountIds,
    cardAccounts: holdings.cardAccountIds,
    ...(customer.paymentLimitMinor === undefined
      ? {}
      : { paymentLimit: formatAmount(customer.paymentLimitMinor, 'NOK') }),
    _links: { self: link(`/v1/sandbox/customers/${encodeURIComponent(customer.id)}`, 'GET', 'DELETE') },
  };
}

/** A payment limit as a body gives it: NOK, more than zero; undefined when none is given (or it cannot be read: the problem says why). */
function paymentLimitOf(value: unknown, problems: Problem[]): bigint | undefined {
  return amountOf(value, 'NOK', '$.paymentLimit', { negative: false, zero: false }, problems);
}
