import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { NotificationContent } from '../../src/domain/notifications/notification-content.js';
import type { NewAuthorisation } from '../../src/store/sca-records.js';
import type { Store, TppRequestRecord } from '../../src/store/store.js';
import type { NotificationAttempt, NotificationEnd } from '../../src/store/notification-records.js';
import { newPayment, requestFor } from '../support/new-payment.js';
import type { StoreUnderTest } from './store-under-test.js';
import { newAuthorisation } from '../support/new-authorisation.js';
import { newAisConsent } from '../support/new-ais-consent.js';

const URI = 'https://hooks.tpp.example/n';
const HOUR = 3_600_000;

function subscribed(
  request: TppRequestRecord,
  kind: 'payment' | 'authorisation',
  id: string,
  content: NotificationContent[],
): TppRequestRecord {
  return { ...request, subscription: { resource: { kind, id }, uri: URI, content } };
}

function authorisationOf(paymentId: string, tppId: string, kind: NewAuthorisation['kind'] = 'payment') {
  return newAuthorisation(kind, paymentId, tppId);
}

/**
 * The notification outbox (docs/notifications.md, "Delivery"): a subscribed resource's status change
 * writes its event in the transaction that makes it (migration 027's triggers), and the sender claims
 * events one instance at a time, in order per resource, on both engines.
 */
