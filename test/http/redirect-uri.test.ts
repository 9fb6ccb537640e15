import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { createCrossBorder, createHeaders, messagesByPath } from '../support/payment-requests.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * TPP-Redirect-URI is where the PSU's browser returns after SCA. An address that looks like one but
 * that the URL parser refuses used to be stored by the create (201), and the PSU who approved was left
 * on a 500 page. Every operation that takes the header now refuses it when the TPP sends it.
 */
const NOT_ADDRESSES = ['http://a:99999/', 'http://[', 'http://%zz/', 'https://a b/', 'javascript://x'];

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/** The routes whose header schema names TPP-Redirect-URI, with their parameters filled in. */
function routesTakingRedirect(): { method: string; url: string }[] {
  const found: { method: string; url: string }[] = [];
  for (const route of t.routes) {
    const headers = (route.schema?.headers ?? {}) as { properties?: Record<string, unknown> };
    if (!Object.keys(headers.properties ?? {}).some((name) => name.toLowerCase() === 'tpp-redirect-uri')) continue;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue; // the GET's twin: no body to read the error from
      const url = route.url
        .replace(':product', 'norwegian-cross-border-credit-transfers')
        .replace(/:\w+/g, () => randomUUID());
      found.push({ method, url });
    }
  }
  return found;
}

describe('TPP-Redirect-URI', () => {
  it('is refused with 400 FORMAT_ERROR at header:TPP-Redirect-URI when the URL parser refuses it, on every operation that takes it', async () => {
    const routes = routesTakingRedirect();
    assert.ok(
      routes.length >= 8,
      `creates, reads, authorisations and baskets take the header (found ${routes.length})`,
    );
    for (const route of routes) {
      for (const uri of NOT_ADDRESSES) {
        const response = await t.signed({
          method: route.method,
          url: route.url,
          headers: createHeaders({ 'TPP-Redirect-URI': uri }),
          ...(route.method === 'POST' ? { body: {} } : {}),
        });
        assert.equal(response.statusCode, 400, `${route.method} ${route.url} with ${uri}: ${response.body}`);
        const messages = messagesByPath(response).get('header:TPP-Redirect-URI') ?? [];
        assert.ok(
          messages.some((m) => m.code === 'FORMAT_ERROR' && /http or https address/.test(m.text)),
          `${route.method} ${route.url} with ${uri}: ${response.body}`,
        );
      }
    }
  });

  it('refuses a create whose body is good but whose redirect is not an address, and creates nothing', async () => {
    const requestId = randomUUID();
    const response = await createCrossBorder(t, { headers: { 'TPP-Redirect-URI': 'http://a:99999/' }, requestId });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.deepEqual([...messagesByPath(response).keys()], ['header:TPP-Redirect-URI']);
    assert.equal(await t.store.findTppRequest('PSDNO-FSA-111111111', requestId), undefined);
  });

  it('takes an address with its own query, port and IPv6 host', async () => {
    for (const uri of ['https://tpp.example:8443/callback?state=a%20b&x=1', 'http://[::1]:8080/cb']) {
      const response = await createCrossBorder(t, { headers: { 'TPP-Redirect-URI': uri } });
      assert.equal(response.statusCode, 201, response.body);
    }
  });
});

describe('an authorisation stored with an address the URL parser refuses (before creates checked it)', () => {
  it("leaves the approving PSU on the bank's page saying it is done, not on a 500", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'psd2-redirect-'));
    const file = join(dir, 'test.db');
    const store = SqliteStore.open(file);
    await store.migrate();
    const app = await startTestApp({ store });
    try {
      const headers = createHeaders({ 'X-PSU-IDENTITY': '13039319955' });
      delete headers['PSU-ID'];
      const created = await createCrossBorder(app, { headers });
      assert.equal(created.statusCode, 201, created.body);
      // As a create before this check stored it: the only way to such a row now is the database itself.
      const raw = new Database(file);
      raw.prepare('update authorisations set tpp_redirect_uri = ?').run('http://a:99999/');
      raw.close();
      const psu = new ScriptedPsu(app.app);
      await psu.open(created.json()._links.scaRedirect.href);
      await psu.logIn('13039319955', '123456');
      const approved = await psu.approve();
      assert.equal(approved.statusCode, 200, approved.body);
      assert.equal(psu.redirect(), undefined);
    } finally {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
