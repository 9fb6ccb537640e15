import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { consoleLink } from '../support/console-requests.js';
import { ConsoleVisitor } from '../support/console-visitor.js';
import {
  type NotifyingTestApp,
  approvedSubscribedPayment,
  startNotifyingTestApp,
} from '../support/notifying-test-app.js';
import { OTHER_TPP_ID, TPP_ID } from '../support/tpp-fixtures.js';
import type { Clock } from '../../src/domain/clock.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';

/**
 * The console's delivery log (docs/console.md, docs/notifications.md "In the sandbox"): a TPP sees
 * its own notifications with each try, answer and timing, and sends one again with a button; it never
 * sees nor sends another TPP's.
 */

let n: NotifyingTestApp;
/** Test TPP A's payment: its first notification was answered 500 with HTML, the rest wait behind it. */
let paymentId: string;
/** Test TPP B's payment, delivered. */
let otherPaymentId: string;

/** The bank's and the relay's clock stands still: a failed try's retry never falls due by itself, so each drain sends only what a test made due. */
const frozen = new Date();
const clock: Clock = { now: () => new Date(frozen) };

before(async () => {
  n = await startNotifyingTestApp({ clock });
  n.answers.push({ status: 500, body: '<b>not now</b>' });
  ({ paymentId } = await approvedSubscribedPayment(n, '/hooks/a'));
  await n.notifications.relay.drain();
  ({ paymentId: otherPaymentId } = await approvedSubscribedPayment(n, '/hooks/b', n.t.fixtures.otherTpp));
  await n.notifications.relay.drain();
});
after(() => n.close());

async function signedIn(as?: CertificateAndKey, language = 'en'): Promise<ConsoleVisitor> {
  const visitor = new ConsoleVisitor(n.t.app, language);
  assert.equal((await visitor.open((await consoleLink(n.t, as)).href)).statusCode, 303);
  return visitor;
}

/** The events the page lists, in its order: [eventId, state, status]. */
function listed(body: string): [string, string, string][] {
  return [...body.matchAll(/data-event-id="([^"]+)" data-state="([^"]+)" data-status="([^"]+)"/g)].map((m) => [
    m[1]!,
    m[2]!,
    m[3]!,
  ]);
}

/** The part of the page about one event. */
function eventHtml(body: string, eventId: string): string {
  const start = body.indexOf(`data-event-id="${eventId}"`);
  assert.ok(start >= 0, `the page lists ${eventId}`);
  const end = body.indexOf('data-event-id=', start + 1);
  return body.slice(start, end < 0 ? undefined : end);
}

describe('the console’s notifications page', () => {
  it('lists the TPP’s own notifications, newest first, with state, destination and each try, the answer as text', async () => {
    const a = await signedIn();
    const page = await a.open('/console/notifications');
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /<a href="\/console\/notifications" aria-current="page">Notifications<\/a>/);
    const log = await n.t.store.listNotifications(TPP_ID, 10);
    assert.deepEqual(
      listed(page.body),
      log.map((e) => [e.eventId, e.endedAt === undefined ? 'pending' : e.endReason, e.status]),
    );
    assert.deepEqual(
      listed(page.body).map(([, state, status]) => [state, status]),
      [
        ['pending', 'ACTC'],
        ['pending', 'finalised'],
        ['pending', 'psuAuthenticated'],
      ],
      'the first answered 500 and waits for its retry; the later ones wait behind it',
    );
    const first = eventHtml(page.body, log[2]!.eventId);
    assert.match(first, /pending: next try \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    assert.match(first, new RegExp(`payment ${paymentId}`));
    assert.match(first, /<dt>Changed<\/dt><dd><code>authorisation /, 'the authorisation that changed');
    assert.match(first, new RegExp(`${n.base}/hooks/a`));
    assert.match(first, /Try 1: <strong class="outcome">HTTP 500<\/strong> · <span class="duration">\d+ ms<\/span>/);
    assert.match(first, /&lt;b&gt;not now&lt;\/b&gt;/, 'the answer escaped');
    assert.doesNotMatch(page.body, /<b>not now<\/b>/);
    assert.match(eventHtml(page.body, log[0]!.eventId), /Not tried yet\./);
    assert.doesNotMatch(page.body, new RegExp(otherPaymentId), 'not another TPP’s');
  });

  it('shows another TPP its own notifications, delivered, and in Bokmål', async () => {
    const b = await signedIn(n.t.fixtures.otherTpp, 'nb');
    const page = await b.open('/console/notifications');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /aria-current="page">Varsler</);
    const log = await n.t.store.listNotifications(OTHER_TPP_ID, 10);
    assert.deepEqual(
      listed(page.body).map(([eventId, state]) => [eventId, state]),
      log.map((e) => [e.eventId, 'delivered']),
    );
    assert.match(b.text(), /levert \d{4}-/);
    assert.match(b.text(), /Forsøk 1: HTTP 204/);
    assert.doesNotMatch(page.body, new RegExp(paymentId));
  });
});

