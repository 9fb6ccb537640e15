import { createHash } from 'node:crypto';
import type { Problem } from '../../domain/api-error.js';
import { osloDate } from '../../domain/clock.js';
import { isCurrency } from '../../domain/currency.js';
import type { PaymentProduct, PaymentService } from '../../domain/payment-product.js';
import type { NewPayment, ValidatedPayment } from '../../domain/payments/payment.js';
import { productRules } from '../../domain/payments/product-rules.js';
import type { ReferenceRates } from '../../domain/reference-rates.js';
import { statusAfterApproval } from '../../domain/payment-lifecycle.js';
import { statusReason } from '../../domain/status-reasons.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import { type ChangePlace, FEED_BEGINNING, type PaymentChange } from '../../store/payment-store.js';
import type { Store, TppRequestRecord } from '../../store/store.js';
import type { CoreCancellation, CoreReport, CoreReportPage, PaymentOrder } from '../core-records.js';
import { reportedStatus } from '../reported-status.js';
import type { EmbeddedPayments } from './embedded-payments.js';

/**
 * The creator of the payments handed to the embedded core over the contract, in the payments table's
 * tpp_id: their hand-over is a create keyed by (CORE_CREATOR, paymentId), so a second hand-over of the
 * same payment is the store's own "replayed" and takes nothing more into the ledger.
 */
export const CORE_CREATOR = 'core';

/** What the store is asked for by the embedded core's payment side: the areas it uses, no more. */
export type LedgerPaymentsStore = Pick<
  Store,
  | 'createPayment'
  | 'decidePayments'
  | 'cancelPayment'
  | 'findEntryOutcomes'
  | 'findPeriodicOrder'
  | 'paymentChanges'
  | 'durable'
>;

export interface LedgerPaymentsOptions {
  /** The bank's business clock (Banks.clockOfBank in the reference core: the wall clock in production). */
  now: (bank: string) => Promise<Date>;
  /** The reference rates the products' rules judge amounts by (regulatory reporting). */
  rates: ReferenceRates;
  /**
   * Executes instant payments (Straks) at once, as the server's SCA step does for its own
   * (src/services/instant-execution.ts, which the reference core gives here); without it they wait
   * for the batch like any other. A crash before it ran leaves them to the next batch run.
   */
  executeInstant?: (bank: string, paymentIds: readonly string[], now: Date) => Promise<void>;
}

/** What a hand-over decided, kept as the create's answer so a repeated hand-over decides the same. */
interface Decision {
  status: TransactionStatus;
  reason: string | undefined;
}

/**
 * The embedded core's side of payments handed over (the reference core's, docs/core.md "Exactly
 * once"): each order is validated by its product's rules, taken into the ledger once by its
 * paymentId (a create keyed by it), and decided at once as an authorised payment (ACTC, or PDNG
 * until its date); the batch run then executes it like any other. A cancellation before the
 * hand-over is kept as a cancelled payment of that id, so the later hand-over finds it and answers CANC.
 *
 * Standing orders: the core owns their schedule once handed over; the batch books each execution on
 * its date, and the report carries the executions and the next date.
 */
export class LedgerPayments implements EmbeddedPayments {
  private readonly now: (bank: string) => Promise<Date>;
  private readonly rates: ReferenceRates;
  private readonly executeInstant: LedgerPaymentsOptions['executeInstant'];

  constructor(
    private readonly store: LedgerPaymentsStore,
    options: LedgerPaymentsOptions,
  ) {
    this.now = options.now;
    this.rates = options.rates;
    this.executeInstant = options.executeInstant;
  }

  async submit(bank: string, order: PaymentOrder): Promise<CoreReport> {
    const now = await this.now(bank);
    const judged = this.judge(order, osloDate(now));
    const payment = newPayment(order, judged.payment, now);
    const decision: Decision =
      judged.payment === undefined
        ? { status: 'RJCT', reason: judged.reason }
        : { status: statusAfterApproval(judged.payment.requestedExecutionDate, now), reason: undefined };
    const result = await this.store.createPayment(payment, handOver(order, decision), {
      duplicatesSince: null,
      bank,
    });
    // Replayed: the first hand-over's decision, whatever this one's rules would say today.
    const decided = result.outcome === 'replayed' ? (JSON.parse(result.request.responseBody) as Decision) : decision;
    // Only a payment still RCVD is decided: a repeat after a crash between create and decision finishes it;
    // one executed, cancelled or remembered as cancelled is left as it is.
    // Decided at the time of the decision, not of the hand-over's start: the feed orders by it.
    const decidedAt = await this.now(bank);
    const changed = await this.store.decidePayments(
      [{ paymentId: order.paymentId, status: decided.status, reason: decided.reason }],
      order.signerCustomerId,
      decidedAt,
    );
    // Straks: executed when it is handed over, as the server executes its own when the PSU approves it.
    const instant =
      changed.length === 1 &&
      decided.status === 'ACTC' &&
      productRules(order.paymentService, order.paymentProduct)?.instant === true &&
      this.executeInstant !== undefined;
    if (instant) await this.executeInstant!(bank, [order.paymentId], decidedAt);
    // The answer tells the server it may forget the hand-over: what it answers must be on disk first.
    await this.store.durable();
    // Taken and decided now: the report is what was decided (a one-off payment has nothing more to read).
    if (changed.length === 1 && order.paymentService === 'payments' && !instant)
      return {
        paymentId: order.paymentId,
        transactionStatus: reportedStatus(decided.status),
        statusReason: decided.reason,
        entries: undefined,
        executions: undefined,
        nextExecutionDate: undefined,
        at: decidedAt,
      };
    const report = await this.report(bank, order.paymentId);
    // Programmer error: the create or its replay left the row there.
    if (report === undefined) throw new Error(`payment ${order.paymentId} is not in the ledger after its hand-over`);
    return report;
  }

