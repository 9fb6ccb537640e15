import assert from 'node:assert/strict';
import type { lookup as dnsLookup } from 'node:dns';
import { once } from 'node:events';
import { type Server, createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { DestinationPolicy } from '../../src/domain/notifications/destination-policy.js';
import { notificationSender } from '../../src/services/notifications/notification-sender.js';

/**
 * The sender's guard against server-side request forgery (docs/notifications.md, "Delivery"): the
 * host is resolved once per try, each address judged by the policy, and the connection made to the
 * address judged, or to none. A receiver on 127.0.0.1 counts the connections it is offered, so a
 * refusal is seen to come before any connection.
 */
const PRODUCTION: DestinationPolicy = { mode: 'production', allowedNetworks: [] };
const SANDBOX: DestinationPolicy = { mode: 'sandbox', allowedNetworks: [] };
const HEADERS = { 'content-type': 'application/json' };

let receiver: Server;
let port: number;
let connections = 0;
let requests: string[] = [];

before(async () => {
  receiver = createServer((request, response) => {
    requests.push(request.url ?? '');
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  receiver.on('connection', () => (connections += 1));
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  port = (receiver.address() as { port: number }).port;
});
after(() => {
  receiver.closeAllConnections();
  receiver.close();
});
beforeEach(() => {
  connections = 0;
  requests = [];
});

/** A resolver that answers each call with the next of `answers` (the last again after), and counts the calls. */
function scriptedResolver(...answers: string[][]): { resolve: typeof dnsLookup; asked: string[] } {
  const asked: string[] = [];
  const resolve = ((hostname: string, _options: unknown, callback: (e: null, a: unknown) => void) => {
    const list = answers[Math.min(asked.length, answers.length - 1)]!;
    asked.push(hostname);
    process.nextTick(() =>
      callback(
        null,
        list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      ),
    );
  }) as unknown as typeof dnsLookup;
  return { resolve, asked };
}

describe('the notification sender in production', () => {
  it('refuses an IP literal in a private range without connecting, and without a lookup', async () => {
    const { resolve, asked } = scriptedResolver(['8.8.8.8']);
    const send = notificationSender(PRODUCTION, 2_000, resolve);
    for (const uri of [
      `http://127.0.0.1:${port}/hook`,
      `http://[::1]:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      'https://10.0.0.1/hook',
      'https://192.168.1.10/hook',
      'https://172.16.0.5/hook',
      'http://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/hook',
      'https://[fd00::1]/hook',
      'https://[fe80::1]/hook',
      // Other spellings of loopback that the URL parser reads as 127.0.0.1.
      `http://2130706433:${port}/hook`,
      `http://0x7f.1:${port}/hook`,
    ]) {
      const result = await send(uri, '{}', HEADERS);
      assert.equal(result.status, undefined, uri);
      assert.match(result.error ?? '', /is not a public address/, uri);
    }
    assert.equal(connections, 0, 'no connection was offered to the receiver');
    assert.deepEqual(asked, [], 'an address is judged as it is, not looked up');
  });

  it('refuses a name that resolves to a private address (localhost, by the system resolver) without connecting', async () => {
    const send = notificationSender(PRODUCTION, 2_000);
    const result = await send(`http://localhost:${port}/hook`, '{}', HEADERS);
    assert.equal(result.status, undefined);
    assert.match(result.error ?? '', /is not a public address/);
    const scripted = scriptedResolver(['10.1.2.3', '192.168.0.7']);
    const internal = await notificationSender(PRODUCTION, 2_000, scripted.resolve)(
      'https://hooks.tpp.example/n',
      '{}',
      HEADERS,
    );
    assert.match(internal.error ?? '', /10\.1\.2\.3 is not a public address/);
    assert.deepEqual(scripted.asked, ['hooks.tpp.example']);
    assert.equal(connections, 0);
  });
});

describe('the notification sender resolves once per try (DNS rebinding)', () => {
  it('connects to the address it judged, though the name resolves to a refused one the next moment', async () => {
    const { resolve, asked } = scriptedResolver(['127.0.0.1'], ['10.0.0.1']);
    const result = await notificationSender(SANDBOX, 2_000, resolve)(
      `http://rebinding.test:${port}/first`,
      '{}',
      HEADERS,
    );
    assert.equal(result.status, 204, result.error);
    assert.deepEqual(asked, ['rebinding.test'], 'one lookup for the try');
    assert.deepEqual(requests, ['/first']);
  });

  it('refuses without connecting when the one lookup answers a refused address, though the next would not', async () => {
    const { resolve, asked } = scriptedResolver(['10.0.0.1'], ['127.0.0.1']);
    const result = await notificationSender(SANDBOX, 2_000, resolve)(
      `http://rebinding.test:${port}/second`,
      '{}',
      HEADERS,
    );
    assert.equal(result.status, undefined);
    assert.match(result.error ?? '', /10\.0\.0\.1 is not a loopback address/);
    assert.deepEqual(asked, ['rebinding.test']);
    assert.equal(connections, 0);
  });

  it('resolves again on the next try: each try judges what the name gives then', async () => {
    const { resolve, asked } = scriptedResolver(['127.0.0.1'], ['10.0.0.1']);
    const send = notificationSender(SANDBOX, 2_000, resolve);
    assert.equal((await send(`http://rebinding.test:${port}/a`, '{}', HEADERS)).status, 204);
    const second = await send(`http://rebinding.test:${port}/b`, '{}', HEADERS);
    assert.match(second.error ?? '', /10\.0\.0\.1 is not a loopback address/);
    assert.deepEqual(asked, ['rebinding.test', 'rebinding.test']);
    assert.deepEqual(requests, ['/a']);
  });

  it('takes of a name’s addresses one the policy allows, and says so when none is', async () => {
    const mixed = scriptedResolver(['10.0.0.1', '127.0.0.1']);
    const result = await notificationSender(SANDBOX, 2_000, mixed.resolve)(
      `http://mixed.test:${port}/mixed`,
      '{}',
      HEADERS,
    );
    assert.equal(result.status, 204, result.error);
    assert.deepEqual(requests, ['/mixed']);
    const none = scriptedResolver([]);
    const nowhere = await notificationSender(SANDBOX, 2_000, none.resolve)('http://empty.test/n', '{}', HEADERS);
    assert.match(nowhere.error ?? '', /empty\.test has no address/);
  });
});

describe('the notification sender over https', () => {
  it('opens TLS to the address it judged, naming the host in SNI, for an https URI', async () => {
    // A bare TCP listener: what it receives first shows how the sender spoke, whatever came after.
    const received: Buffer[] = [];
    const listener = createTcpServer((socket) => {
      socket.once('data', (chunk: Buffer) => {
        received.push(chunk);
        socket.destroy();
      });
    });
    listener.listen(0, '127.0.0.1');
    await once(listener, 'listening');
    try {
      const tlsPort = (listener.address() as { port: number }).port;
      const { resolve } = scriptedResolver(['127.0.0.1']);
      const result = await notificationSender(SANDBOX, 2_000, resolve)(
        `https://hooks.tpp.test:${tlsPort}/n`,
        '{}',
        HEADERS,
      );
      assert.equal(result.status, undefined, 'the listener answered nothing');
      assert.ok(result.error !== undefined);
      const hello = Buffer.concat(received);
      // A TLS handshake record (22) whose message is a ClientHello (1), with the name in its server_name extension.
      assert.equal(hello[0], 22);
      assert.equal(hello[5], 1);
      assert.ok(hello.includes(Buffer.from('hooks.tpp.test')), 'SNI names the host');
    } finally {
      listener.close();
    }
  });
});