describe('“Send again”', () => {
  it('refuses a form without its CSRF token (403), and sends nothing', async () => {
    const a = await signedIn();
    await a.open('/console/notifications');
    const [newest] = await n.t.store.listNotifications(TPP_ID, 1);
    const sent = n.received.length;
    const refused = await a.post(`/console/notifications/${newest!.eventId}/resend`, {}, null);
    assert.equal(refused.statusCode, 403);
    await n.notifications.relay.drain();
    assert.equal(n.received.length, sent);
    assert.deepEqual(await n.t.store.listNotifications(TPP_ID, 1), [newest]);
  });

  it('refuses another TPP’s event id, or none, with 404 on the page, and sends nothing', async () => {
    const a = await signedIn();
    await a.open('/console/notifications');
    const [theirs] = await n.t.store.listNotifications(OTHER_TPP_ID, 1);
    const before = await n.t.store.listNotifications(OTHER_TPP_ID, 10);
    for (const eventId of [theirs!.eventId, 'no-such-event']) {
      const refused = await a.post(`/console/notifications/${eventId}/resend`, {});
      assert.equal(refused.statusCode, 404, eventId);
      assert.match(a.text(), new RegExp(`That did not work: No notification ${eventId} is yours\\.`));
    }
    await n.notifications.relay.drain();
    assert.deepEqual(await n.t.store.listNotifications(OTHER_TPP_ID, 10), before, 'theirs untouched');
  });

  it('sends the TPP’s event again at once, with its event id; the ones behind it follow, and the log shows each try', async () => {
    const a = await signedIn();
    await a.open('/console/notifications');
    const log = await n.t.store.listNotifications(TPP_ID, 10);
    const first = log[2]!;
    const arrived = n.next();
    const resent = await a.post(`/console/notifications/${first.eventId}/resend`, {});
    assert.equal(resent.statusCode, 303);
    assert.equal(resent.headers.location, '/console/notifications?done=notification-resent');
    // Nothing sweeps in this app: the store's nudge after the resend sent it.
    const got = await arrived;
    assert.equal((JSON.parse(got.body) as { eventId: string }).eventId, first.eventId);
    await n.notifications.relay.drain();

    const page = await a.open('/console/notifications?done=notification-resent');
    assert.match(a.text(), /The notification is being sent again\./);
    assert.deepEqual(
      listed(page.body).map(([, state]) => state),
      ['delivered', 'delivered', 'delivered'],
    );
    const html = eventHtml(page.body, first.eventId);
    assert.match(html, /Try 1: <strong class="outcome">HTTP 500/);
    assert.match(html, /Try 2: <strong class="outcome">HTTP 204/);
    assert.match(html, /delivered \d{4}-/);

    // A delivered one is sent again too: the same body, the same event id.
    const again = n.next();
    await a.post(`/console/notifications/${log[0]!.eventId}/resend`, {});
    const repeated = await again;
    const original = n.received.find(
      (r) => r !== repeated && (JSON.parse(r.body) as { eventId: string }).eventId === log[0]!.eventId,
    );
    assert.equal(repeated.body, original?.body);
    await n.notifications.relay.drain();
  });
});
