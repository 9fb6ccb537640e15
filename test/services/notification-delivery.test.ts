import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { flattenedVerify, importJWK } from 'jose';
import type { Config } from '../../src/config/config.js';
import type { Clock } from '../../src/domain/clock.js';
import { NOTIFICATION_RETRY_WINDOW_MS } from '../../src/domain/limits.js';
import { type ServerNotifications, serverNotifications } from '../../src/server-notifications.js';
import { NotificationRelay } from '../../src/services/notifications/notification-relay.js';
import { notificationSender } from '../../src/services/notifications/notification-sender.js';
import { NotificationSigner } from '../../src/security/notification-signer.js';
import { ensureNotificationSigningKey } from '../../src/security/notification-signing-key.js';
import { OLA_ACCOUNTS, createCrossBorder, crossBorderBody } from '../support/payment-requests.js';
import { TPP_ID } from '../support/tpp-fixtures.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * Notifications sent (docs/notifications.md, "Delivery"): a TPP that subscribed on a create gets
 * each change of its payment's SCA and status at its URI, signed by the bank, in order, at least
 * once; a receiver that fails, hangs or is gone is retried or left as the rules say, and nothing is
 * lost. The receiver is a real HTTP server on 127.0.0.1; the relay is drained, never waited for.
 */
class ManualClock implements Clock {
  current = new Date();
  now(): Date {
    return new Date(this.current);
  }
}

interface Received {
  path: string;
  signature: string;
  body: string;
}

const OLA = '13039319955';
const clock = new ManualClock();
const dir = mkdtempSync(join(tmpdir(), 'psd2-notify-'));
let t: TestApp;
let receiver: Server;
let base: string;
let received: Received[] = [];
/** How the receiver answers the next request (then 204); `hang` never answers. */
let answers: (number | 'hang')[] = [];
let notifications: ServerNotifications;

before(async () => {
  receiver = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        signature: String(request.headers['x-jws-signature'] ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = answers.shift() ?? 204;
      if (answer !== 'hang') response.writeHead(answer).end(answer >= 400 ? 'not now' : '');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  t = await startTestApp({ clock, notificationKeys: () => notifications.jwks() });
  const config = {
    dataDir: dir,
    mode: 'sandbox',
    notifications: { signingKeyFile: undefined, allowedNetworks: [] },
  } as unknown as Config;
  notifications = await serverNotifications(config, t.store, clock, () => undefined);
  await notifications.start();
});
after(async () => {
  await notifications.relay.stop();
  await t.close();
  receiver.closeAllConnections();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  clock.current = new Date();
  received = [];
  answers = [];
});

/** A payment from Ola's account, subscribed at `path` of the receiver; its scaRedirect. */
async function subscribedPayment(path: string, content = 'status=SCA,PROCESS,LAST') {
  const response = await createCrossBorder(t, {
    body: { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } },
    headers: { 'TPP-Notification-URI': `${base}${path}`, 'TPP-Notification-Content-Preferred': content },
  });
  assert.equal(response.statusCode, 201, response.body);
  assert.equal(response.headers['aspsp-notification-support'], 'true');
  return response.json() as { paymentId: string; _links: { scaRedirect: { href: string } } };
}

async function approve(link: string): Promise<void> {
  const psu = new ScriptedPsu(t.app);
  await psu.open(link);
  assert.equal((await psu.logIn(OLA, '123456')).statusCode, 200);
  await psu.approve();
}

/** The JWKS as a TPP fetches it from the bank. */
async function bankKeys() {
  const response = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  assert.equal(response.statusCode, 200, response.body);
  return (response.json() as { keys: (Record<string, unknown> & { kid: string })[] }).keys;
}

/** A TPP's check of a notification: the detached JWS over the body as received, against the bank's JWKS. */
async function verified(notification: Received): Promise<Record<string, unknown>> {
  const [header = '', empty, signature = ''] = notification.signature.split('.');
  assert.equal(empty, '', 'the payload is detached');
  const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string };
  const jwk = (await bankKeys()).find((k) => k.kid === kid);
  assert.ok(jwk, 'the signing key is in the JWKS');
  const key = await importJWK(jwk, jwk.alg as string);
  await flattenedVerify(
    { protected: header, payload: Buffer.from(notification.body).toString('base64url'), signature },
    key,
  );
  return JSON.parse(notification.body) as Record<string, unknown>;
}

