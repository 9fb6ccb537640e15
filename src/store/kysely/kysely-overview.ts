import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import * as overview from '../queries/bank-overview-queries.js';
import type {
  ConsentSummary,
  CustomerAccounts,
  PaymentHistory,
  PaymentSummary,
  BankOverviewStore,
} from '../bank-overview-records.js';

/** A bank's lists for its console, the Kysely store's part. */
export class KyselyOverview implements BankOverviewStore {
  constructor(private readonly db: Kysely<Database>) {}

  // A bank's lists, for its console (bank-overview-records.ts).
  listPayments(tppId: string, bankKey: string, limit: number): Promise<PaymentSummary[]> {
    return overview.listPayments(this.db, tppId, bankKey, limit);
  }

  paymentHistory(
    tppId: string,
    bankKey: string,
    paymentId: string,
    limit: number,
  ): Promise<PaymentHistory | undefined> {
    return overview.paymentHistory(this.db, tppId, bankKey, paymentId, limit);
  }

  listConsents(tppId: string, bankKey: string, limit: number): Promise<ConsentSummary[]> {
    return overview.listConsents(this.db, tppId, bankKey, limit);
  }

  customerAccounts(bankKey: string, customerIds: readonly string[]): Promise<CustomerAccounts> {
    return overview.customerAccounts(this.db, bankKey, customerIds);
  }
}
