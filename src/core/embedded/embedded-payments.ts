import type { CoreCancellation, CoreReport, CoreReportPage, PaymentOrder } from '../core-records.js';

/**
 * The embedded core's side of payments handed to it over the contract (the reference core's): each
 * order taken into the ledger once, by its paymentId, and executed by the batch run as any
 * authorised payment; its statuses read back as reports.
 */
export interface EmbeddedPayments {
  submit(bank: string, order: PaymentOrder): Promise<CoreReport>;
  cancel(bank: string, paymentId: string): Promise<CoreCancellation>;
  report(bank: string, paymentId: string): Promise<CoreReport | undefined>;
  reports(bank: string, after: string | undefined, limit: number): Promise<CoreReportPage>;
}
