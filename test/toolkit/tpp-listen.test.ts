import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CompactSign, type JWK, exportJWK, generateKeyPair } from 'jose';
import { LISTENER_MAX_BODY_BYTES } from '../../src/toolkit/notification-listener.js';
import { exchange } from '../../src/toolkit/http-exchange.js';
import { freePort } from '../support/browser.js';
import {
  type NotifyingTestApp,
  approvedSubscribedPayment,
  startNotifyingTestApp,
} from '../support/notifying-test-app.js';

/**
 * `tpp listen` as a TPP's test runs it (docs/notifications.md, "In the sandbox"): the real command
 * (dist/tpp/tpp.mjs) receives the bank's notifications, checks each signature with the bank's JWKS,
 * prints a line of JSON each, answers 204 or 401, and with --until exits once the status came.
 */
const CLI = 'dist/tpp/tpp.mjs';
let n: NotifyingTestApp;
let server: string;

before(async () => {
  const port = await freePort();
  n = await startNotifyingTestApp();
  await n.t.app.listen({ port, host: '127.0.0.1' });
  server = `http://127.0.0.1:${port}`;
});
/** Every `tpp listen` started: one a failed test left running is stopped at the end. */
const started: ChildProcess[] = [];
after(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await n.close();
});

/** A running `tpp listen`: its stdout's lines as they come, its exit. */
class Listening {
  readonly lines: string[] = [];
  stderr = '';
  private waiting: (() => void)[] = [];
  private over = false;
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [CLI, 'listen', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(this.child);
    let partial = '';
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop()!;
      this.lines.push(...parts);
      for (const tell of this.waiting.splice(0)) tell();
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = once(this.child, 'exit').then(([code]) => {
      // A line waited for that never comes: the wait ends with the process.
      this.over = true;
      for (const tell of this.waiting.splice(0)) tell();
      return code as number | null;
    });
  }

  /** The `count`-th line of JSON (1 is the first). */
  async line(count: number): Promise<Record<string, unknown>> {
    while (this.lines.length < count) {
      if (this.over) throw new Error(`tpp listen exited before its line ${count}: ${this.stderr}`);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    return JSON.parse(this.lines[count - 1]!) as Record<string, unknown>;
  }

  /** Where it listens, from its first line. */
  async url(): Promise<string> {
    return (await this.line(1)).listening as string;
  }

  stop(): void {
    this.child.kill('SIGTERM');
  }
}

describe('tpp listen against the sandbox', () => {
  it('prints each notification verified with the bank’s JWKS, and with --until ACSC exits 0 once the batch ran', async () => {
    const listening = new Listening(['--server', server, '--until', 'ACSC', '--timeout', '60']);
    const url = await listening.url();
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const { paymentId } = await approvedSubscribedPayment(n, `${url}/hooks/payments`);
    const ran = await n.t.signed({ method: 'POST', url: '/v1/sandbox/batch-runs', sign: { digest: true } });
    assert.equal(ran.statusCode, 200, ran.body);
    assert.equal(await listening.exited, 0, `${listening.stderr}${listening.lines.join('\n')}${ran.body}`);
    const heard = listening.lines.slice(1).map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      heard.map((h) => [h.verified, h.eventType, h.scaStatus ?? h.transactionStatus, h.path]),
      [
        [true, 'SCA', 'psuAuthenticated', '/hooks/payments'],
        [true, 'SCA', 'finalised', '/hooks/payments'],
        [true, 'PROCESS', 'ACTC', '/hooks/payments'],
        [true, 'PROCESS', 'ACSP', '/hooks/payments'],
        [true, 'PROCESS', 'ACSC', '/hooks/payments'],
      ],
    );
    const last = heard[4]!;
    assert.deepEqual((last.resource as { id: string }).id, paymentId);
    assert.equal(last.last, true);
    assert.match(String(last.eventId), /\S/);
    assert.ok(!Number.isNaN(Date.parse(String(last.receivedAt))));
    await n.notifications.relay.drain();
  });

  it('answers 401 to a changed body or a missing signature, 204 to the bank’s own, 413 past its limit', async () => {
    // A notification the bank sent to the test's own receiver, passed on to the listener as it came, and changed.
    await approvedSubscribedPayment(n, '/hooks/copied');
    await n.notifications.relay.drain();
    const original = n.received.find((r) => r.path === '/hooks/copied')!;
    const listening = new Listening(['--server', server]);
    const url = `${await listening.url()}/hooks/copied`;
    const post = (body: string, signature?: string) =>
      exchange({
        method: 'POST',
        url,
        body,
        headers: { 'content-type': 'application/json', ...(signature ? { 'x-jws-signature': signature } : {}) },
      });
    assert.equal((await post(original.body, original.signature)).status, 204);
    const changed = await post(original.body.replace('psuAuthenticated', 'finalised'), original.signature);
    assert.equal(changed.status, 401);
    assert.match(changed.text, /the signature does not match the body/);
    assert.equal((await post(original.body)).status, 401);
    assert.equal((await post('x'.repeat(LISTENER_MAX_BODY_BYTES + 1), original.signature)).status, 413);
    const [genuine, forged, unsigned, oversized] = await Promise.all([2, 3, 4, 5].map((i) => listening.line(i)));
    assert.equal(genuine!.verified, true);
    assert.equal(genuine!.scaStatus, 'psuAuthenticated');
    assert.deepEqual(
      [forged!.verified, forged!.scaStatus, forged!.reason],
      [false, 'finalised', 'the signature does not match the body (changed, or signed by another key)'],
    );
    assert.deepEqual([unsigned!.verified, unsigned!.reason], [false, 'no X-JWS-Signature header']);
    assert.deepEqual(
      [oversized!.verified, oversized!.reason],
      [false, `the body is over ${LISTENER_MAX_BODY_BYTES} bytes`],
    );
    listening.stop();
    assert.equal(await listening.exited, 0);
  });

  it('exits 1 at --timeout when the status did not come', async () => {
    const listening = new Listening(['--server', server, '--until', 'ACSC', '--timeout', '1']);
    assert.equal(await listening.exited, 1);
    assert.match(listening.stderr, /no verified notification with status ACSC within 1 s/);
  });
});

