import type { NewPayment } from '../domain/payments/payment.js';
import type { RequestBinding } from '../domain/request-binding.js';
import type { TransactionStatus } from '../domain/transaction-status.js';
import { duplicateDay, duplicateDays, duplicateHash, duplicateHashScope } from './duplicate-hash.js';
import type { NewAuthorisation } from './sca-records.js';
import type { LogicalDuplicate, StoredPayment, StoredTppRequest, TppRequestRecord } from './store.js';

/**
 * The rows a payment create writes and the rows its reads return, as plain objects keyed by column:
 * one place for the mapping, whichever way the statements are sent (Kysely, a prepared SQLite
 * statement, PostgreSQL's create_payment function).
 */

/** `paymentId` null: the request created something else (a basket, a consent). */
export function tppRequestRow(request: TppRequestRecord, paymentId: string | null, createdAt: string) {
  return {
    tpp_id: request.tppId,
    request_id: request.requestId,
    operation: request.operation,
    body_sha256: request.bodySha256,
    response_status: request.responseStatus,
    response_body: request.responseBody,
    payment_id: paymentId,
    created_at: createdAt,
    response_headers: request.responseHeaders ?? null,
  };
}

/** The record's notification subscription as a row of notification_subscriptions; null when it has none. */
export function subscriptionRow(request: TppRequestRecord, createdAt: string) {
  const subscription = request.subscription;
  if (subscription === undefined) return null;
  return {
    resource_kind: subscription.resource.kind,
    resource_id: subscription.resource.id,
    tpp_id: request.tppId,
    uri: subscription.uri,
    content: subscription.content.join(','),
    created_at: createdAt,
  };
}