describe('notifications to a receiver that takes them', () => {
  it('sends each SCA and status change of a subscribed payment, in order, signed with a key of the bank’s JWKS', async () => {
    const created = await subscribedPayment('/hooks/a');
    await approve(created._links.scaRedirect.href);
    await notifications.relay.drain();
    const bodies = await Promise.all(received.map(verified));
    assert.deepEqual(
      bodies.map((b) => [b.eventType, b.scaStatus ?? b.transactionStatus, b.last]),
      [
        ['SCA', 'psuAuthenticated', false],
        ['SCA', 'finalised', true],
        ['PROCESS', 'ACTC', false],
      ],
    );
    const first = bodies[0] as { resource: Record<string, string>; subject: Record<string, string>; eventId: string };
    assert.deepEqual(first.resource, {
      type: 'payment',
      id: created.paymentId,
      href: `/v1/payments/norwegian-cross-border-credit-transfers/${created.paymentId}`,
    });
    assert.equal(first.subject.type, 'authorisation');
    assert.match(
      first.subject.href!,
      new RegExp(`/v1/payments/norwegian-cross-border-credit-transfers/${created.paymentId}/authorisations/`),
    );
    assert.equal(new Set(bodies.map((b) => b.eventId)).size, 3, 'each event its own id');
    assert.ok(received.every((r) => r.path === '/hooks/a'));
  });

  it('fails the check of a notification whose body was changed', async () => {
    const created = await subscribedPayment('/hooks/b');
    await approve(created._links.scaRedirect.href);
    await notifications.relay.drain();
    const changed = { ...received[0]!, body: received[0]!.body.replace('psuAuthenticated', 'finalised') };
    await assert.rejects(verified(changed), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  });
});

describe('notifications to a receiver that fails', () => {
  it('retries a 500 on the backoff schedule, holding the payment’s next events back, then delivers all in order', async () => {
    const created = await subscribedPayment('/hooks/c', 'status=SCA,PROCESS');
    answers = [500];
    await approve(created._links.scaRedirect.href);
    await notifications.relay.drain();
    assert.equal(received.length, 1, 'tried once; not again before it is due, and the others wait for it');
    const log = await t.store.listNotifications(TPP_ID, 10);
    const failed = log.find((e) => e.resource.id === created.paymentId && e.status === 'psuAuthenticated')!;
    assert.deepEqual(
      failed.tries.map((x) => [x.attempt, x.status, x.answer]),
      [[1, 500, 'not now']],
    );
    const due = Date.parse(failed.nextAttemptAt!);
    assert.ok(
      due >= clock.current.getTime() + 500 && due <= clock.current.getTime() + 1_000,
      'first retry within its base delay',
    );
    clock.current = new Date(due);
    await notifications.relay.drain();
    assert.deepEqual(
      received.map((r) => {
        const body = JSON.parse(r.body) as { scaStatus?: string; transactionStatus?: string };
        return body.scaStatus ?? body.transactionStatus;
      }),
      ['psuAuthenticated', 'psuAuthenticated', 'finalised', 'ACTC'],
    );
  });

  it('stops at 410: the subscription goes, and no later change of the payment is sent', async () => {
    const created = await subscribedPayment('/hooks/d', 'status=SCA,PROCESS');
    answers = [410];
    await approve(created._links.scaRedirect.href);
    await notifications.relay.drain();
    assert.equal(received.length, 1);
    assert.equal(await t.store.findNotificationSubscription({ kind: 'payment', id: created.paymentId }), undefined);
    const ends = (await t.store.listNotifications(TPP_ID, 10))
      .filter((e) => e.resource.id === created.paymentId)
      .map((e) => e.endReason);
    assert.deepEqual(ends, ['stopped', 'stopped', 'gone']);
  });

  it('gives up on an event 24 hours after it was written, and the next one of its payment goes', async () => {
    const created = await subscribedPayment('/hooks/e', 'status=SCA');
    answers = Array.from({ length: 100 }, () => 500);
    await approve(created._links.scaRedirect.href);
    await notifications.relay.drain();
    const start = clock.current.getTime();
    // Each retry when it is due, until the window has passed.
    while (clock.current.getTime() - start <= NOTIFICATION_RETRY_WINDOW_MS) {
      const pending = (await t.store.listNotifications(TPP_ID, 10)).find(
        (e) => e.resource.id === created.paymentId && e.status === 'psuAuthenticated' && e.endedAt === undefined,
      );
      if (pending === undefined) break;
      clock.current = new Date(Math.max(Date.parse(pending.nextAttemptAt!), clock.current.getTime()));
      await notifications.relay.drain();
    }
    const first = (await t.store.listNotifications(TPP_ID, 10)).find(
      (e) => e.resource.id === created.paymentId && e.status === 'psuAuthenticated',
    )!;
    assert.equal(first.endReason, 'expired');
    assert.ok(first.tries.length > 10 && first.tries.length < 100, `${first.tries.length} tries in 24 hours`);
    answers = [];
    await notifications.relay.drain();
    assert.equal(
      (JSON.parse(received.at(-1)!.body) as { scaStatus: string }).scaStatus,
      'finalised',
      'the next event of the payment went once the first ended',
    );
  });

  it('ends a try that hangs after its timeout, logs why, and leaves the event for its retry', async () => {
    const signer = new NotificationSigner(await ensureNotificationSigningKey(dir, undefined));
    const quick = notificationSender({ mode: 'sandbox', allowedNetworks: [] }, 200);
    const relay = new NotificationRelay(t.store, signer, quick, 'hang-test', clock, () => undefined);
    const created = await subscribedPayment('/hooks/f', 'status=PROCESS');
    answers = ['hang'];
    await approve(created._links.scaRedirect.href);
    await relay.drain();
    const [event] = (await t.store.listNotifications(TPP_ID, 10)).filter((e) => e.resource.id === created.paymentId);
    assert.equal(event?.tries[0]?.status, undefined);
    assert.match(event?.tries[0]?.error ?? '', /no answer within 200 ms/);
    assert.equal(event?.endedAt, undefined, 'it waits for its retry');
  });

  it('logs a receiver that is down (connection refused) and keeps the event for its retry', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as { port: number }).port;
    closed.close();
    await once(closed, 'close');
    const response = await createCrossBorder(t, {
      body: { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } },
      headers: {
        'TPP-Notification-URI': `http://127.0.0.1:${port}/down`,
        'TPP-Notification-Content-Preferred': 'status=PROCESS',
      },
    });
    const created = response.json() as { paymentId: string; _links: { scaRedirect: { href: string } } };
    await approve(created._links.scaRedirect.href);
    await notifications.relay.drain();
    const [event] = (await t.store.listNotifications(TPP_ID, 20)).filter((e) => e.resource.id === created.paymentId);
    assert.match(event?.tries[0]?.error ?? '', /ECONNREFUSED/);
    assert.equal(event?.endedAt, undefined);
    assert.equal(event?.status, 'ACTC');
  });
});