export function notificationOutboxContract(open: () => Promise<StoreUnderTest>): void {
  async function withStore(test: (store: Store) => Promise<void>): Promise<void> {
    const { store } = await open();
    try {
      await store.migrate();
      await test(store);
    } finally {
      await store.close();
    }
  }

  async function paymentWith(store: Store, content: NotificationContent[] | undefined) {
    const payment = newPayment();
    const request =
      content === undefined ? requestFor(payment) : subscribed(requestFor(payment), 'payment', payment.id, content);
    assert.equal((await store.createPayment(payment, request, { duplicatesSince: null })).outcome, 'created');
    return payment;
  }

  /** A consent of a new TPP, received, subscribed with `content`, and its authorisation. */
  async function consentWith(store: Store, content: NotificationContent[]) {
    const tppId = newPayment().tppId;
    const consent = newAisConsent(tppId);
    const consentId = consent.id;
    const request: TppRequestRecord = {
      ...requestFor(newPayment()),
      operation: 'POST /v1/bank-offered-consents',
      subscription: { resource: { kind: 'consent', id: consentId }, uri: URI, content },
    };
    const started = authorisationOf(consentId, tppId, 'consent');
    assert.equal(await store.createAisConsent(consent, started, request), undefined);
    return { tppId, consentId, started };
  }

  /** A try of a claimed event ended, or deferred to `next`, as the relay writes its answer. */
  const end = (
    store: Store,
    seq: number,
    instance: string,
    how: NotificationEnd,
    attempt: NotificationAttempt,
    at: Date,
  ) => store.closeNotifications(instance, [{ seq, attempt, end: how }], at);
  const defer = (store: Store, seq: number, instance: string, next: Date, attempt: NotificationAttempt) =>
    store.closeNotifications(instance, [{ seq, attempt, nextAttemptAt: next }], next);

  const claim = (store: Store, instance = 'a', now = new Date()) =>
    store.claimNotifications(instance, now, new Date(now.getTime() + 30_000), 100);

  describe('notification outbox', () => {
    it('writes an event with a subscribed payment’s status change, and none for a payment without a subscription', () =>
      withStore(async (store) => {
        const watched = await paymentWith(store, ['PROCESS', 'LAST']);
        const unwatched = await paymentWith(store, undefined);
        assert.equal(await store.countPendingNotifications(), 0, 'a create is no change');
        await store.cancelPayment(watched.tppId, watched.id, new Date(), randomUUID());
        await store.cancelPayment(unwatched.tppId, unwatched.id, new Date(), randomUUID());
        const events = await claim(store);
        assert.equal(events.length, 1);
        const [event] = events;
        assert.deepEqual(
          {
            resource: event!.resource,
            subject: event!.subject,
            statusKind: event!.statusKind,
            status: event!.status,
            content: event!.content,
            last: event!.last,
            uri: event!.uri,
            tppId: event!.tppId,
            attempts: event!.attempts,
          },
          {
            resource: { kind: 'payment', id: watched.id },
            subject: { kind: 'payment', id: watched.id },
            statusKind: 'transactionStatus',
            status: 'CANC',
            content: 'PROCESS',
            last: true,
            uri: URI,
            tppId: watched.tppId,
            attempts: 0,
          },
        );
        assert.match(event!.eventId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }));

    it('tells a subscription of LAST alone only the final status, and one of SCA alone no transaction status', () =>
      withStore(async (store) => {
        const lastOnly = await paymentWith(store, ['LAST']);
        const scaOnly = await paymentWith(store, ['SCA']);
        await store.cancelPayment(lastOnly.tppId, lastOnly.id, new Date(), randomUUID());
        await store.cancelPayment(scaOnly.tppId, scaOnly.id, new Date(), randomUUID());
        const events = await claim(store);
        assert.deepEqual(
          events.map((e) => [e.resource.id, e.content, e.status]),
          [[lastOnly.id, 'LAST', 'CANC']],
        );
      }));

    it('tells each scaStatus change of a payment’s authorisation to the payment’s subscription of SCA, in order, one at a time', () =>
      withStore(async (store) => {
        const payment = await paymentWith(store, ['SCA']);
        const made = authorisationOf(payment.id, payment.tppId);
        await store.createAuthorisation(made);
        const at = new Date();
        assert.ok(
          await store.advanceAuthorisation(
            made.id,
            made.tokenHash,
            { tokenHash: 'h2', stage: 'decision', status: 'psuAuthenticated' },
            at,
          ),
        );
        assert.ok(
          await store.advanceAuthorisation(made.id, 'h2', { tokenHash: 'h3', stage: 'done', status: 'finalised' }, at),
        );
        const first = await claim(store);
        assert.deepEqual(
          first.map((e) => [e.subject.kind, e.subject.id, e.resource.id, e.status, e.content, e.last]),
          [['authorisation', made.id, payment.id, 'psuAuthenticated', 'SCA', false]],
          'the second waits for the first',
        );
        assert.deepEqual(
          await claim(store, 'b'),
          [],
          'another instance finds the first claimed and the second waiting',
        );
        await end(store, first[0]!.seq, 'a', 'delivered', { startedAt: at, durationMs: 3, status: 204 }, at);
        const second = await claim(store, 'b');
        assert.deepEqual(
          second.map((e) => [e.status, e.last]),
          [['finalised', true]],
        );
        assert.ok(second[0]!.seq > first[0]!.seq);
      }));

    it('tells a signing basket’s subscription of PROCESS each change of its payments', () =>
      withStore(async (store) => {
        const payment = await paymentWith(store, undefined);
        const basketId = `basket-${randomUUID()}`;
        const request: TppRequestRecord = {
          ...requestFor(newPayment()),
          operation: 'POST /v1/signing-baskets',
          subscription: { resource: { kind: 'basket', id: basketId }, uri: URI, content: ['PROCESS'] },
        };
        const basket = {
          id: basketId,
          tppId: payment.tppId,
          psuKey: 'psu:n',
          requestBody: '{}',
          createdAt: new Date(),
        };
        const started = authorisationOf(basketId, payment.tppId, 'basket');
        assert.equal((await store.createBasket(basket, [payment.id], request, started)).outcome, 'created');
        await store.cancelPayment(payment.tppId, payment.id, new Date(), randomUUID());
        const events = await claim(store);
        assert.deepEqual(
          events.map((e) => [e.resource.kind, e.resource.id, e.subject.kind, e.subject.id, e.status, e.content]),
          [['basket', basketId, 'payment', payment.id, 'CANC', 'PROCESS']],
        );
      }));

    it('tells a consent’s subscription its refusal as the last change, and its authorisation’s SCA to one of SCA', () =>
      withStore(async (store) => {
        const { tppId, consentId, started } = await consentWith(store, ['SCA', 'LAST']);
        const at = new Date();
        await store.advanceAuthorisation(
          started.id,
          started.tokenHash,
          { tokenHash: 'y', stage: 'done', status: 'failed' },
          at,
        );
        await store.refuseAisConsent(consentId, at);
        const told = (await store.listNotifications(tppId, 10)).reverse();
        assert.deepEqual(
          told.map((e) => [e.resource.kind, e.subject.kind, e.statusKind, e.status, e.content, e.last]),
          [
            ['consent', 'authorisation', 'scaStatus', 'failed', 'SCA', true],
            ['consent', 'consent', 'consentStatus', 'rejected', 'LAST', true],
          ],
        );
      }));

    it('finds valid consents whose SCA is older than an instant, with their bank’s clock, and expires each once, telling its subscription', () =>
      withStore(async (store) => {
        const { tppId, consentId } = await consentWith(store, ['LAST']);
        const scaAt = new Date('2026-01-10T10:00:00.000Z');
        assert.equal(await store.giveAisConsent(consentId, 'customer-1', [], scaAt), true);
        assert.deepEqual(await store.findExpiringConsents(scaAt, { bank: tppId }, 10), [], 'strictly older');
        const later = new Date(scaAt.getTime() + 1);
        const found = [{ id: consentId, bank: tppId, scaAt, clockOffsetMs: 0n }];
        assert.deepEqual(await store.findExpiringConsents(later, { bank: tppId }, 10), found);
        assert.deepEqual(
          (await store.findExpiringConsents(later, undefined, 100)).filter((c) => c.bank === tppId),
          found,
          'among every bank (one without a row is at offset 0)',
        );
        assert.deepEqual(await store.findExpiringConsents(later, { bank: 'another-bank' }, 10), []);
        assert.deepEqual(
          await store.findExpiringConsents(later, { clockOffsetMs: 5n }, 10),
          [],
          'a bank at another offset',
        );
        const at = new Date('2026-07-10T10:00:00.000Z');
        assert.equal(await store.expireConsents([consentId], at), 1);
        assert.equal(await store.expireConsents([consentId], at), 0, 'once');
        assert.deepEqual(
          await store.findExpiringConsents(later, { bank: tppId }, 10),
          [],
          'an expired one is not valid',
        );
        const told = await store.listNotifications(tppId, 10);
        assert.deepEqual(
          told.map((e) => [e.resource.kind, e.statusKind, e.status, e.last]),
          [['consent', 'consentStatus', 'expired', true]],
        );
      }));

    it('retries a deferred event when due, logs each try, and sends a lapsed claim again', () =>
      withStore(async (store) => {
        const payment = await paymentWith(store, ['PROCESS']);
        await store.cancelPayment(payment.tppId, payment.id, new Date(), randomUUID());
        const now = new Date();
        const [event] = await claim(store, 'a', now);
        await defer(store, event!.seq, 'a', new Date(now.getTime() + HOUR), {
          startedAt: now,
          durationMs: 12,
          status: 500,
          answer: 'oops',
        });
        assert.deepEqual(await claim(store, 'a', new Date(now.getTime() + HOUR - 1)), [], 'not before it is due');
        const [again] = await claim(store, 'b', new Date(now.getTime() + HOUR));
        assert.equal(again?.attempts, 1);
        // b dies holding it: its claim lapses and a takes it over.
        const [taken] = await claim(store, 'a', new Date(now.getTime() + HOUR + 31_000));
        assert.equal(taken?.seq, event!.seq);
        // b's late answer changes nothing: the claim is a's.
        await end(store, event!.seq, 'b', 'delivered', { startedAt: now, durationMs: 1, status: 200 }, now);
        assert.equal(await store.countPendingNotifications(), 1);
        await end(store, event!.seq, 'a', 'delivered', { startedAt: now, durationMs: 5, status: 200 }, now);
        const [logged] = await store.listNotifications(payment.tppId, 10);
        assert.equal(logged?.endReason, 'delivered');
        assert.deepEqual(
          logged?.tries.map((t) => [t.attempt, t.status, t.answer]),
          [
            [1, 500, 'oops'],
            [2, 200, undefined],
          ],
        );
        assert.equal(await store.resendNotification(payment.tppId, event!.eventId), true);
        assert.equal(await store.resendNotification('another-tpp', event!.eventId), false, 'only its own TPP’s');
        assert.equal((await claim(store, 'a', now))[0]?.eventId, event!.eventId, 'sent again with its event id');
      }));

    it('stops a resource’s notifications when its endpoint answers 410: the subscription goes, and its waiting events end', () =>
      withStore(async (store) => {
        const payment = await paymentWith(store, ['SCA', 'PROCESS']);
        const made = authorisationOf(payment.id, payment.tppId);
        await store.createAuthorisation(made);
        const at = new Date();
        await store.advanceAuthorisation(
          made.id,
          made.tokenHash,
          { tokenHash: 'x', stage: 'done', status: 'failed' },
          at,
        );
        await store.cancelPayment(payment.tppId, payment.id, at, randomUUID());
        const [first] = await claim(store);
        await end(store, first!.seq, 'a', 'gone', { startedAt: at, durationMs: 2, status: 410 }, at);
        assert.equal(await store.countPendingNotifications(), 0);
        assert.equal(await store.findNotificationSubscription({ kind: 'payment', id: payment.id }), undefined);
        assert.deepEqual(
          (await store.listNotifications(payment.tppId, 10)).map((e) => e.endReason),
          ['stopped', 'gone'],
        );
      }));

    it('keeps an ended notification and its tries for their days, one not ended until it ends, and a subscription with its resource', () =>
      withStore(async (store) => {
        const ended = await paymentWith(store, ['PROCESS']);
        const waiting = await paymentWith(store, ['PROCESS']);
        await store.cancelPayment(ended.tppId, ended.id, new Date(), randomUUID());
        await store.cancelPayment(waiting.tppId, waiting.id, new Date(), randomUUID());
        const long = new Date(Date.now() - 20 * 24 * HOUR);
        const [first] = (await claim(store)).filter((e) => e.resource.id === ended.id);
        await end(store, first!.seq, 'a', 'delivered', { startedAt: long, durationMs: 1, status: 204 }, long);
        const cutoff = new Date(Date.now() - 14 * 24 * HOUR);
        assert.equal(await store.deleteRetained('notifications', cutoff, 100), 1, 'the ended event');
        assert.equal(await store.deleteRetained('notifications', cutoff, 100), 1, 'then its try');
        assert.equal(await store.deleteRetained('notifications', cutoff, 100), 0, 'every subscription has its payment');
        assert.deepEqual(
          (await store.listNotifications(ended.tppId, 10)).map((e) => e.resource.id),
          [waiting.id],
          'the one not ended is kept',
        );
        // Production's retention deletes a final payment past its bookkeeping years: its subscription then goes.
        assert.ok((await store.deleteRetained('payments', new Date(Date.now() + HOUR), 100)) >= 2);
        assert.equal(await store.deleteRetained('notifications', cutoff, 100), 2, 'both payments’ subscriptions');
        assert.equal(await store.findNotificationSubscription({ kind: 'payment', id: waiting.id }), undefined);
      }));
  });
}
