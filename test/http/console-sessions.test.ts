import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { consoleLink } from '../support/console-requests.js';
import { ConsoleVisitor } from '../support/console-visitor.js';
import { nextFnr } from '../support/norwegian-numbers.js';
import { type TestDatabase, createMigratedTestDatabase } from '../support/postgres.js';
import { type TestApp, startTestApp } from '../support/test-app.js';
import { TPP_ID } from '../support/tpp-fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

/**
 * Issue 40, 3 (docs/security.md): a console session outlived its sign-out and the key that asked for
 * its link, and a form took another session's CSRF pair. The sessions are kept in the database now:
 * each test runs on SQLite and on PostgreSQL, with a second instance of the app on the same database.
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`console sessions end when they should, on ${engine}`, () => {
    let one: TestApp;
    /** A second instance on the same database (with the same installation key), as behind a load balancer. */
    let two: TestApp;
    const stores: Store[] = [];
    let database: TestDatabase | undefined;
    let dir: string | undefined;

    before(async () => {
      const nationalIdKey = { bytes: randomBytes(32) };
      if (engine === 'postgres') {
        database = await createMigratedTestDatabase();
        stores.push(PostgresStore.open(database.url), PostgresStore.open(database.url));
      } else {
        // SQLite serves one process: its second instance is the same store (store-contract.ts).
        dir = mkdtempSync(join(tmpdir(), 'console-sessions-'));
        const store = SqliteStore.open(join(dir, 'test.db'));
        stores.push(store, store);
      }
      await stores[0]!.migrate();
      one = await startTestApp({ store: stores[0]!, nationalIdKey });
      two = await startTestApp({ store: stores[1]!, nationalIdKey, seed: false });
    });
    after(async () => {
      await two.close();
      await one.close();
      for (const store of new Set(stores)) await store.close();
      await database?.drop();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    /** A browser on instance one that opened a fresh console link of the TPP (A by default). */
    async function signedIn(as?: CertificateAndKey): Promise<ConsoleVisitor> {
      const visitor = new ConsoleVisitor(one.app);
      assert.equal((await visitor.open((await consoleLink(one, as)).href)).statusCode, 303);
      assert.equal((await visitor.open('/console')).statusCode, 200);
      return visitor;
    }

    /** A page read with these cookies, as a browser would send them, on an instance. */
    const read = (t: TestApp, cookies: Record<string, string>, url = '/console/customers') =>
      t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en', ...cookies } });

    /** A customer of A's own: a reset of A's bank (back to the default data set) would remove it. */
    async function ownCustomer(): Promise<string> {
      const customerNumber = nextFnr();
      const made = await one.signed({
        method: 'POST',
        url: '/v1/sandbox/customers',
        body: { customerNumber, name: 'Kept Testperson', type: 'private' },
      });
      assert.equal(made.statusCode, 201, made.body);
      return customerNumber;
    }
    const hasCustomer = async (customerNumber: string) =>
      ((await one.signed({ method: 'GET', url: '/v1/sandbox/customers' })).json() as Json[]).some(
        (c) => c.customerNumber === customerNumber,
      );

    it('after sign-out the old cookie is signed out (401), on this instance and on another sharing the database', async () => {
      const visitor = await signedIn();
      const cookies = visitor.cookies.header();
      assert.equal((await read(two, cookies)).statusCode, 200, 'the session holds on the other instance');
      const out = await visitor.post('/console/sign-out', {});
      assert.equal(out.statusCode, 303, out.body);
      for (const [name, t] of [
        ['this instance', one],
        ['the other instance', two],
      ] as const) {
        const again = await read(t, cookies);
        assert.equal(again.statusCode, 401, `${name}: ${again.body}`);
        assert.match(again.body, /Open your console with tpp console/);
      }
      // Nor does a form go through with it.
      const reset = await one.app.inject({
        method: 'POST',
        url: '/console/reset',
        headers: { ...cookies, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ confirm: 'yes', _csrf: visitor.csrf() ?? '' }).toString(),
      });
      assert.equal(reset.statusCode, 401);
    });

    it("after the bank's owner unbinds key K2, K2's console session can neither read /console/customers nor reset the bank, on either instance; the owner's own goes on", async () => {
      const k2Key = generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString();
      const issued = await one.app.inject({
        method: 'POST',
        url: '/v1/sandbox/certificates',
        payload: {
          organizationIdentifier: TPP_ID,
          name: 'A, second key',
          roles: ['PSP_PI', 'PSP_AI'],
          publicKey: createPublicKey(k2Key).export({ type: 'spki', format: 'pem' }).toString(),
        },
      });
      assert.equal(issued.statusCode, 201, issued.body);
      const k2 = { certPem: (issued.json() as Json).certificate as string, keyPem: k2Key };
      const bound = await one.signed({
        method: 'POST',
        url: '/v1/sandbox/keys',
        body: { publicKey: createPublicKey(k2Key).export({ type: 'spki', format: 'pem' }).toString() },
        sign: { digest: true },
      });
      assert.equal(bound.statusCode, 201, bound.body);
      const k2Sha = ((bound.json() as Json).keys as Json[]).find((k) => !k.current)!.keySha256 as string;

      const owners = await signedIn();
      const k2s = await signedIn(k2);
      await k2s.open('/console');
      const csrf = k2s.csrf();
      const cookies = k2s.cookies.header();
      assert.equal((await read(two, cookies)).statusCode, 200, "K2's session reads the bank before the unbind");
      const kept = await ownCustomer();

      const unbound = await one.signed({ method: 'DELETE', url: `/v1/sandbox/keys/${k2Sha}` });
      assert.equal(unbound.statusCode, 204, unbound.body);

      for (const t of [one, two]) assert.equal((await read(t, cookies)).statusCode, 401);
      const reset = await k2s.post('/console/reset', { confirm: 'yes' }, csrf ?? null);
      assert.equal(reset.statusCode, 401, reset.body);
      assert.ok(await hasCustomer(kept), 'the bank was not reset');
      assert.equal((await owners.open('/console/customers')).statusCode, 200, "the owner's session goes on");
    });

    it("A's session cookie with B's CSRF cookie and token is refused with 403, and the bank is not reset", async () => {
      const kept = await ownCustomer();
      // B: another TPP's session, and another session of A's own TPP.
      for (const bAs of [one.fixtures.otherTpp, undefined]) {
        const a = await signedIn();
        const b = await signedIn(bAs);
        await b.open('/console');
        const bToken = b.csrf();
        assert.ok(bToken, "B's page has a form token");
        const mixed = {
          cookie: `console_session=${a.cookies.get('console_session')}; console_csrf=${b.cookies.get('console_csrf')}`,
        };
        const reset = await one.app.inject({
          method: 'POST',
          url: '/console/reset',
          headers: { ...mixed, 'accept-language': 'en', 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ confirm: 'yes', _csrf: bToken }).toString(),
        });
        assert.equal(reset.statusCode, 403, reset.body);
        assert.ok(await hasCustomer(kept), 'the bank was not reset');
        // A's own pair goes through: the refusal was the binding, not a broken session.
        await a.open('/console');
        const own = await a.post('/console/clock', { amount: '1', unit: 'hours' });
        assert.equal(own.statusCode, 303, "A's own pair goes through");
      }
    });
  });
}
