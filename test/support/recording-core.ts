import { type BankCore, CoreUnavailable } from '../../src/core/bank-core.js';
import type { CoreCancellation, CoreReport, CoreReportPage, PaymentOrder } from '../../src/core/core-records.js';

/**
 * A bank's own core as the tests see it from the server's side (kind 'http'): the reads answered by
 * an embedded core, every hand-over counted by payment, its answers and outages set by the test.
 */
export class RecordingCore implements BankCore {
  readonly kind = 'http' as const;
  /** Hand-overs received, by payment: a payment handed over twice shows 2. */
  readonly received = new Map<string, number>();
  readonly orders = new Map<string, PaymentOrder>();
  /** Refuses every call (a core that is down). */
  down = false;
  /** Refuses the calls of these methods only (a core whose transaction service is down). */
  readonly failing = new Set<keyof BankCore>();
  /** Holds each hand-over this long before it answers (to make two instances overlap). */
  delayMs = 0;
  /** What a hand-over is answered. */
  answer: (order: PaymentOrder) => CoreReport = (order) => report(order.paymentId, 'ACSP');
  /** Reports the polling reads, oldest first; the cursor is the index. */
  readonly feed: CoreReport[] = [];
  readonly cancelled = new Set<string>();

  constructor(private readonly reads: BankCore) {}

  private check(method?: keyof BankCore): void {
    if (this.down || (method !== undefined && this.failing.has(method)))
      throw new CoreUnavailable('connection refused', 5);
  }

  async findCustomer(...args: Parameters<BankCore['findCustomer']>) {
    this.check('findCustomer');
    return this.reads.findCustomer(...args);
  }
  async findAgreement(...args: Parameters<BankCore['findAgreement']>) {
    this.check('findAgreement');
    return this.reads.findAgreement(...args);
  }
  async findEngagement(...args: Parameters<BankCore['findEngagement']>) {
    this.check('findEngagement');
    return this.reads.findEngagement(...args);
  }
  async findAccount(...args: Parameters<BankCore['findAccount']>) {
    this.check('findAccount');
    return this.reads.findAccount(...args);
  }
  async shareableAccounts(...args: Parameters<BankCore['shareableAccounts']>) {
    this.check('shareableAccounts');
    return this.reads.shareableAccounts(...args);
  }
  async aisTransactions(...args: Parameters<BankCore['aisTransactions']>) {
    this.check('aisTransactions');
    return this.reads.aisTransactions(...args);
  }
  async findTransaction(...args: Parameters<BankCore['findTransaction']>) {
    this.check('findTransaction');
    return this.reads.findTransaction(...args);
  }
  async aisCardTransactions(...args: Parameters<BankCore['aisCardTransactions']>) {
    this.check('aisCardTransactions');
    return this.reads.aisCardTransactions(...args);
  }
  async pendingPayments(...args: Parameters<BankCore['pendingPayments']>) {
    this.check('pendingPayments');
    return this.reads.pendingPayments(...args);
  }

  async submitPayment(_bank: string, order: PaymentOrder): Promise<CoreReport> {
    this.check();
    this.received.set(order.paymentId, (this.received.get(order.paymentId) ?? 0) + 1);
    this.orders.set(order.paymentId, order);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return this.cancelled.has(order.paymentId) ? report(order.paymentId, 'CANC') : this.answer(order);
  }
  async cancelPayment(_bank: string, paymentId: string): Promise<CoreCancellation> {
    this.check();
    this.cancelled.add(paymentId);
    return { outcome: 'cancelled' };
  }
  async paymentReport(_bank: string, paymentId: string): Promise<CoreReport | undefined> {
    this.check();
    return this.orders.has(paymentId) ? report(paymentId, 'ACSP') : undefined;
  }
  async statusReports(_bank: string, after: string | undefined, limit: number): Promise<CoreReportPage> {
    this.check();
    const from = after === undefined ? 0 : Number(after);
    const reports = this.feed.slice(from, from + limit);
    return { reports, cursor: String(from + reports.length) };
  }
}

export function report(
  paymentId: string,
  transactionStatus: CoreReport['transactionStatus'],
  statusReason?: string,
): CoreReport {
  return {
    paymentId,
    transactionStatus,
    statusReason,
    entries: undefined,
    executions: undefined,
    nextExecutionDate: undefined,
    at: new Date(),
  };
}
