import type { Account, Agreement, Customer, Engagement } from '../../domain/bank.js';
import type {
  AisCardTransaction,
  AisTransaction,
  AisTransactionQuery,
  PendingPayment,
  Shareable,
} from '../../store/ais-records.js';
import type { SandboxTransaction } from '../../store/sandbox-records.js';
import type { LedgerStore } from '../../store/ledger-store.js';
import type { BankCore } from '../bank-core.js';
import type { CoreCancellation, CoreReport, CoreReportPage, PaymentOrder } from '../core-records.js';
import type { EmbeddedPayments } from './embedded-payments.js';

/**
 * The embedded core: the ledger this server keeps in its own database (docs/core.md). Each TPP's
 * sandbox bank is one, and so is production's bank when CORE=embedded. Its answers are the store's,
 * unchanged; a payment authorised here is executed by this server's batch run from the payment's own
 * row, in the transaction that claims it, so nothing is handed over in between.
 *
 * The reference core (`npm run core`) serves the same core over HTTP; there payments do arrive by
 * hand-over (`submitPayment`), which EmbeddedPayments takes into its ledger.
 */
export class EmbeddedCore implements BankCore {
  readonly kind = 'embedded' as const;

  constructor(
    private readonly ledger: LedgerStore,
    private readonly payments: EmbeddedPayments,
  ) {}

  findCustomer(bank: string, by: { id: string } | { customerNumber: string }): Promise<Customer | undefined> {
    return this.ledger.findCustomer(bank, by);
  }
  findAgreement(bank: string, id: string): Promise<Agreement | undefined> {
    return this.ledger.findAgreement(bank, id);
  }
  findEngagement(
    bank: string,
    agreementId: string,
    customerId: string,
    accountId: string,
  ): Promise<Engagement | undefined> {
    return this.ledger.findEngagement(bank, agreementId, customerId, accountId);
  }
  findAccount(
    bank: string,
    by: { bban?: string | undefined; iban?: string | undefined },
  ): Promise<Account | undefined> {
    return this.ledger.findAccount(bank, by);
  }
  shareableAccounts(bank: string, customerId: string, agreementId: string | undefined): Promise<Shareable> {
    return this.ledger.shareableAccounts(bank, customerId, agreementId);
  }
  aisTransactions(accountId: string, query: AisTransactionQuery): Promise<AisTransaction[]> {
    return this.ledger.aisTransactions(accountId, query);
  }
  findTransaction(accountId: string, transactionId: string): Promise<SandboxTransaction | undefined> {
    return this.ledger.findSandboxTransaction(accountId, transactionId);
  }
  aisCardTransactions(cardAccountId: string, query: AisTransactionQuery): Promise<AisCardTransaction[]> {
    return this.ledger.aisCardTransactions(cardAccountId, query);
  }
  pendingPayments(bank: string, account: { bban: string; iban: string }, limit: number): Promise<PendingPayment[]> {
    return this.ledger.pendingPayments(bank, account, limit);
  }

  submitPayment(bank: string, order: PaymentOrder): Promise<CoreReport> {
    return this.payments.submit(bank, order);
  }
  cancelPayment(bank: string, paymentId: string): Promise<CoreCancellation> {
    return this.payments.cancel(bank, paymentId);
  }
  paymentReport(bank: string, paymentId: string): Promise<CoreReport | undefined> {
    return this.payments.report(bank, paymentId);
  }
  statusReports(bank: string, after: string | undefined, limit: number): Promise<CoreReportPage> {
    return this.payments.reports(bank, after, limit);
  }
}