describe('tpp listen and the bank’s keys', () => {
  let jwks: Server;
  let keys: JWK[] = [];
  let reads = 0;

  before(async () => {
    jwks = createServer((_request, response) => {
      reads++;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
    });
    jwks.listen(0, '127.0.0.1');
    await once(jwks, 'listening');
  });
  after(() => jwks.close());

  async function key(kid: string) {
    const pair = await generateKeyPair('ES256', { extractable: true });
    return { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256' } };
  }

  it('reads the JWKS once, and again once for a key it does not list: a key the bank added since', async () => {
    const old = await key('old');
    const added = await key('added');
    keys = [old.jwk];
    const listening = new Listening(['--server', `http://127.0.0.1:${(jwks.address() as AddressInfo).port}`]);
    const url = await listening.url();
    const send = async (signer: typeof old) => {
      const body = JSON.stringify({ eventId: signer.jwk.kid, transactionStatus: 'ACSC' });
      const jws = await new CompactSign(new TextEncoder().encode(body))
        .setProtectedHeader({ alg: 'ES256', kid: signer.jwk.kid })
        .sign(signer.privateKey);
      const [header, , signature] = jws.split('.');
      return (await exchange({ method: 'POST', url, body, headers: { 'x-jws-signature': `${header}..${signature}` } }))
        .status;
    };
    assert.equal(await send(old), 204);
    assert.equal(reads, 1);
    assert.equal(await send(old), 204);
    assert.equal(reads, 1, 'kept');
    assert.equal(await send(added), 401, 'not listed, even when read again');
    assert.equal(reads, 2);
    keys = [old.jwk, added.jwk];
    assert.equal(await send(added), 204, 'listed now: read again once');
    assert.equal(reads, 3);
    assert.equal((await listening.line(4)).reason, "the signature names a key the bank's JWKS does not list");
    listening.stop();
    assert.equal(await listening.exited, 0);
  });
});
