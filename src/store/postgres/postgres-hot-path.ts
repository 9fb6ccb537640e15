import type pg from 'pg';
import type { NewPayment } from '../../domain/payments/payment.js';
import type { RequestBinding } from '../../domain/request-binding.js';
import {
  type BindingRowRead,
  type PaymentRowRead,
  type TppRequestRowRead,
  authorisationRow,
  bankClockOffset,
  bindingRow,
  duplicatesOf,
  paymentRow,
  subscriptionRow,
  toBinding,
  toStoredPayment,
  toStoredRequest,
  tppRequestRow,
  transferRows,
} from '../payment-rows.js';
import type { CreatePaymentOptions, CreatePaymentResult, StoredPayment, TppRequestRecord } from '../store.js';

/**
 * The operations every signed request or every create makes, each one round trip as a named
 * (server-side prepared) statement on the pool. A create is one call of psd2_create_payment
 * (migration 009), which holds the PSU's advisory lock only for as long as the function runs,
 * not over round trips.
 */
export class PostgresHotPath {
  constructor(private readonly pool: pg.Pool) {}

  async createPayment(
    payment: NewPayment,
    request: TppRequestRecord,
    options: CreatePaymentOptions,
  ): Promise<CreatePaymentResult> {
    const createdAt = payment.createdAt.toISOString();
    const { rows } = await this.pool.query<{ result: CreatePaymentOutcome }>({
      name: 'psd2_create_payment',
      text: 'select psd2_create_payment($1, $2, $3, $4, $5, $6) as result',
      values: [
        `psu|${payment.tppId}|${payment.psu.key}`,
        // The subscription rides in the request's JSON: psd2_create_payment (migration 026) inserts it.
        json({ ...tppRequestRow(request, payment.id, createdAt), subscription: subscriptionRow(request, createdAt) }),
        // Production's bank is ''; the function names every column, so the default is given here.
        json(paymentRow(payment, options.bank ?? '')),
        options.authorisation === undefined ? null : json(authorisationRow(options.authorisation)),
        json(transferRows(payment)),
        options.duplicatesSince === null ? null : options.duplicatesSince.toISOString(),
      ],
    });
    const result = rows[0]!.result;
    if (result.outcome === 'created') return { outcome: 'created' };
    if (result.outcome === 'replayed') return { outcome: 'replayed', request: toStoredRequest(result.request) };
    return { outcome: 'duplicate', duplicates: duplicatesOf(payment, result.rows) };
  }

  /**
   * Binds in one statement: inserted, or put in place of a binding whose signature can no longer be
   * accepted, or else the binding in force is read. A binding committed by another request after this
   * statement's snapshot is neither replaced nor seen: then the statement runs again.
   */
  async bindRequest(binding: RequestBinding, now: Date): Promise<RequestBinding | undefined> {
    const row = bindingRow(binding);
    const { rows } = await this.pool.query<{ bound: boolean } & Partial<BindingRowRead>>({
      name: 'psd2_bind_request',
      text: `with bound as (
          insert into request_bindings (tpp_id, request_id, method, target, body_sha256, scope, expires_at) values ($1, $2, $3, $4, $5, $6, $7)
          on conflict (tpp_id, request_id) do update set method = excluded.method, target = excluded.target, body_sha256 = excluded.body_sha256,
            scope = excluded.scope, expires_at = excluded.expires_at
          where request_bindings.expires_at < $8
          returning 1)
        select exists (select 1 from bound) as bound, b.* from (select 1) one
        left join request_bindings b on b.tpp_id = $1 and b.request_id = $2 and not exists (select 1 from bound)`,
      values: [
        row.tpp_id,
        row.request_id,
        row.method,
        row.target,
        row.body_sha256,
        row.scope,
        row.expires_at,
        now.toISOString(),
      ],
    });
    const result = rows[0]!;
    if (result.bound) return undefined;
    return result.tpp_id === undefined || result.tpp_id === null
      ? this.bindRequest(binding, now)
      : toBinding(result as BindingRowRead);
  }

  async findPayment(tppId: string, paymentId: string, bank: string): Promise<StoredPayment | undefined> {
    const { rows } = await this.pool.query<PaymentRowRead>({
      name: 'psd2_find_payment',
      text: `select id, tpp_id, service, product, status, body, funds_available, status_reason, created_at, ${bankClockOffset('$3')} as clock_offset_ms from payments where id = $1 and tpp_id = $2`,
      values: [paymentId, tppId, bank],
    });
    return rows[0] === undefined ? undefined : toStoredPayment(rows[0]);
  }

  async readClockOffset(bank: string): Promise<bigint> {
    const { rows } = await this.pool.query<{ clock_offset_ms: bigint }>({
      name: 'psd2_read_clock_offset',
      text: 'select clock_offset_ms from banks where bank = $1',
      values: [bank],
    });
    return rows[0] === undefined ? 0n : BigInt(rows[0].clock_offset_ms);
  }
}

type CreatePaymentOutcome =
  | { outcome: 'created' }
  | { outcome: 'replayed'; request: TppRequestRowRead }
  | { outcome: 'duplicate'; rows: { payment_id: string; duplicate_key: string; created_at: string }[] };

/** A row as JSON, 64-bit integers as strings (the function's record types read them back exactly). */
export function json(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}
