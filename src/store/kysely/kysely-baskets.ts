import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { TransactionLock } from '../queries/transaction-lock.js';
import * as baskets from '../queries/basket-queries.js';
import type { CreateBasketResult, NewAuthorisation, StoredBasket } from '../sca-records.js';
import type { TppRequestRecord } from '../store.js';
import type { BasketStore } from '../basket-store.js';

/** The signing baskets' part of the Kysely store. */
export class KyselyBaskets implements BasketStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly lock: TransactionLock,
  ) {}

  createBasket(
    basket: { id: string; tppId: string; psuKey: string; requestBody: string; createdAt: Date },
    paymentIds: readonly string[],
    request: TppRequestRecord,
    authorisation: NewAuthorisation,
  ): Promise<CreateBasketResult> {
    return baskets.createBasket(this.db, this.lock, basket, paymentIds, request, authorisation);
  }

  findBasket(tppId: string, basketId: string): Promise<StoredBasket | undefined> {
    return baskets.findBasket(this.db, tppId, basketId);
  }

  findBasketOfPayment(paymentId: string): Promise<string | undefined> {
    return baskets.findBasketOfPayment(this.db, paymentId);
  }

  deleteBasket(tppId: string, basketId: string): Promise<boolean> {
    return baskets.deleteBasket(this.db, tppId, basketId);
  }
}
