import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { NewAuthorisation } from '../../src/store/sca-records.js';
import type { NewSubscription, Store, TppRequestRecord } from '../../src/store/store.js';
import { newPayment, requestFor } from '../support/new-payment.js';
import type { StoreUnderTest } from './store-under-test.js';
import { newAisConsent } from '../support/new-ais-consent.js';
import { newAuthorisation } from '../support/new-authorisation.js';

const HEADERS = JSON.stringify({
  'ASPSP-Notification-Support': 'true',
  'ASPSP-Notification-Content': 'status=SCA,LAST',
});

/** A record as a create with TPP-Notification-URI gives it: its answer's headers and its subscription. */
function subscribed(request: TppRequestRecord, resource: NewSubscription['resource']): TppRequestRecord {
  return {
    ...request,
    responseHeaders: HEADERS,
    subscription: { resource, uri: 'https://hooks.tpp.example/n?r=1', content: ['SCA', 'LAST'] },
  };
}

function record(tppId: string, operation: string): TppRequestRecord {
  return {
    tppId,
    requestId: randomUUID(),
    operation,
    bodySha256: 'c'.repeat(64),
    responseStatus: 201,
    responseBody: '{}',
  };
}

function authorisation(kind: NewAuthorisation['kind'], objectId: string, tppId: string): NewAuthorisation {
  return newAuthorisation(kind, objectId, tppId);
}

/**
 * Notification subscriptions (docs/notifications.md): each create writes its resource's in its own
 * transaction, with its answer's headers for a retry, on both engines (PostgreSQL's payment create
 * through psd2_create_payment).
 */
export function notificationContract(open: () => Promise<StoreUnderTest>): void {
  async function withStore(test: (store: Store) => Promise<void>): Promise<void> {
    const { store } = await open();
    try {
      await store.migrate();
      await test(store);
    } finally {
      await store.close();
    }
  }

  describe('notification subscriptions', () => {
    it('stores a payment create’s subscription and answer headers with the payment; a retry writes no second one', () =>
      withStore(async (store) => {
        const payment = newPayment();
        const request = subscribed(requestFor(payment), { kind: 'payment', id: payment.id });
        assert.equal((await store.createPayment(payment, request, { duplicatesSince: null })).outcome, 'created');
        const found = await store.findNotificationSubscription({ kind: 'payment', id: payment.id });
        assert.equal(found?.uri, 'https://hooks.tpp.example/n?r=1');
        assert.deepEqual(found?.content, ['SCA', 'LAST']);
        assert.equal(found?.tppId, payment.tppId);
        assert.deepEqual(found?.resource, { kind: 'payment', id: payment.id });
        assert.equal(found?.createdAt, payment.createdAt.toISOString());
        const again = await store.createPayment(payment, request, { duplicatesSince: null });
        assert.equal(again.outcome, 'replayed');
        assert.equal(again.outcome === 'replayed' ? again.request.responseHeaders : undefined, HEADERS);
        assert.equal((await store.findTppRequest(payment.tppId, request.requestId))?.responseHeaders, HEADERS);
      }));

    it('stores none for a payment created without one, and keeps resources of one kind from another', () =>
      withStore(async (store) => {
        const payment = newPayment();
        await store.createPayment(payment, requestFor(payment), { duplicatesSince: null });
        assert.equal(await store.findNotificationSubscription({ kind: 'payment', id: payment.id }), undefined);
        assert.equal(
          (await store.findTppRequest(payment.tppId, requestFor(payment).requestId))?.responseHeaders,
          undefined,
        );
        const other = newPayment();
        await store.createPayment(other, subscribed(requestFor(other), { kind: 'payment', id: other.id }), {
          duplicatesSince: null,
        });
        assert.equal(await store.findNotificationSubscription({ kind: 'basket', id: other.id }), undefined);
      }));

    it('writes nothing of a payment refused as a logical duplicate', () =>
      withStore(async (store) => {
        const first = newPayment();
        await store.createPayment(first, requestFor(first), { duplicatesSince: null });
        const twin = { ...newPayment(), transfers: first.transfers, psu: first.psu };
        const result = await store.createPayment(twin, subscribed(requestFor(twin), { kind: 'payment', id: twin.id }), {
          duplicatesSince: new Date(Date.now() - 3_600_000),
        });
        assert.equal(result.outcome, 'duplicate');
        assert.equal(await store.findNotificationSubscription({ kind: 'payment', id: twin.id }), undefined);
      }));

    it('stores a signing basket’s, a consent’s and an authorisation’s with them', () =>
      withStore(async (store) => {
        const payment = newPayment();
        await store.createPayment(payment, requestFor(payment), { duplicatesSince: null });
        const tppId = payment.tppId;

        const basketId = `basket-${randomUUID()}`;
        const basket = { id: basketId, tppId, psuKey: 'psu:n', requestBody: '{}', createdAt: new Date() };
        const basketRequest = subscribed(record(tppId, 'POST /v1/signing-baskets'), { kind: 'basket', id: basketId });
        assert.equal(
          (await store.createBasket(basket, [payment.id], basketRequest, authorisation('basket', basketId, tppId)))
            .outcome,
          'created',
        );

        const consent = newAisConsent(tppId);
        const consentId = consent.id;
        const consentRequest = subscribed(record(tppId, 'POST /v1/bank-offered-consents'), {
          kind: 'consent',
          id: consentId,
        });
        assert.equal(
          await store.createAisConsent(consent, authorisation('consent', consentId, tppId), consentRequest),
          undefined,
        );

        const started = authorisation('payment', payment.id, tppId);
        const startRequest = subscribed(record(tppId, `POST /v1/payments/x/${payment.id}/authorisations`), {
          kind: 'authorisation',
          id: started.id,
        });
        assert.equal(await store.startAuthorisation(started, startRequest), undefined);
        assert.equal((await store.startAuthorisation(started, startRequest))?.responseHeaders, HEADERS);

        for (const resource of [
          { kind: 'basket' as const, id: basketId },
          { kind: 'consent' as const, id: consentId },
          { kind: 'authorisation' as const, id: started.id },
        ]) {
          const found = await store.findNotificationSubscription(resource);
          assert.deepEqual(found?.resource, resource);
          assert.deepEqual(found?.content, ['SCA', 'LAST']);
        }
      }));
  });
}
