import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { after, describe, it } from 'node:test';
import type { TrustProxy } from '../../src/config/config.js';
import { SANDBOX_CERTIFICATE_REQUESTS_PER_ADDRESS_PER_MINUTE } from '../../src/domain/limits.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

const PATH = '/v1/sandbox/certificates';
/** The load balancer every request comes through, as the connection's peer. */
const BALANCER = '10.1.2.3';

/**
 * TRUST_PROXY (Fastify's trustProxy): behind a load balancer every connection comes from the balancer.
 * With the balancer trusted, the client X-Forwarded-For names is the address the certificate
 * endpoint's limit counts and the request's log line gives; without it, and from a peer not trusted,
 * X-Forwarded-For is a header like any other, which a client could otherwise fill in to escape the limit.
 */
describe('TRUST_PROXY and the client address', () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const app of apps) await app.close();
  });

  async function appTrusting(trustProxy: TrustProxy) {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line));
        done();
      },
    });
    const t = await startTestApp({ trustProxy, logger: { level: 'info', stream } });
    apps.push(t);
    const ask = (forwardedFor: string, remoteAddress = BALANCER) =>
      t.app.inject({
        method: 'POST',
        url: PATH,
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor },
        // Refused at once (no RSA key made), and counted: the limit is on asking.
        payload: {},
      });
    return { ask, lines };
  }

  /** Uses up one address's requests of the minute; the next from it is 429. */
  async function useUp(ask: (forwardedFor: string) => Promise<LightMyRequestResponse>, client: string) {
    for (let i = 0; i < SANDBOX_CERTIFICATE_REQUESTS_PER_ADDRESS_PER_MINUTE; i++)
      assertErrorBody(await ask(client), 400, 'FORMAT_ERROR');
    assertErrorBody(await ask(client), 429, 'ACCESS_EXCEEDED');
  }

  for (const [setting, trustProxy] of [
    ['a hop count, 1', 1],
    ["the balancer's range, 10.0.0.0/8", ['10.0.0.0/8']],
  ] as const) {
    it(`with ${setting}: counts and logs each client by X-Forwarded-For`, async () => {
      const { ask, lines } = await appTrusting(trustProxy as TrustProxy);
      await useUp(ask, '203.0.113.10');
      assertErrorBody(await ask('203.0.113.11'), 400, 'FORMAT_ERROR');
      // A client that names a first address itself: the balancer appends the one it saw, which counts.
      assertErrorBody(await ask('198.51.100.99, 203.0.113.10'), 429, 'ACCESS_EXCEEDED');
      const logged = lines.filter((l) => l.msg === 'request').map((l) => l.clientAddress);
      assert.deepEqual(new Set(logged), new Set(['203.0.113.10', '203.0.113.11']));
    });
  }

  it('without it: every client behind the balancer is the balancer, and X-Forwarded-For changes nothing', async () => {
    const { ask, lines } = await appTrusting(false);
    await useUp(ask, '203.0.113.10');
    assertErrorBody(await ask('203.0.113.11'), 429, 'ACCESS_EXCEEDED');
    assert.deepEqual(
      new Set(lines.filter((l) => l.msg === 'request').map((l) => l.clientAddress)),
      new Set([BALANCER]),
    );
  });

  it('with addresses: X-Forwarded-For from a peer that is not a trusted proxy is not believed', async () => {
    const { ask, lines } = await appTrusting(['10.0.0.0/8']);
    const direct = '192.0.2.50';
    for (let i = 0; i < SANDBOX_CERTIFICATE_REQUESTS_PER_ADDRESS_PER_MINUTE; i++)
      assertErrorBody(await ask(`203.0.113.${i}`, direct), 400, 'FORMAT_ERROR');
    assertErrorBody(await ask('203.0.113.200', direct), 429, 'ACCESS_EXCEEDED');
    assert.deepEqual(new Set(lines.filter((l) => l.msg === 'request').map((l) => l.clientAddress)), new Set([direct]));
  });
});
