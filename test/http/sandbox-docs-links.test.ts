import assert from 'node:assert/strict';
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../src/domain/clock.js';
import { CONSOLE_LINK_TTL_MS, MAX_SANDBOX_BANK_KEYS } from '../../src/domain/limits.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { issueSandboxCertificate } from '../support/sandbox-certificates.js';
import { type TestApp, PUBLIC_URL, assertErrorBody, startTestApp } from '../support/test-app.js';
import { TPP_ID } from '../support/tpp-fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

/**
 * `tpp docs` (issue 41 §2): a one-time link that binds a key made in a browser to the bank of the TPP
 * that asked for it, as POST /v1/sandbox/keys binds keys, so /docs signs in the bank `tpp` and the
 * console show. What a browser does with the link is test/browser/docs-try-it.test.ts; here, what
 * the link allows and refuses, on both engines (the binding is one transaction of the store).
 */

class ManualClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

function newKey(): { keyPem: string; publicKey: string; sha256: string } {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const der = pair.publicKey.export({ type: 'spki', format: 'der' });
  return {
    keyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    sha256: createHash('sha256').update(der).digest('hex'),
  };
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`a /docs link (tpp docs), on ${engine}`, () => {
    const clock = new ManualClock();
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ engine, clock });
      // The TPP's bank is made by its first signed request, bound to its key.
      assert.equal((await t.signed({ method: 'GET', url: '/v1/sandbox/customers' })).statusCode, 200);
    });
    after(() => t.close());

    async function docsLink(as?: CertificateAndKey): Promise<string> {
      const response = await t.signed({ method: 'POST', url: '/v1/sandbox/docs-links', ...(as ? { as } : {}) });
      assert.equal(response.statusCode, 201, response.body);
      const href = (response.json() as Json).href as string;
      assert.ok(href.startsWith(`${PUBLIC_URL}/docs/#bind=`), href);
      return decodeURIComponent(new URL(href).hash.slice('#bind='.length));
    }
    const bind = (token: string, publicKey: string) =>
      t.app.inject({ method: 'POST', url: '/v1/sandbox/docs-links/bind', payload: { token, publicKey } });
    /** A certificate over the key, for the identifier, as the page asks the sandbox for one. */
    const certificateOver = (key: { keyPem: string; publicKey: string }) =>
      issueSandboxCertificate(t, TPP_ID, { name: 'Try it out', roles: ['PSP_PI'], key });
    const customers = (as: CertificateAndKey) => t.signed({ method: 'GET', url: '/v1/sandbox/customers', as });

    it("binds the browser's key to the bank of the TPP that asked, once: its certificate then opens that bank", async () => {
      const browser = newKey();
      const page = await certificateOver(browser);
      assertErrorBody(await customers(page), 403, 'FORBIDDEN');

      const token = await docsLink();
      const bound = await bind(token, browser.publicKey);
      assert.equal(bound.statusCode, 201, bound.body);
      assert.deepEqual(bound.json(), { organizationIdentifier: TPP_ID, keySha256: browser.sha256 });
      assert.equal(bound.headers['cache-control'], 'no-store');

      const opened = await customers(page);
      assert.equal(opened.statusCode, 200, opened.body);
      assert.deepEqual(opened.json(), (await t.signed({ method: 'GET', url: '/v1/sandbox/customers' })).json());
      const keys = (await t.signed({ method: 'GET', url: '/v1/sandbox/keys' })).json() as Json;
      assert.ok((keys.keys as Json[]).some((k) => k.keySha256 === browser.sha256));

      // The same link again, with the same key or another: used, on any instance the database tells.
      for (const publicKey of [browser.publicKey, newKey().publicKey]) {
        const again = assertErrorBody(await bind(token, publicKey), 403, 'FORBIDDEN');
        assert.equal(again.tppMessages?.[0]?.path, '$.token');
        assert.match(again.tppMessages?.[0]?.text ?? '', /used already/);
      }
      // The page's key unbound: it opens nothing again.
      assert.equal((await t.signed({ method: 'DELETE', url: `/v1/sandbox/keys/${browser.sha256}` })).statusCode, 204);
      assertErrorBody(await customers(page), 403, 'FORBIDDEN');
    });

    it('refuses a link it did not make or a console link (400 at $.token), and an expired one (403), binding nothing', async () => {
      const browser = newKey();
      const token = await docsLink();
      const [payload, mac] = token.split('.');
      const forged = `${Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), t: 'PSDNO-FSA-999999999' }),
      ).toString('base64url')}.${mac}`;
      const consoleHref = ((await t.signed({ method: 'POST', url: '/v1/sandbox/console-links' })).json() as Json)
        .href as string;
      for (const wrong of [forged, new URL(consoleHref).searchParams.get('token')!, 'x'.repeat(40)]) {
        const refused = assertErrorBody(await bind(wrong, browser.publicKey), 400, 'FORMAT_ERROR');
        assert.equal(refused.tppMessages?.[0]?.path, '$.token');
        assert.match(refused.tppMessages?.[0]?.text ?? '', /^\$\.token is not a link this sandbox made/);
      }
      // A docs link is no console link either.
      const entered = await t.app.inject({ method: 'GET', url: `/console/enter?token=${encodeURIComponent(token)}` });
      assert.notEqual(entered.statusCode, 303);

      clock.offsetMs = CONSOLE_LINK_TTL_MS + 1000;
      try {
        const late = assertErrorBody(await bind(token, browser.publicKey), 403, 'FORBIDDEN');
        assert.match(late.tppMessages?.[0]?.text ?? '', /expired/);
      } finally {
        clock.offsetMs = 0;
      }
      const keys = (await t.signed({ method: 'GET', url: '/v1/sandbox/keys' })).json() as Json;
      assert.ok(!(keys.keys as Json[]).some((k) => k.keySha256 === browser.sha256), 'nothing bound');
    });

    it('refuses a key that is not one (400 at $.publicKey), and a link whose asking key was unbound since (403)', async () => {
      // A key refused leaves the link unopened: the page may send another key with it.
      const link = await docsLink();
      const notAKey = assertErrorBody(await bind(link, 'not a key'), 400, 'FORMAT_ERROR');
      assert.equal(notAKey.tppMessages?.[0]?.path, '$.publicKey');
      const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' });
      assertErrorBody(await bind(link, ec.toString()), 400, 'FORMAT_ERROR');
      assert.equal((await bind(link, newKey().publicKey)).statusCode, 201);

      // A second key of the bank asks for a link, and is unbound before the link is opened.
      const second = newKey();
      assert.equal(
        (await t.signed({ method: 'POST', url: '/v1/sandbox/keys', body: { publicKey: second.publicKey } })).statusCode,
        201,
      );
      const token = await docsLink(await certificateOver(second));
      assert.equal((await t.signed({ method: 'DELETE', url: `/v1/sandbox/keys/${second.sha256}` })).statusCode, 204);
      const browser = newKey();
      const refused = assertErrorBody(await bind(token, browser.publicKey), 403, 'FORBIDDEN');
      assert.match(refused.tppMessages?.[0]?.text ?? '', /no longer bound/);
      assertErrorBody(await customers(await certificateOver(browser)), 403, 'FORBIDDEN');
    });

    it('answers a full bank with 429, which uses the link: a new link binds once a key is unbound', async () => {
      const listed = (await t.signed({ method: 'GET', url: '/v1/sandbox/keys' })).json() as Json;
      const extra: string[] = [];
      for (let i = (listed.keys as Json[]).length; i < MAX_SANDBOX_BANK_KEYS; i++) {
        const key = newKey();
        await t.signed({ method: 'POST', url: '/v1/sandbox/keys', body: { publicKey: key.publicKey } });
        extra.push(key.sha256);
      }
      const token = await docsLink();
      const browser = newKey();
      const full = assertErrorBody(await bind(token, browser.publicKey), 429, 'ACCESS_EXCEEDED');
      assert.match(full.tppMessages?.[0]?.text ?? '', new RegExp(`has ${MAX_SANDBOX_BANK_KEYS} keys bound`));
      assert.equal((await t.signed({ method: 'DELETE', url: `/v1/sandbox/keys/${extra[0]}` })).statusCode, 204);
      assertErrorBody(await bind(token, browser.publicKey), 403, 'FORBIDDEN');
      assert.equal((await bind(await docsLink(), browser.publicKey)).statusCode, 201);
      for (const key of extra.slice(1)) await t.signed({ method: 'DELETE', url: `/v1/sandbox/keys/${key}` });
    });
  });
}

describe('a /docs link in production', () => {
  let production: TestApp;
  before(async () => {
    production = await startTestApp({ mode: 'production' });
  });
  after(() => production.close());

  it('does not exist: production binds no key and makes no link (404)', async () => {
    const bound = await production.app.inject({
      method: 'POST',
      url: '/v1/sandbox/docs-links/bind',
      payload: { token: 'x', publicKey: createPublicKey(newKey().publicKey).export({ type: 'spki', format: 'pem' }) },
    });
    assert.equal(bound.statusCode, 404, bound.body);
    assert.equal((await production.signed({ method: 'POST', url: '/v1/sandbox/docs-links' })).statusCode, 404);
  });
});
