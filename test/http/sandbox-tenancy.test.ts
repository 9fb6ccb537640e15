import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { MAX_SANDBOX_BANK_KEYS } from '../../src/domain/limits.js';
import { DEFAULT_CUSTOMERS } from '../../src/sandbox/default-data-set.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { CROSS_BORDER_PATH, OLA_ACCOUNTS, createHeaders, crossBorderBody } from '../support/payment-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';
import { TPP_ID } from '../support/tpp-fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

/**
 * Issue 31, point 1 (docs/security.md, "Tenancy"): a certificate for TPP A's organisation identifier,
 * issued by the sandbox to anyone who asks, over another key than the one A's bank was made with,
 * runs the whole attack the issue reproduced (list A's customers, cancel A's payment, delete A's
 * customer, move A's clock, pay out of A's account and run the batch). Every step is refused with 403
 * and A's data is as it was.
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`a sandbox bank belongs to the key that made it, on ${engine}`, () => {
    let t: TestApp;
    let a: CertificateAndKey;
    let attacker: CertificateAndKey;
    before(async () => {
      t = await startTestApp({ engine, seed: false });
      a = t.fixtures.tpp;
      // A's bank is made by A's first signed request, bound to A's key.
      assert.equal((await t.signed({ method: 'GET', url: '/v1/sandbox/customers', as: a })).statusCode, 200);
      const issued = await t.app.inject({
        method: 'POST',
        url: '/v1/sandbox/certificates',
        payload: { organizationIdentifier: TPP_ID, name: 'Not A', roles: ['PSP_PI', 'PSP_AI'] },
      });
      assert.equal(issued.statusCode, 201, issued.body);
      const body = issued.json() as Json;
      attacker = { certPem: body.certificate as string, keyPem: body.privateKey as string };
    });
    after(() => t.close());

    const send = (
      as: CertificateAndKey,
      method: string,
      url: string,
      body?: unknown,
      headers?: Record<string, string>,
    ) => t.signed({ method, url, body, as, sign: { digest: true }, ...(headers === undefined ? {} : { headers }) });
    const kariHeaders = () => {
      const headers = createHeaders({ 'X-PSU-IDENTITY': DEFAULT_CUSTOMERS.kari.customerNumber });
      delete headers['PSU-ID'];
      return headers;
    };
    const snapshot = async () => ({
      customers: (await send(a, 'GET', '/v1/sandbox/customers')).json() as Json[],
      clock: ((await send(a, 'GET', '/v1/sandbox/clock')).json() as Json).offsetSeconds as number,
    });

    it("refuses every step of the attack on A's bank with 403, and A's customers, payment, clock and balances are as they were", async () => {
      const payment = (
        await send(
          a,
          'POST',
          CROSS_BORDER_PATH,
          { ...crossBorderBody(), debtorAccount: { bban: '15061012378', currency: 'NOK' } },
          kariHeaders(),
        )
      ).json() as Json;
      assert.equal(payment.transactionStatus, 'RCVD', JSON.stringify(payment));
      const before = await snapshot();
      const victim = before.customers.find((c) => c.customerNumber === DEFAULT_CUSTOMERS.ola.customerNumber)!;
      const accountsOf = async () =>
        Promise.all(
          (victim.accounts as string[]).map(
            async (id) => (await send(a, 'GET', `/v1/sandbox/accounts/${id}`)).json() as Json,
          ),
        );
      const accounts = await accountsOf();
      assert.ok(
        accounts.some((x) => x.bban === OLA_ACCOUNTS[1]),
        JSON.stringify(accounts),
      );

      const steps: [string, string, string, unknown?, Record<string, string>?][] = [
        ["lists A's customers", 'GET', '/v1/sandbox/customers'],
        ["cancels A's payment", 'DELETE', payment._links.self.href as string],
        ["deletes A's customer", 'DELETE', victim._links.self.href as string],
        ["moves A's clock ten years forward", 'POST', '/v1/sandbox/clock', { advanceSeconds: 10 * 365 * 86_400 }],
        [
          "pays NOK 250 000 out of A's account",
          'POST',
          CROSS_BORDER_PATH,
          {
            ...crossBorderBody(),
            instructedAmount: { amount: '250000.00', currency: 'NOK' },
            debtorAccount: { bban: OLA_ACCOUNTS[1], currency: 'NOK' },
          },
          (() => {
            const headers = createHeaders({ 'X-PSU-IDENTITY': DEFAULT_CUSTOMERS.ola.customerNumber });
            delete headers['PSU-ID'];
            return headers;
          })(),
        ],
        ["runs A's batch", 'POST', '/v1/sandbox/batch-runs'],
        ["reads A's payment", 'GET', payment._links.status.href as string],
      ];
      for (const [what, method, url, body, headers] of steps) {
        const answer = await send(attacker, method, url, body, headers);
        const error = assertErrorBody(answer, 403, 'FORBIDDEN');
        assert.match(error.tppMessages?.[0]?.text ?? '', /belongs to the key that made it/, `${what}: ${answer.body}`);
      }

      const afterwards = await snapshot();
      assert.deepEqual(afterwards, before, "A's customers, accounts, balances and clock are untouched");
      assert.equal(
        ((await send(a, 'GET', payment._links.status.href)).json() as Json).transactionStatus,
        'RCVD',
        "A's payment is not cancelled",
      );
      assert.deepEqual(await accountsOf(), accounts, "A's accounts paid nothing");
      // A can still go on: its own SCA of its payment works in its bank.
      const psu = new ScriptedPsu(t.app);
      await psu.open(payment._links.scaRedirect.href);
      await psu.logIn(DEFAULT_CUSTOMERS.kari.customerNumber, '123456');
      await psu.approve();
      assert.equal(((await send(a, 'GET', payment._links.status.href)).json() as Json).transactionStatus, 'ACTC');
    });

    it("renews A's certificate over A's key (publicKey): the new certificate reaches A's bank, and hands out no key", async () => {
      const publicKey = createPublicKey(a.keyPem).export({ type: 'spki', format: 'pem' }).toString();
      const issued = await t.app.inject({
        method: 'POST',
        url: '/v1/sandbox/certificates',
        payload: { organizationIdentifier: TPP_ID, name: 'A renewed', roles: ['PSP_AI'], publicKey },
      });
      assert.equal(issued.statusCode, 201, issued.body);
      const body = issued.json() as Json;
      assert.equal(body.privateKey, undefined, 'the key stays with its holder');
      const renewed = { certPem: body.certificate as string, keyPem: a.keyPem };
      const listed = await send(renewed, 'GET', '/v1/sandbox/customers');
      assert.equal(listed.statusCode, 200, listed.body);
      assert.deepEqual(listed.json(), (await send(a, 'GET', '/v1/sandbox/customers')).json());
      // A public key alone signs nothing: a certificate over A's key is worthless to whoever lacks A's private key.
      const stolen = { certPem: body.certificate as string, keyPem: attacker.keyPem };
      assertErrorBody(await send(stolen, 'GET', '/v1/sandbox/customers'), 401, 'SIGNATURE_INVALID');
    });

    it('opens the bank to a second key only when a bound key binds it (POST /v1/sandbox/keys), and unbinds it again', async () => {
      const spki = (keyPem: string) => createPublicKey(keyPem).export({ type: 'spki', format: 'pem' }).toString();
      const second = generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString();
      const issued = await t.app.inject({
        method: 'POST',
        url: '/v1/sandbox/certificates',
        payload: { organizationIdentifier: TPP_ID, name: 'A, second', roles: ['PSP_PI'], publicKey: spki(second) },
      });
      const laptop = { certPem: (issued.json() as Json).certificate as string, keyPem: second };
      const customers = () => send(laptop, 'GET', '/v1/sandbox/customers');
      assertErrorBody(await customers(), 403, 'FORBIDDEN');
      // Whoever holds only a certificate for A's identifier cannot bind a key, neither its own nor another.
      for (const publicKey of [spki(attacker.keyPem), spki(second)])
        assertErrorBody(await send(attacker, 'POST', '/v1/sandbox/keys', { publicKey }), 403, 'FORBIDDEN');
      assertErrorBody(await customers(), 403, 'FORBIDDEN');

      const bound = await send(a, 'POST', '/v1/sandbox/keys', { publicKey: spki(second) });
      assert.equal(bound.statusCode, 201, bound.body);
      const keys = (bound.json() as Json).keys as Json[];
      assert.equal(keys.length, 2);
      assert.deepEqual(
        keys.map((k) => k.current),
        [true, false],
        "A's own key first, and marked as the one that signed",
      );
      assert.equal(
        (await send(a, 'POST', '/v1/sandbox/keys', { publicKey: spki(second) })).statusCode,
        200,
        'again: 200',
      );
      const opened = await customers();
      assert.equal(opened.statusCode, 200, opened.body);
      assert.deepEqual(opened.json(), (await send(a, 'GET', '/v1/sandbox/customers')).json(), "the same bank as A's");

      const secondSha = keys[1]!.keySha256 as string;
      const aSha = keys[0]!.keySha256 as string;
      // Issue 40, 6: the second key unbound the key that made the bank, locking its maker out.
      const lockOut = assertErrorBody(await send(laptop, 'DELETE', `/v1/sandbox/keys/${aSha}`), 403, 'FORBIDDEN');
      assert.equal(lockOut.tppMessages?.[0]?.path, 'path:keySha256');
      assert.match(lockOut.message ?? '', /the key that made the sandbox bank/);
      assert.equal((await send(a, 'GET', '/v1/sandbox/customers')).statusCode, 200, 'A still opens its bank');
      assert.equal((await send(a, 'DELETE', `/v1/sandbox/keys/${secondSha}`)).statusCode, 204);
      assertErrorBody(await customers(), 403, 'FORBIDDEN');
      assertErrorBody(await send(a, 'DELETE', `/v1/sandbox/keys/${secondSha}`), 404, 'RESOURCE_UNKNOWN');
      const last = assertErrorBody(await send(a, 'DELETE', `/v1/sandbox/keys/${aSha}`), 409, 'CONFLICT');
      assert.match(last.tppMessages?.[0]?.text ?? '', /last key/);
      assert.equal((await send(a, 'GET', '/v1/sandbox/customers')).statusCode, 200, 'A keeps its bank');
    });

    it('keeps at most MAX_SANDBOX_BANK_KEYS keys a bank, and refuses a key that is not one with 400 at $.publicKey', async () => {
      const made = (await send(a, 'GET', '/v1/sandbox/keys')).json() as Json;
      const room = (made.limit as number) - (made.keys as Json[]).length;
      assert.equal(made.limit, MAX_SANDBOX_BANK_KEYS);
      for (let i = 0; i < room; i++) {
        const publicKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
          .publicKey.export({ type: 'spki', format: 'pem' })
          .toString();
        assert.equal((await send(a, 'POST', '/v1/sandbox/keys', { publicKey })).statusCode, 201);
      }
      const publicKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
        .publicKey.export({ type: 'spki', format: 'pem' })
        .toString();
      const full = assertErrorBody(await send(a, 'POST', '/v1/sandbox/keys', { publicKey }), 429, 'ACCESS_EXCEEDED');
      assert.match(full.tppMessages?.[0]?.text ?? '', new RegExp(`has ${MAX_SANDBOX_BANK_KEYS} keys bound`));
      const bad = assertErrorBody(
        await send(a, 'POST', '/v1/sandbox/keys', { publicKey: 'not a key' }),
        400,
        'FORMAT_ERROR',
      );
      assert.equal(bad.tppMessages?.[0]?.path, '$.publicKey');
    });

    it('refuses a public key that is not one, or too weak, with 400 at $.publicKey', async () => {
      for (const publicKey of [
        'not a key',
        createPublicKey(t.fixtures.ecKey.keyPem).export({ type: 'spki', format: 'pem' }).toString(),
      ]) {
        const answer = await t.app.inject({
          method: 'POST',
          url: '/v1/sandbox/certificates',
          payload: { organizationIdentifier: 'PSDNO-FSA-999999999', name: 'X', roles: ['PSP_AI'], publicKey },
        });
        const error = assertErrorBody(answer, 400, 'FORMAT_ERROR');
        assert.equal(error.tppMessages?.[0]?.path, '$.publicKey', answer.body);
      }
    });
  });
}

describe('new sandbox banks per address (SANDBOX_BANKS_PER_ADDRESS)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ seed: false, tenancy: { newBanksPerAddressPerDay: 2 } });
  });
  after(() => t.close());

  it('makes at most the limit of new banks a day from one address: the next identifier gets 429, banks made already go on', async () => {
    const certificates: CertificateAndKey[] = [];
    for (const id of ['PSDNO-FSA-900000001', 'PSDNO-FSA-900000002', 'PSDNO-FSA-900000003']) {
      const issued = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/sandbox/certificates',
          payload: { organizationIdentifier: id, name: 'Many', roles: ['PSP_PI'] },
        })
      ).json() as Json;
      certificates.push({ certPem: issued.certificate as string, keyPem: issued.privateKey as string });
    }
    const list = (as: CertificateAndKey) => t.signed({ method: 'GET', url: '/v1/sandbox/customers', as });
    assert.equal((await list(certificates[0]!)).statusCode, 200);
    assert.equal((await list(certificates[1]!)).statusCode, 200);
    const refused = assertErrorBody(await list(certificates[2]!), 429, 'ACCESS_EXCEEDED');
    assert.match(refused.tppMessages?.[0]?.text ?? '', /at most 2 sandbox banks a day/);
    assert.deepEqual((await t.store.listBanks()).sort(), ['PSDNO-FSA-900000001', 'PSDNO-FSA-900000002']);
    assert.equal((await list(certificates[0]!)).statusCode, 200, 'a bank made already goes on');
  });
});
