import {
  EXPIRED_REASON,
  SIGNING_WINDOW_MINUTES,
  type ScaStatus,
  effectiveStatus,
  scaStatusOf,
} from '../../domain/sca.js';
import { statusAfterApproval } from '../../domain/payment-lifecycle.js';
import type { AuthorisationKind } from '../../domain/sca.js';
import { FINAL_STATUSES, type TransactionStatus } from '../../domain/transaction-status.js';
import type { PaymentBooking, PaymentHistory } from '../../store/bank-overview-records.js';

/** One step of a payment's history, at the instant of the bank's clock it happened. */
export type HistoryEvent = { at: Date } & (
  | { kind: 'created'; status: TransactionStatus }
  | { kind: 'sca'; authorisation: string; object: AuthorisationKind; scaStatus: ScaStatus }
  | { kind: 'authorised'; status: TransactionStatus }
  | { kind: 'booked'; booking: PaymentBooking }
  | { kind: 'executed'; executionDate: string; status: TransactionStatus; reason: string | undefined }
  | { kind: 'status'; status: TransactionStatus; reason: string | undefined }
  | { kind: 'held'; status: TransactionStatus; until: Date; then: TransactionStatus }
);

/**
 * A payment's history, derived from what is stored about it (docs/console.md): no table keeps its
 * statuses one by one. Created (RCVD) when it was made; each authorisation started, then where it
 * stands (psuAuthenticated, finalised, failed) when it last changed, or failed when its link expired
 * unused; authorised (ACTC, or PDNG for a later date) when the PSU approved; a scenario's hold while
 * it lasts; each booking and standing order execution when it was written; and a final status when
 * the payment last changed. A status in between that left no trace (a hold once settled) does not show.
 */
export function paymentHistory(history: PaymentHistory, now: Date): HistoryEvent[] {
  const { payment } = history;
  const events: HistoryEvent[] = [{ at: new Date(payment.createdAt), kind: 'created', status: 'RCVD' }];
  for (const a of history.authorisations) {
    const sca = { kind: 'sca', authorisation: a.id, object: a.kind } as const;
    events.push({ ...sca, at: a.createdAt, scaStatus: 'started' });
    const status = scaStatusOf(a, now);
    if (a.stage !== 'done' && status === 'failed') events.push({ ...sca, at: a.expiresAt, scaStatus: 'failed' });
    else if (status !== 'started' && a.updatedAt.getTime() > a.createdAt.getTime())
      events.push({ ...sca, at: a.updatedAt, scaStatus: status });
  }
  if (payment.authorisedAt !== undefined) {
    const at = new Date(payment.authorisedAt);
    events.push({ at, kind: 'authorised', status: statusAfterApproval(payment.requestedExecutionDate, at) });
  }
  for (const booking of history.bookings) events.push({ at: new Date(booking.createdAt), kind: 'booked', booking });
  for (const e of history.executions)
    events.push({
      at: new Date(e.createdAt),
      kind: 'executed',
      executionDate: e.executionDate,
      status: e.status,
      reason: e.statusReason,
    });
  // A scenario's hold (PDNG or ACSP until an instant) shows while it lasts; its settlement clears it.
  if (payment.hold !== undefined)
    events.push({
      at: new Date(payment.updatedAt),
      kind: 'held',
      status: payment.status,
      until: new Date(payment.hold.until),
      then: payment.hold.then,
    });
  if (FINAL_STATUSES.has(payment.status))
    events.push({
      at: new Date(payment.updatedAt),
      kind: 'status',
      status: payment.status,
      reason: payment.statusReason,
    });
  else if (effectiveStatus(payment.status, payment.createdAt, now) === 'RJCT')
    // Past its signing window a payment reads RJCT before anything writes it down (domain/sca.ts).
    events.push({
      at: new Date(Date.parse(payment.createdAt) + SIGNING_WINDOW_MINUTES * 60_000),
      kind: 'status',
      status: 'RJCT',
      reason: EXPIRED_REASON,
    });
  // Stable: what happened at one instant keeps the order above (bookings before the status they led to).
  return events.sort((x, y) => x.at.getTime() - y.at.getTime());
}