/** `bank` left out: the column's default, production's bank (''). */
export function paymentRow(payment: NewPayment, bank: string | undefined) {
  const createdAt = payment.createdAt.toISOString();
  return {
    id: payment.id,
    ...(bank === undefined ? {} : { bank }),
    tpp_id: payment.tppId,
    service: payment.service,
    product: payment.product,
    status: payment.status,
    psu_key: payment.psu.key,
    psu_id: payment.psu.psuId ?? null,
    psu_national_id_hash: payment.psu.nationalIdHash ?? null,
    psu_corporate_id: payment.psu.corporateId ?? null,
    psu_context: payment.psu.context ?? null,
    debtor_bban: payment.debtor.bban ?? null,
    debtor_iban: payment.debtor.iban ?? null,
    debtor_currency: payment.debtor.currency,
    requested_execution_date: payment.requestedExecutionDate ?? null,
    entry_count: payment.transfers.length,
    fee_minor: payment.fees.total.minor,
    fee_currency: payment.fees.total.currency,
    body: JSON.stringify(payment.body),
    accept_fixes: JSON.stringify(payment.acceptFixes),
    tpp_redirect_uri: payment.tppRedirectUri,
    tpp_session_id: payment.tppSessionId,
    funds_available: null,
    status_reason: null,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

export function transferRows(payment: NewPayment) {
  const createdAt = payment.createdAt.toISOString();
  const scope = duplicateHashScope(payment.tppId, payment.psu.key);
  const day = duplicateDay(payment.createdAt);
  return payment.transfers.map((transfer, seq) => ({
    payment_id: payment.id,
    seq,
    tpp_id: payment.tppId,
    psu_key: payment.psu.key,
    amount_minor: transfer.amount.minor,
    currency: transfer.amount.currency,
    creditor_name: transfer.creditorName,
    creditor_account: transfer.creditorAccount,
    duplicate_key: transfer.duplicateKey,
    duplicate_scope: scope,
    duplicate_day: day,
    duplicate_hash: duplicateHash(scope, transfer.duplicateKey),
    status: payment.status,
    status_reason: null,
    created_at: createdAt,
  }));
}

export function authorisationRow(a: NewAuthorisation) {
  return {
    id: a.id,
    token_hash: a.tokenHash,
    stage: 'link',
    kind: a.kind,
    object_id: a.objectId ?? null,
    tpp_id: a.tppId,
    tpp_name: a.tppName,
    psu_id: a.psuId ?? null,
    psu_national_id_hash: a.psuNationalIdHash ?? null,
    psu_corporate_id: a.psuCorporateId ?? null,
    psu_context: a.psuContext ?? null,
    auth_method: a.authMethod ?? null,
    redirect_preferred: a.redirectPreferred ? 1 : 0,
    tpp_redirect_uri: a.tppRedirectUri ?? null,
    tpp_session_id: a.tppSessionId ?? null,
    status: 'started',
    customer_id: null,
    attempts: 0,
    expires_at: a.expiresAt.toISOString(),
    created_at: a.createdAt.toISOString(),
    updated_at: a.createdAt.toISOString(),
  };
}

export function bindingRow(binding: RequestBinding) {
  return {
    tpp_id: binding.tppId,
    request_id: binding.requestId,
    method: binding.method,
    target: binding.target,
    body_sha256: binding.bodySha256,
    scope: binding.scope,
    expires_at: binding.expiresAt.toISOString(),
  };
}

export interface BindingRowRead {
  tpp_id: string;
  request_id: string;
  method: string;
  target: string;
  body_sha256: string;
  scope: string;
  expires_at: string;
}

export function toBinding(row: BindingRowRead): RequestBinding {
  return {
    tppId: row.tpp_id,
    requestId: row.request_id,
    method: row.method,
    target: row.target,
    bodySha256: row.body_sha256,
    scope: row.scope === 'test-data' ? 'test-data' : 'strict',
    expiresAt: new Date(row.expires_at),
  };
}

export interface TppRequestRowRead {
  operation: string;
  body_sha256: string;
  response_status: number | bigint | string;
  response_body: string;
  response_headers: string | null;
}

export function toStoredRequest(row: TppRequestRowRead): StoredTppRequest {
  return {
    operation: row.operation,
    bodySha256: row.body_sha256,
    responseStatus: Number(row.response_status),
    responseBody: row.response_body,
    responseHeaders: row.response_headers ?? undefined,
  };
}

export interface PaymentRowRead {
  id: string;
  tpp_id: string;
  service: string;
  product: string;
  status: string;
  body: string;
  funds_available: number | bigint | boolean | null;
  status_reason: string | null;
  created_at: string;
  /** Of the bank the read names, in the same statement (bankClockOffset). */
  clock_offset_ms: number | bigint | string;
}

/**
 * The clock offset of the bank named by the statement's `parameter` (`?` or `$3`), 0 for a bank
 * without one, selected with the payment: a status read judges the payment by the TPP's bank's clock,
 * and a statement of its own is a noticeable part of the read (docs/decisions/0185).
 */
export function bankClockOffset(parameter: string): string {
  return `coalesce((select clock_offset_ms from banks where banks.bank = ${parameter}), 0)`;
}

/** The body is parsed when first read: a status read never reads it (a bulk payment's is up to a megabyte). */
export function toStoredPayment(row: PaymentRowRead): StoredPayment {
  let body: unknown;
  return {
    id: row.id,
    tppId: row.tpp_id,
    service: row.service,
    product: row.product,
    status: row.status as TransactionStatus,
    get body(): unknown {
      body ??= JSON.parse(row.body) as unknown;
      return body;
    },
    fundsAvailable: row.funds_available === null ? undefined : Number(row.funds_available) === 1,
    statusReason: row.status_reason ?? undefined,
    createdAt: row.created_at,
    bankClockOffsetMs: BigInt(row.clock_offset_ms),
  };
}

/**
 * What the logical-duplicate look-up asks for, from the transfers' rows (transferRows) of a payment
 * made at `until`, for the window from `since`: its PSU's scope, the days the window touches, the
 * transfers' distinct duplicate keys and the keys' hashes (the index, src/store/duplicate-hash.ts).
 */
export function duplicateLookup(
  rows: readonly { duplicate_scope: bigint; duplicate_key: string; duplicate_hash: bigint }[],
  since: Date,
  until: Date,
): { scope: bigint; days: number[]; hashes: bigint[]; keys: string[] } {
  const hashOfKey = new Map(rows.map((row) => [row.duplicate_key, row.duplicate_hash]));
  return {
    scope: rows[0]?.duplicate_scope ?? 0n,
    days: duplicateDays(since, until),
    hashes: [...hashOfKey.values()],
    keys: [...hashOfKey.keys()],
  };
}

/** The transfers of `payment` equal to a recent one of the same PSU (`rows`, newest first: the last of a key names it). */
export function duplicatesOf(
  payment: NewPayment,
  rows: readonly { payment_id: string; duplicate_key: string; created_at: string }[],
): LogicalDuplicate[] {
  const byKey = new Map(rows.map((row) => [row.duplicate_key, row]));
  return payment.transfers.flatMap((transfer) => {
    const match = byKey.get(transfer.duplicateKey);
    return match === undefined
      ? []
      : [{ path: transfer.path, paymentId: match.payment_id, createdAt: match.created_at }];
  });
}
