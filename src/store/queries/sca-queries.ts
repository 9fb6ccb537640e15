import { insertHandovers } from './core-handover-queries.js';
import { scheduleOf } from '../../domain/payments/periodic-payment.js';
import type { Kysely, Selectable } from 'kysely';
import type { AuthorisationKind, AuthorisationStatus } from '../../domain/sca.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import { LIFECYCLE } from '../../domain/payment-lifecycle.js';
import type { AuthorisationTable, Database } from '../database.js';
import type {
  Authorisation,
  AuthorisationStep,
  NewAuthorisation,
  PaymentDecision,
  PsuSession,
  ScaPayment,
} from '../sca-records.js';
import { authorisationRow, tppRequestRow } from '../payment-rows.js';
import type { StoredTppRequest, TppRequestRecord } from '../store.js';
import type { TransactionLock } from './transaction-lock.js';
import { findStoredRequest } from './tpp-request-queries.js';
import { insertSubscription } from './notification-subscription-queries.js';
import { transfersOfPayments } from './transfer-rows.js';

/** PSU sessions, authorisations, and the payment decisions an SCA makes. */
export async function findPsuSession(
  db: Kysely<Database>,
  tppId: string,
  psuId: string,
): Promise<PsuSession | undefined> {
  const row = await db
    .selectFrom('psu_sessions')
    .selectAll()
    .where('psu_id', '=', psuId)
    .where('tpp_id', '=', tppId)
    .executeTakeFirst();
  return row === undefined
    ? undefined
    : { psuId: row.psu_id, tppId: row.tpp_id, customerId: row.customer_id, lastScaAt: new Date(row.last_sca_at) };
}

/** The PSU's session with this TPP after an SCA: its PSU-ID is kept, the time of the SCA renewed. */
export async function recordSca(
  db: Kysely<Database>,
  tppId: string,
  customerId: string,
  at: Date,
  tppSessionId: string | undefined,
  newPsuId: string,
): Promise<PsuSession> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('psu_sessions')
      .values({
        psu_id: newPsuId,
        tpp_id: tppId,
        customer_id: customerId,
        last_sca_at: at.toISOString(),
        tpp_session_id: tppSessionId ?? null,
        created_at: at.toISOString(),
      })
      .onConflict((oc) =>
        oc
          .columns(['tpp_id', 'customer_id'])
          .doUpdateSet({ last_sca_at: at.toISOString(), tpp_session_id: tppSessionId ?? null }),
      )
      .execute();
    const row = await trx
      .selectFrom('psu_sessions')
      .selectAll()
      .where('tpp_id', '=', tppId)
      .where('customer_id', '=', customerId)
      .executeTakeFirstOrThrow();
    return { psuId: row.psu_id, tppId: row.tpp_id, customerId: row.customer_id, lastScaAt: new Date(row.last_sca_at) };
  });
}

export async function createAuthorisation(db: Kysely<Database>, a: NewAuthorisation): Promise<void> {
  await db.insertInto('authorisations').values(authorisationRow(a)).execute();
}

/**
 * Stores the authorisation a TPP's POST …/authorisations started with the request and its answer,
 * in one transaction, unless the TPP sent this X-Request-ID before: then the stored request is
 * returned and nothing is written. The request's lock serialises two starts sent with one X-Request-ID.
 */
export async function startAuthorisation(
  db: Kysely<Database>,
  lock: TransactionLock,
  a: NewAuthorisation,
  request: TppRequestRecord,
): Promise<StoredTppRequest | undefined> {
  return db.transaction().execute(async (trx) => {
    await lock(trx, `request|${request.tppId}|${request.requestId}`);
    const earlier = await findStoredRequest(trx, request.tppId, request.requestId);
    if (earlier !== undefined) return earlier;
    await createAuthorisation(trx, a);
    await trx
      .insertInto('tpp_requests')
      .values(tppRequestRow(request, null, a.createdAt.toISOString()))
      .execute();
    await insertSubscription(trx, request, a.createdAt.toISOString());
    return undefined;
  });
}

