import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config/config.js';
import { systemClock } from '../../src/domain/clock.js';
import { type ServerNotifications, serverNotifications } from '../../src/server-notifications.js';
import { NotificationSigner } from '../../src/security/notification-signer.js';
import { ensureNotificationSigningKey } from '../../src/security/notification-signing-key.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { OLA_ACCOUNTS, createCrossBorder, crossBorderBody } from './payment-requests.js';
import { ScriptedPsu } from './scripted-psu.js';
import { type TestApp, type TestAppOptions, startTestApp } from './test-app.js';

/** A notification as the receiver got it. */
export interface ReceivedNotification {
  path: string;
  signature: string;
  body: string;
}

/**
 * A test app that sends notifications as the server does (main.ts): its store nudges the relay after
 * each status write (server-notifications.ts), so a change, or the console's "Send again", goes out
 * at once. The relay does not sweep: what is sent, is sent by a nudge or by `drain`. A receiver on
 * 127.0.0.1 takes the notifications; `answers` script its next answers (then 204).
 */
export interface NotifyingTestApp {
  t: TestApp;
  notifications: ServerNotifications;
  /** The receiver's base URL (http://127.0.0.1:port). */
  base: string;
  received: ReceivedNotification[];
  /** The status and body of the receiver's next answers, in order; 204 after them. */
  answers: { status: number; body?: string }[];
  /** Resolves with the next notification the receiver gets. */
  next(): Promise<ReceivedNotification>;
  close(): Promise<void>;
}

export async function startNotifyingTestApp(options: TestAppOptions = {}): Promise<NotifyingTestApp> {
  const received: ReceivedNotification[] = [];
  const answers: { status: number; body?: string }[] = [];
  let waiting: ((r: ReceivedNotification) => void)[] = [];
  const receiver: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const got = {
        path: request.url ?? '',
        signature: String(request.headers['x-jws-signature'] ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(got);
      const answer = answers.shift() ?? { status: 204 };
      response.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.body ?? '');
      const told = waiting;
      waiting = [];
      for (const resolve of told) resolve(got);
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'psd2-notifying-'));
  const raw = SqliteStore.open(join(dir, 'test.db'));
  await raw.migrate();
  const config = {
    dataDir: dir,
    mode: 'sandbox',
    notifications: { signingKeyFile: undefined, allowedNetworks: [] },
  } as unknown as Config;
  const clock = options.clock ?? systemClock;
  const notifications = await serverNotifications(config, raw, clock, () => undefined);
  // The key's public half is published as at a start; the relay is not started, so nothing sweeps.
  // (the signer reads the key the notifications made in the data directory).
  const signer = new NotificationSigner(await ensureNotificationSigningKey(dir, undefined));
  await raw.publishNotificationKey(await signer.keyId(), JSON.stringify(await signer.publicJwk()), clock.now());
  const t = await startTestApp({ ...options, store: notifications.store, notificationKeys: notifications.jwks });
  return {
    t,
    notifications,
    base,
    received,
    answers,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: async () => {
      await notifications.relay.stop();
      await t.close();
      await raw.close();
      receiver.closeAllConnections();
      receiver.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A payment from Ola's account, subscribed at `path` of the receiver (or at a full URI), approved by Ola on the SCA pages: three notifications. */
export async function approvedSubscribedPayment(
  n: NotifyingTestApp,
  path: string,
  as?: CertificateAndKey,
): Promise<{ paymentId: string }> {
  const response = await createCrossBorder(n.t, {
    // From Ola's savings account, whose balance covers it: the batch run executes it (ACSC).
    body: {
      ...crossBorderBody(),
      instructedAmount: { amount: '1200.00', currency: 'NOK' },
      debtorAccount: { bban: OLA_ACCOUNTS[1], currency: 'NOK' },
    },
    headers: { 'TPP-Notification-URI': /^https?:/.test(path) ? path : `${n.base}${path}` },
    ...(as === undefined ? {} : { as }),
  });
  assert.equal(response.statusCode, 201, response.body);
  assert.equal(response.headers['aspsp-notification-support'], 'true');
  const created = response.json() as { paymentId: string; _links: { scaRedirect: { href: string } } };
  const psu = new ScriptedPsu(n.t.app);
  await psu.open(created._links.scaRedirect.href);
  assert.equal((await psu.logIn('13039319955', '123456')).statusCode, 200);
  await psu.approve();
  return { paymentId: created.paymentId };
}
