import type { CreateBasketResult, NewAuthorisation, StoredBasket } from './sca-records.js';
import type { TppRequestRecord } from './tpp-request-records.js';

/** Signing baskets: payments grouped for one SCA. */
export interface BasketStore {
  createBasket(
    basket: { id: string; tppId: string; psuKey: string; requestBody: string; createdAt: Date },
    paymentIds: readonly string[],
    request: TppRequestRecord,
    authorisation: NewAuthorisation,
  ): Promise<CreateBasketResult>;
  findBasket(tppId: string, basketId: string): Promise<StoredBasket | undefined>;
  findBasketOfPayment(paymentId: string): Promise<string | undefined>;
  deleteBasket(tppId: string, basketId: string): Promise<boolean>;
}