export async function findAuthorisation(db: Kysely<Database>, tokenHash: string): Promise<Authorisation | undefined> {
  const row = await db.selectFrom('authorisations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row === undefined ? undefined : toAuthorisation(row);
}

/** The TPP's authorisations of one kind for one object, oldest first (authorisations_object, migration 015). */
export async function listAuthorisations(
  db: Kysely<Database>,
  tppId: string,
  kind: AuthorisationKind,
  objectId: string,
  limit: number,
): Promise<Authorisation[]> {
  const rows = await db
    .selectFrom('authorisations')
    .selectAll()
    .where('object_id', '=', objectId)
    .where('kind', '=', kind)
    .where('tpp_id', '=', tppId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toAuthorisation);
}

/**
 * Moves an authorisation to its next step, replacing its token: only if the token is still the
 * current one, so a link or form can be used once, even by two requests at the same moment.
 */
export async function advanceAuthorisation(
  db: Kysely<Database>,
  id: string,
  fromTokenHash: string,
  step: AuthorisationStep,
  at: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('authorisations')
    .set({
      token_hash: step.tokenHash,
      stage: step.stage,
      status: step.status,
      updated_at: at.toISOString(),
      ...(step.customerId === undefined ? {} : { customer_id: step.customerId }),
      ...(step.attempts === undefined ? {} : { attempts: step.attempts }),
    })
    .where('id', '=', id)
    .where('token_hash', '=', fromTokenHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findPaymentsForSca(
  db: Kysely<Database>,
  tppId: string,
  ids: readonly string[],
): Promise<ScaPayment[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('payments').selectAll().where('tpp_id', '=', tppId).where('id', 'in', ids).execute();
  const transfers = await transfersOfPayments(db, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (row === undefined) return [];
    const body = JSON.parse(row.body) as {
      remittanceInformationUnstructured?: string;
      payments?: { remittanceInformationUnstructured?: string }[];
    };
    const remittance = [
      body.remittanceInformationUnstructured,
      ...(body.payments ?? []).map((p) => p.remittanceInformationUnstructured),
    ].filter((r): r is string => typeof r === 'string');
    return [
      {
        id: row.id,
        tppId: row.tpp_id,
        service: row.service,
        product: row.product,
        status: row.status as TransactionStatus,
        createdAt: row.created_at,
        psuKey: row.psu_key,
        psuId: row.psu_id ?? undefined,
        psuNationalIdHash: row.psu_national_id_hash ?? undefined,
        psuCorporateId: row.psu_corporate_id ?? undefined,
        debtorBban: row.debtor_bban ?? undefined,
        debtorIban: row.debtor_iban ?? undefined,
        debtorCurrency: row.debtor_currency,
        requestedExecutionDate: row.requested_execution_date ?? undefined,
        feeMinor: BigInt(row.fee_minor),
        feeCurrency: row.fee_currency,
        transfers: transfers
          .filter((t) => t.payment_id === id)
          .map((t) => ({
            amountMinor: BigInt(t.amount_minor),
            currency: t.currency,
            creditorName: t.creditor_name,
            creditorAccount: t.creditor_account,
          })),
        remittance,
        schedule: row.service === 'periodic-payments' ? scheduleOf(body) : undefined,
        tppRedirectUri: row.tpp_redirect_uri,
        tppSessionId: row.tpp_session_id,
      },
    ];
  });
}

/** Applies the outcome of an SCA to payments still waiting for one (RCVD); returns those it changed. */
export async function decidePayments(
  db: Kysely<Database>,
  decisions: readonly PaymentDecision[],
  signerCustomerId: string | undefined,
  at: Date,
  handOver = false,
): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const changed: string[] = [];
    const authorised: string[] = [];
    for (const decision of decisions) {
      const result = await trx
        .updateTable('payments')
        .set({
          status: decision.status,
          status_reason: decision.reason ?? null,
          updated_at: at.toISOString(),
          ...(decision.status === 'RJCT'
            ? {}
            : { signed_by_customer_id: signerCustomerId ?? null, authorised_at: at.toISOString() }),
        })
        .where('id', '=', decision.paymentId)
        // Approved or refused only while waiting for SCA: one cancelled or decided meanwhile is left as it is.
        .where('status', 'in', LIFECYCLE.approve.from)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) {
        await trx
          .updateTable('transfers')
          .set({ status: decision.status })
          .where('payment_id', '=', decision.paymentId)
          .execute();
        changed.push(decision.paymentId);
        if (decision.status !== 'RJCT') authorised.push(decision.paymentId);
      }
    }
    // A bank's own core gets each payment authorised here once (docs/core.md): its hand-over is written with its status.
    if (handOver) await insertHandovers(trx, authorised, at);
    return changed;
  });
}

function toAuthorisation(row: Selectable<AuthorisationTable>): Authorisation {
  return {
    id: row.id,
    stage: row.stage as Authorisation['stage'],
    kind: row.kind as AuthorisationKind,
    objectId: row.object_id ?? undefined,
    tppId: row.tpp_id,
    tppName: row.tpp_name,
    psuId: row.psu_id ?? undefined,
    psuNationalIdHash: row.psu_national_id_hash ?? undefined,
    psuCorporateId: row.psu_corporate_id ?? undefined,
    psuContext: row.psu_context ?? undefined,
    authMethod: row.auth_method ?? undefined,
    redirectPreferred: Number(row.redirect_preferred) === 1,
    tppRedirectUri: row.tpp_redirect_uri ?? undefined,
    tppSessionId: row.tpp_session_id ?? undefined,
    status: row.status as AuthorisationStatus,
    customerId: row.customer_id ?? undefined,
    attempts: Number(row.attempts),
    expiresAt: new Date(row.expires_at),
    createdAt: new Date(row.created_at),
  };
}