  async cancel(bank: string, paymentId: string): Promise<CoreCancellation> {
    const now = await this.now(bank);
    // One X-Request-ID per payment: a repeated cancellation finds it cancelled by "the same request".
    const result = await this.store.cancelPayment(CORE_CREATOR, paymentId, now, `cancel ${paymentId}`);
    // The answer is the core's word that the payment will not execute: on disk before it is given.
    await this.store.durable();
    if (result.outcome === 'cancelled') return { outcome: 'cancelled' };
    if (result.outcome === 'not-cancellable') {
      return result.status === 'CANC'
        ? { outcome: 'cancelled' }
        : { outcome: 'not-cancellable', transactionStatus: reportedStatus(result.status) };
    }
    // Never handed over: remembered as a cancelled payment of this id, which its hand-over will find.
    const remembered = await this.store.createPayment(
      cancelledBeforeHandOver(paymentId, now),
      cancellationRecord(paymentId),
      {
        duplicatesSince: null,
        bank,
      },
    );
    // A hand-over of it came in between: cancel that one.
    if (remembered.outcome === 'replayed') return this.cancel(bank, paymentId);
    return { outcome: 'cancelled' };
  }

  async report(bank: string, paymentId: string): Promise<CoreReport | undefined> {
    const [change] = await this.store.paymentChanges(CORE_CREATOR, bank, { paymentId });
    return change === undefined ? undefined : this.reportOf(change);
  }

  async reports(bank: string, after: string | undefined, limit: number): Promise<CoreReportPage> {
    // In the order the changes were made, not by the bank's clock, which a batch run sets to its
    // slot's time: a later change may carry an earlier time.
    const changes = await this.store.paymentChanges(CORE_CREATOR, bank, { after: decodeCursor(after), limit });
    // A payment taken but not yet decided (RCVD: the core stopped between the two) is not accepted yet:
    // reporting it would tell the server so before the hand-over's retry decides it, which then
    // changes it again and puts it in the feed anew.
    const decided = changes.filter((change) => change.status !== 'RCVD');
    const reports = await Promise.all(decided.map((change) => this.reportOf(change)));
    const last = changes.at(-1);
    return { reports, cursor: last === undefined ? after : encodeCursor(last) };
  }

  private async reportOf(change: PaymentChange): Promise<CoreReport> {
    const report: CoreReport = {
      paymentId: change.paymentId,
      transactionStatus: reportedStatus(change.status),
      statusReason: change.statusReason,
      entries: undefined,
      executions: undefined,
      nextExecutionDate: undefined,
      at: new Date(change.updatedAt),
    };
    if (change.service === 'bulk-payments' && EXECUTED.has(change.status)) {
      const entries = await this.store.findEntryOutcomes(change.paymentId);
      if (entries.length > 0 && entries.every((e) => EXECUTED_ENTRY.has(e.status))) report.entries = entries;
    }
    if (change.service === 'periodic-payments') {
      const order = await this.store.findPeriodicOrder(change.paymentId);
      report.executions = order?.executions ?? [];
      report.nextExecutionDate = order?.nextExecutionDate;
    }
    return report;
  }

  /** The payment the product's rules make of the order, or why it is rejected. */
  private judge(order: PaymentOrder, today: string): { payment: ValidatedPayment | undefined; reason: string } {
    const rules = productRules(order.paymentService, order.paymentProduct);
    if (rules === undefined)
      return {
        payment: undefined,
        reason: statusReason(
          'MS03',
          `${order.paymentService} ${order.paymentProduct} is not a payment this bank executes`,
        ),
      };
    let problems: Problem[];
    try {
      const validation = rules.validate(order.initiation, { today, rates: this.rates });
      if (validation.payment !== undefined && validation.problems.length === 0)
        return { payment: validation.payment, reason: '' };
      problems = validation.problems;
    } catch {
      // The server validated the body's shape before it was authorised; one the rules cannot even read is broken.
      problems = [];
    }
    const first = problems[0];
    return {
      payment: undefined,
      reason: statusReason(
        'MS03',
        `the payment is not valid: ${first === undefined ? 'its body cannot be read' : `${first.path}: ${first.text}`}`,
      ),
    };
  }
}

