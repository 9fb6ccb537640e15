import assert from 'node:assert/strict';
import { createHash, createPublicKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_CUSTOMERS, defaultDataSet } from '../../src/sandbox/default-data-set.js';
import {
  type CertificateAndKey,
  createCertificateAuthority,
  issueTppCertificate,
} from '../../src/toolkit/certificate-factory.js';
import { CROSS_BORDER_PATH, createHeaders, crossBorderBody } from '../support/payment-requests.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';
import { TPP_ID } from '../support/tpp-fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

/**
 * Issue 40, 5 (docs/security.md, "Tenancy"): a certificate of a CA the operator trusts
 * (TRUSTED_CA_CERTS) proves its organisation identifier by itself and opens its bank whatever its key,
 * as production takes it; a certificate of the sandbox's self-service CA (the test CA here, which
 * POST /v1/sandbox/certificates issues from) needs a key bound to the bank, and never opens a bank a
 * trusted certificate made or used unless a bound key bound it.
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`a trusted CA's certificate opens its organisation's sandbox bank whatever its key, on ${engine}`, () => {
    let t: TestApp;
    let trustedCa: CertificateAndKey;
    before(async () => {
      trustedCa = await createCertificateAuthority({ commonName: 'Operator-trusted QTSP', organisation: 'QTSP AS' });
      t = await startTestApp({ engine, seed: false, extraCas: [trustedCa.certPem] });
    });
    after(() => t.close());

    const trusted = (organisationId: string) =>
      issueTppCertificate({ issuer: trustedCa, roles: ['PSP_PI', 'PSP_AI'], organisationId, name: 'Renewed TPP AS' });
    const selfService = async (organisationId: string): Promise<CertificateAndKey> => {
      const issued = await t.app.inject({
        method: 'POST',
        url: '/v1/sandbox/certificates',
        payload: { organizationIdentifier: organisationId, name: 'Anyone', roles: ['PSP_PI', 'PSP_AI'] },
      });
      assert.equal(issued.statusCode, 201, issued.body);
      const body = issued.json() as Json;
      return { certPem: body.certificate as string, keyPem: body.privateKey as string };
    };
    const send = (
      as: CertificateAndKey,
      method: string,
      url: string,
      body?: unknown,
      headers?: Record<string, string>,
    ) => t.signed({ method, url, body, as, sign: { digest: true }, ...(headers === undefined ? {} : { headers }) });
    const customers = (as: CertificateAndKey) => send(as, 'GET', '/v1/sandbox/customers');
    const spki = (as: CertificateAndKey) =>
      createPublicKey(as.keyPem).export({ type: 'spki', format: 'pem' }).toString();
    const keySha256 = (as: CertificateAndKey) =>
      createHash('sha256')
        .update(createPublicKey(as.keyPem).export({ type: 'spki', format: 'der' }))
        .digest('hex');
    const payKari = (as: CertificateAndKey) => {
      const headers = createHeaders({ 'X-PSU-IDENTITY': DEFAULT_CUSTOMERS.kari.customerNumber });
      delete headers['PSU-ID'];
      return send(
        as,
        'POST',
        CROSS_BORDER_PATH,
        { ...crossBorderBody(), debtorAccount: { bban: '15061012378', currency: 'NOK' } },
        headers,
      );
    };

    it('creates a payment (201) with a trusted certificate over a new key, in the bank a self-service key made', async () => {
      const maker = t.fixtures.tpp;
      assert.equal((await customers(maker)).statusCode, 200, "the self-service key makes TPP_ID's bank");
      const renewed = await trusted(TPP_ID);
      assert.notEqual(keySha256(renewed), keySha256(maker), 'a new key');
      const created = await payKari(renewed);
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual((await customers(renewed)).json(), (await customers(maker)).json(), 'the same bank');
      const seen = await send(maker, 'GET', (created.json() as Json)._links.status.href as string);
      assert.equal(seen.statusCode, 200, 'the maker sees the payment the trusted certificate made');
    });

    it('lets a trusted certificate unbind any key of its bank, the maker and the last included; the maker then gets 403', async () => {
      const maker = t.fixtures.tpp;
      const renewed = await trusted(TPP_ID);
      const listed = (await send(renewed, 'GET', '/v1/sandbox/keys')).json() as Json;
      assert.deepEqual(
        (listed.keys as Json[]).map((k) => [k.keySha256, k.current]),
        [[keySha256(maker), false]],
        "the trusted certificate's key is not bound: it is admitted by its CA",
      );
      const gone = await send(renewed, 'DELETE', `/v1/sandbox/keys/${keySha256(maker)}`);
      assert.equal(gone.statusCode, 204, gone.body);
      const refused = assertErrorBody(await customers(maker), 403, 'FORBIDDEN');
      assert.match(refused.tppMessages?.[0]?.text ?? '', /used by a certificate of a CA this sandbox trusts/);
      assert.equal((await customers(renewed)).statusCode, 200, 'the trusted certificate goes on');
    });

    it('refuses a self-service certificate (403) in a bank a trusted certificate made, and it cannot bind its key there', async () => {
      const id = 'PSDNO-FSA-400000001';
      const owner = await trusted(id);
      assert.equal((await customers(owner)).statusCode, 200, 'the trusted certificate makes the bank');
      assert.deepEqual(await t.store.listBankKeys(id), [], 'with no key bound, which no self-service key may claim');
      const squatter = await selfService(id);
      for (const answer of [
        await customers(squatter),
        await payKari(squatter),
        await send(squatter, 'POST', '/v1/sandbox/keys', { publicKey: spki(squatter) }),
        await send(squatter, 'POST', '/v1/sandbox/initialize'),
      ]) {
        const error = assertErrorBody(answer, 403, 'FORBIDDEN');
        assert.match(error.tppMessages?.[0]?.text ?? '', /self-service CA, whose key is not bound to the bank/);
      }
      assert.deepEqual(await t.store.listBankKeys(id), [], 'still no key');
    });

    it('refuses a self-service certificate (403) in a bank without keys that a trusted certificate used', async () => {
      const id = 'PSDNO-FSA-400000002';
      // A bank made before keys were bound has none: before this, the first key that came took it.
      await t.store.openBank(id, t.clock.now(), defaultDataSet);
      assert.equal((await customers(await trusted(id))).statusCode, 200);
      assertErrorBody(await customers(await selfService(id)), 403, 'FORBIDDEN');
      assert.deepEqual(await t.store.listBankKeys(id), []);
    });

    it('admits a self-service key once a trusted certificate binds it (POST /v1/sandbox/keys), and refuses it again once unbound', async () => {
      const id = 'PSDNO-FSA-400000003';
      const owner = await trusted(id);
      const developer = await selfService(id);
      assert.equal((await customers(owner)).statusCode, 200);
      assertErrorBody(await customers(developer), 403, 'FORBIDDEN');
      const bound = await send(owner, 'POST', '/v1/sandbox/keys', { publicKey: spki(developer) });
      assert.equal(bound.statusCode, 201, bound.body);
      const opened = await customers(developer);
      assert.equal(opened.statusCode, 200, opened.body);
      assert.deepEqual(opened.json(), (await customers(owner)).json(), "the trusted certificate's bank");
      assert.equal((await payKari(developer)).statusCode, 201, 'the bound key pays there too');
      // Another self-service certificate for the identifier, over another key, stays out.
      assertErrorBody(await customers(await selfService(id)), 403, 'FORBIDDEN');
      assert.equal((await send(owner, 'DELETE', `/v1/sandbox/keys/${keySha256(developer)}`)).statusCode, 204);
      assertErrorBody(await customers(developer), 403, 'FORBIDDEN');
    });
  });
}
