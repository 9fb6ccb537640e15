import type { Kysely } from 'kysely';
import type { TransactionLock } from './transaction-lock.js';
import type { Database } from '../database.js';
import type { CreateBasketResult, NewAuthorisation, StoredBasket } from '../sca-records.js';
import { createAuthorisation } from './sca-queries.js';
import type { TppRequestRecord } from '../store.js';
import { tppRequestRow } from '../payment-rows.js';
import { findStoredRequest } from './tpp-request-queries.js';
import { insertSubscription } from './notification-subscription-queries.js';

/**
 * Signing baskets: a payment is in at most one basket (basket_payments.payment_id is unique).
 * Concurrent creates naming the same payment, or sent with the same X-Request-ID, are serialised by
 * locks on those keys taken first (payments in sorted order, so two creates never wait on each
 * other): the later one then sees the earlier one's rows and answers 409 or the stored answer,
 * where on PostgreSQL it would otherwise run into the unique index and fail.
 */
export async function createBasket(
  db: Kysely<Database>,
  lock: TransactionLock,
  basket: { id: string; tppId: string; psuKey: string; requestBody: string; createdAt: Date },
  paymentIds: readonly string[],
  request: TppRequestRecord,
  authorisation: NewAuthorisation,
): Promise<CreateBasketResult> {
  return db.transaction().execute(async (trx) => {
    await lock(trx, `request|${request.tppId}|${request.requestId}`);
    for (const paymentId of [...new Set(paymentIds)].sort()) await lock(trx, `basket-payment|${paymentId}`);
    const earlier = await findStoredRequest(trx, request.tppId, request.requestId);
    if (earlier !== undefined) return { outcome: 'replayed', request: earlier } as const;
    const taken = await trx
      .selectFrom('basket_payments')
      .select(['payment_id', 'basket_id'])
      .where('payment_id', 'in', [...paymentIds])
      .executeTakeFirst();
    if (taken !== undefined)
      return { outcome: 'payment-in-basket', paymentId: taken.payment_id, basketId: taken.basket_id } as const;
    const at = basket.createdAt.toISOString();
    await trx
      .insertInto('baskets')
      .values({
        id: basket.id,
        tpp_id: basket.tppId,
        psu_key: basket.psuKey,
        request_body: basket.requestBody,
        created_at: at,
      })
      .execute();
    await trx
      .insertInto('basket_payments')
      .values(paymentIds.map((paymentId, seq) => ({ basket_id: basket.id, payment_id: paymentId, seq })))
      .execute();
    await createAuthorisation(trx, authorisation);
    await trx
      .insertInto('tpp_requests')
      .values(tppRequestRow(request, null, at))
      .execute();
    await insertSubscription(trx, request, at);
    return { outcome: 'created' } as const;
  });
}

export async function findBasket(
  db: Kysely<Database>,
  tppId: string,
  basketId: string,
): Promise<StoredBasket | undefined> {
  const row = await db
    .selectFrom('baskets')
    .selectAll()
    .where('id', '=', basketId)
    .where('tpp_id', '=', tppId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const payments = await db
    .selectFrom('basket_payments')
    .select('payment_id')
    .where('basket_id', '=', basketId)
    .orderBy('seq')
    .execute();
  return {
    id: row.id,
    tppId: row.tpp_id,
    psuKey: row.psu_key,
    createdAt: row.created_at,
    paymentIds: payments.map((p) => p.payment_id),
  };
}

export async function findBasketOfPayment(db: Kysely<Database>, paymentId: string): Promise<string | undefined> {
  return (
    await db.selectFrom('basket_payments').select('basket_id').where('payment_id', '=', paymentId).executeTakeFirst()
  )?.basket_id;
}

/** Removes a basket; its payments are free again to be signed alone or in another basket. */
export async function deleteBasket(db: Kysely<Database>, tppId: string, basketId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const basket = await trx
      .selectFrom('baskets')
      .select('id')
      .where('id', '=', basketId)
      .where('tpp_id', '=', tppId)
      .executeTakeFirst();
    if (basket === undefined) return false;
    await trx.deleteFrom('basket_payments').where('basket_id', '=', basketId).execute();
    await trx.deleteFrom('baskets').where('id', '=', basketId).execute();
    return true;
  });
}