/** Statuses of a payment the batch run executed (in full, in part, or not at all), and of an entry of it. */
const EXECUTED: ReadonlySet<TransactionStatus> = new Set(['ACSC', 'PART', 'RJCT']);
const EXECUTED_ENTRY: ReadonlySet<TransactionStatus> = new Set(['ACSC', 'RJCT']);

/**
 * The order as the ledger keeps it. One the rules refuse is kept too, with no transfers, so that its
 * rejection is reported like any status and its hand-over is still taken once.
 */
function newPayment(order: PaymentOrder, validated: ValidatedPayment | undefined, now: Date): NewPayment {
  const currency = isCurrency(order.transactionFees.currency) ? order.transactionFees.currency : 'NOK';
  const payment: ValidatedPayment = validated ?? {
    debtor: { bban: undefined, iban: undefined, currency },
    requestedExecutionDate: undefined,
    transfers: [],
    fees: { total: { minor: 0n, currency }, charged: false, conversion: undefined },
    warnings: [],
  };
  return {
    ...payment,
    // The fee the interface announced to the TPP is the one charged, whatever this core's schedule says.
    fees: { ...payment.fees, total: { minor: order.transactionFees.amountMinor, currency } },
    id: order.paymentId,
    tppId: CORE_CREATOR,
    service: order.paymentService as PaymentService,
    product: order.paymentProduct as PaymentProduct,
    status: 'RCVD',
    psu: {
      psuId: undefined,
      nationalIdHash: undefined,
      corporateId: undefined,
      context: undefined,
      key: `customer:${order.signerCustomerId ?? ''}`,
    },
    body: order.initiation,
    acceptFixes: [],
    tppRedirectUri: '',
    tppSessionId: '',
    createdAt: now,
  };
}

/** A payment cancelled before it was handed over: no transfers, CANC from the start. */
function cancelledBeforeHandOver(paymentId: string, now: Date): NewPayment {
  return {
    debtor: { bban: undefined, iban: undefined, currency: 'NOK' },
    requestedExecutionDate: undefined,
    transfers: [],
    fees: { total: { minor: 0n, currency: 'NOK' }, charged: false, conversion: undefined },
    warnings: [],
    id: paymentId,
    tppId: CORE_CREATOR,
    service: 'payments',
    product: 'norwegian-domestic-credit-transfers' as PaymentProduct,
    status: 'CANC',
    psu: { psuId: undefined, nationalIdHash: undefined, corporateId: undefined, context: undefined, key: 'customer:' },
    body: {},
    acceptFixes: [],
    tppRedirectUri: '',
    tppSessionId: '',
    createdAt: now,
  };
}

function handOver(order: PaymentOrder, decision: Decision): TppRequestRecord {
  return {
    tppId: CORE_CREATOR,
    requestId: order.paymentId,
    operation: `PUT /payments/${order.paymentId}`,
    bodySha256: createHash('sha256')
      .update(JSON.stringify(order.initiation) ?? '')
      .digest('hex'),
    responseStatus: 200,
    responseBody: JSON.stringify(decision),
  };
}

function cancellationRecord(paymentId: string): TppRequestRecord {
  const decision: Decision = { status: 'CANC', reason: undefined };
  return {
    tppId: CORE_CREATOR,
    requestId: paymentId,
    operation: `POST /payments/${paymentId}/cancellation`,
    bodySha256: '',
    responseStatus: 200,
    responseBody: JSON.stringify(decision),
  };
}

/** The place of the last change a page gave out, in the order the changes were made (migrations 030, 031). */
function encodeCursor(change: PaymentChange): string {
  return cursorOf(change.place);
}

function cursorOf(place: ChangePlace): string {
  return written([place.transaction, place.seq]);
}

function written(place: unknown[]): string {
  return Buffer.from(JSON.stringify(place)).toString('base64url');
}

/** The place a cursor this core gave names, exactly as it gave it; anything else is a RangeError (400). */
function decodeCursor(cursor: string | undefined): ChangePlace {
  if (cursor === undefined || cursor === '') return FEED_BEGINNING;
  let place: unknown;
  try {
    place = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // Not JSON: a cursor this core did not make.
  }
  if (Array.isArray(place)) {
    const parts = place as unknown[];
    const places = parts.every((part) => Number.isSafeInteger(part) && (part as number) >= 0);
    // Written back as this core writes it: base64url's decoder skips stray characters, and JSON takes
    // 1e3 or 1.0 for 1000 or 1, none of which this core gives.
    if (places && written(parts) === cursor) {
      if (parts.length === 2) return { transaction: parts[0] as number, seq: parts[1] as number };
      // A cursor from before migration 031 ([changeSeq]) or 030 (below): the feed starts again from
      // its beginning, since reports are given at least once and applying one again changes nothing
      // (docs/decisions/0347, 0348).
      if (parts.length === 1) return FEED_BEGINNING;
    }
    if (parts.length === 2 && parts.every((part) => typeof part === 'string')) return FEED_BEGINNING;
  }
  throw new RangeError('the cursor is not one this core gave');
}
