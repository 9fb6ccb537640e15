import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { DEFAULT_CUSTOMERS } from '../../src/sandbox/default-data-set.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { nextBban, nextFnr } from '../support/norwegian-numbers.js';
import { CROSS_BORDER_PATH, OLA_ACCOUNTS, createHeaders, crossBorderBody } from '../support/payment-requests.js';
import { type TestDatabase, createMigratedTestDatabase } from '../support/postgres.js';
import { sandboxAccountBody } from '../support/sandbox-bodies.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';
import { OTHER_TPP_ID, TPP_ID } from '../support/tpp-fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

/**
 * One sandbox bank per TPP (issue 11, point 1; docs/sandbox.md): two TPPs run the same setup, with
 * the same customer and account numbers, at the same time, and neither sees, pays from or shifts the
 * other. The banks are made on first use: the test app loads nothing beforehand.
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`one sandbox bank per TPP, on ${engine}`, () => {
    let t: TestApp;
    let database: TestDatabase | undefined;
    let store: Store | undefined;
    let a: CertificateAndKey;
    let b: CertificateAndKey;
    before(async () => {
      if (engine === 'postgres') {
        database = await createMigratedTestDatabase();
        store = PostgresStore.open(database.url);
        await store.migrate();
      }
      t = await startTestApp({ ...(store === undefined ? {} : { store }), seed: false });
      a = t.fixtures.tpp;
      b = t.fixtures.otherTpp;
    });
    after(async () => {
      await t.close();
      await store?.close();
      await database?.drop();
    });

    const send = (
      as: CertificateAndKey,
      method: string,
      url: string,
      body?: unknown,
      headers?: Record<string, string>,
    ) => t.signed({ method, url, body, as, ...(headers === undefined ? {} : { headers }) });
    const statusOf = async (as: CertificateAndKey, payment: Json) =>
      ((await send(as, 'GET', payment._links.status.href)).json() as Json).transactionStatus as string;

    /** A platform-style setup script: delete every customer it sees, then create its own with fixed numbers. */
    async function setupScript(as: CertificateAndKey): Promise<LightMyRequestResponse[]> {
      const answers: LightMyRequestResponse[] = [];
      const listed = await send(as, 'GET', '/v1/sandbox/customers');
      answers.push(listed);
      for (const customer of listed.json() as Json[]) answers.push(await send(as, 'DELETE', customer._links.self.href));
      answers.push(
        await send(as, 'POST', '/v1/sandbox/customers', {
          customerNumber: '01078900497',
          name: 'Test Testperson 1',
          type: 'private',
        }),
      );
      answers.push(
        await send(as, 'POST', '/v1/sandbox/customers', {
          customerNumber: DEFAULT_CUSTOMERS.ola.customerNumber,
          name: 'Ola Nordmann',
          type: 'private',
        }),
      );
      answers.push(
        await send(
          as,
          'POST',
          '/v1/sandbox/accounts',
          sandboxAccountBody('01078900497', { bban: '90412263056', iban: 'NO2390412263056' }),
        ),
      );
      answers.push(
        await send(
          as,
          'POST',
          '/v1/sandbox/accounts',
          sandboxAccountBody(DEFAULT_CUSTOMERS.ola.customerNumber, { bban: OLA_ACCOUNTS[1], iban: undefined }),
        ),
      );
      for (const number of ['01078900497', DEFAULT_CUSTOMERS.ola.customerNumber]) {
        answers.push(
          await send(as, 'POST', '/v1/sandbox/card-accounts', {
            customerNumber: number,
            maskedPan: '1234xxxxxxxx4321',
            name: 'Visa',
            product: 'Basic Credit',
            currency: 'NOK',
            creditLimit: { currency: 'NOK', amount: 1000 },
            balances: [{ balanceType: 'EXPECTED', balanceAmount: { currency: 'NOK', amount: 0 } }],
          }),
        );
      }
      return answers;
    }

    it('runs the same setup script for two TPPs at once: every call of both succeeds (no 403, no 409), each in its own bank', async () => {
      const [ofA, ofB] = await Promise.all([setupScript(a), setupScript(b)]);
      for (const answer of [...ofA, ...ofB])
        assert.ok(answer.statusCode >= 200 && answer.statusCode < 300, `${answer.statusCode}: ${answer.body}`);
      assert.equal(ofA.length, 1 + Object.keys(DEFAULT_CUSTOMERS).length + 6, 'the default customers were deleted');
      for (const as of [a, b]) {
        const customers = (await send(as, 'GET', '/v1/sandbox/customers')).json() as Json[];
        assert.deepEqual(
          customers.map((c) => c.customerNumber).sort(),
          ['01078900497', DEFAULT_CUSTOMERS.ola.customerNumber].sort(),
        );
        assert.ok(customers.every((c) => c.accounts.length === 1 && c.cardAccounts.length === 1));
      }
      const idsOf = async (as: CertificateAndKey) =>
        new Set(((await send(as, 'GET', '/v1/sandbox/customers')).json() as Json[]).map((c) => c.customerId));
      const [idsA, idsB] = [await idsOf(a), await idsOf(b)];
      assert.ok(
        [...idsA].every((id) => !idsB.has(id)),
        'the same numbers, different customers',
      );
    });

    it("lets TPP B pay only from its own bank: A's customer number on B's SCA page is not known there, and B's batch run does not debit A's account", async () => {
      const customerNumber = nextFnr();
      const bban = nextBban();
      assert.equal(
        (await send(a, 'POST', '/v1/sandbox/customers', { customerNumber, name: 'A Customer', type: 'private' }))
          .statusCode,
        201,
      );
      const account = (
        await send(a, 'POST', '/v1/sandbox/accounts', sandboxAccountBody(customerNumber, { bban, iban: undefined }))
      ).json() as Json;
      const headers = createHeaders({ 'X-PSU-IDENTITY': customerNumber });
      delete headers['PSU-ID'];
      const created = await send(
        b,
        'POST',
        CROSS_BORDER_PATH,
        { ...crossBorderBody(), debtorAccount: { bban, currency: 'NOK' } },
        headers,
      );
      assert.equal(created.statusCode, 201, created.body);
      const payment = created.json() as Json;
      const psu = new ScriptedPsu(t.app);
      await psu.open(payment._links.scaRedirect.href);
      const page = await psu.logIn(customerNumber, '123456');
      assert.match(page.body, /The customer number or the code was not accepted/);
      assert.equal(await statusOf(b, payment), 'RCVD');
      await send(b, 'POST', '/v1/sandbox/batch-runs');
      assert.equal(await statusOf(b, payment), 'RCVD');
      const after = (await send(a, 'GET', account._links.self.href)).json() as Json;
      assert.deepEqual(after.balances, account.balances, "A's account is untouched");
    });

    it("keeps each TPP's clock its own: B moving its clock two hours neither expires A's payment or link nor runs A's batch", async () => {
      // A payment of A waiting for SCA, and one authorised and waiting for the batch run.
      const headers = () => {
        const h = createHeaders({ 'X-PSU-IDENTITY': DEFAULT_CUSTOMERS.kari.customerNumber });
        delete h['PSU-ID'];
        return h;
      };
      await send(a, 'POST', '/v1/sandbox/initialize');
      const body = () => ({
        ...crossBorderBody(),
        instructedAmount: { amount: '100.00', currency: 'NOK' },
        debtorAccount: { bban: '15061012378', currency: 'NOK' },
      });
      const waiting = (await send(a, 'POST', CROSS_BORDER_PATH, body(), headers())).json() as Json;
      const authorised = (
        await send(a, 'POST', CROSS_BORDER_PATH, { ...body(), remittanceInformationUnstructured: 'second' }, headers())
      ).json() as Json;
      const psu = new ScriptedPsu(t.app);
      await psu.open(authorised._links.scaRedirect.href);
      await psu.logIn(DEFAULT_CUSTOMERS.kari.customerNumber, '123456');
      await psu.approve();
      assert.equal(await statusOf(a, authorised), 'ACTC');

      const clockOfA = ((await send(a, 'GET', '/v1/sandbox/clock')).json() as Json).offsetSeconds;
      const moved = await send(b, 'POST', '/v1/sandbox/clock', { advanceSeconds: 2 * 3600 + 24 * 3600 });
      assert.equal(moved.statusCode, 200, moved.body);
      // B's clock moved; its slots with nothing due are skipped (docs/batch.md), and A's run none.
      assert.ok((moved.json() as Json).offsetSeconds >= 26 * 3600, "B's clock moved");
      assert.equal(
        ((await send(a, 'GET', '/v1/sandbox/clock')).json() as Json).offsetSeconds,
        clockOfA,
        "A's clock did not move",
      );
      assert.equal(await statusOf(a, waiting), 'RCVD', "A's payment did not expire");
      assert.equal(await statusOf(a, authorised), 'ACTC', "A's batch did not run");
      const opened = await new ScriptedPsu(t.app).open(waiting._links.scaRedirect.href);
      assert.equal(opened.statusCode, 200, "A's link did not expire");

      // A's own move runs A's batch.
      const ownMove = await send(a, 'POST', '/v1/sandbox/clock', { advanceSeconds: 24 * 3600 });
      assert.equal(ownMove.statusCode, 200, ownMove.body);
      assert.equal(await statusOf(a, authorised), 'ACSC');
      assert.equal(await statusOf(a, waiting), 'RJCT', "now past its signing window by A's clock");
    });

    it("counts wrong one-time codes per bank: another TPP's PSU with the same customer number is not locked out", async () => {
      const number = nextFnr();
      for (const as of [a, b])
        assert.equal(
          (
            await send(as, 'POST', '/v1/sandbox/customers', {
              customerNumber: number,
              name: 'Same Number',
              type: 'private',
            })
          ).statusCode,
          201,
        );
      const headers = () => {
        const h = createHeaders({ 'X-PSU-IDENTITY': number });
        delete h['PSU-ID'];
        return h;
      };
      let last: LightMyRequestResponse | undefined;
      // Ten wrong codes for B's PSU (three per link, as a link fails after three).
      for (let wrong = 0; wrong < 10;) {
        const payment = (await send(b, 'POST', CROSS_BORDER_PATH, crossBorderBody(), headers())).json() as Json;
        const psu = new ScriptedPsu(t.app);
        await psu.open(payment._links.scaRedirect.href);
        for (let attempt = 0; attempt < 3 && wrong < 10; attempt++, wrong++) last = await psu.logIn(number, '000000');
      }
      assert.match(last!.body, /Logging in is blocked/, "B's PSU is locked out");
      const payment = (await send(a, 'POST', CROSS_BORDER_PATH, crossBorderBody(), headers())).json() as Json;
      const psu = new ScriptedPsu(t.app);
      await psu.open(payment._links.scaRedirect.href);
      const page = await psu.logIn(number, '123456');
      assert.doesNotMatch(page.body, /Logging in is blocked|not accepted/);
    });

    it("resets only the caller's bank on initialize", async () => {
      await send(a, 'POST', '/v1/sandbox/initialize');
      await send(b, 'POST', '/v1/sandbox/initialize');
      const added = await send(
        a,
        'POST',
        '/v1/sandbox/accounts',
        sandboxAccountBody(DEFAULT_CUSTOMERS.ola.customerNumber, { bban: nextBban(), iban: undefined }),
      );
      assert.equal(added.statusCode, 201, added.body);
      const initialized = await send(b, 'POST', '/v1/sandbox/initialize');
      assert.equal(initialized.statusCode, 200, initialized.body);
      assert.equal(
        (await send(a, 'GET', (added.json() as Json)._links.self.href)).statusCode,
        200,
        "A's added account stays",
      );
      const ola = await t.store.findCustomer(TPP_ID, { customerNumber: DEFAULT_CUSTOMERS.ola.customerNumber });
      const olaOfB = await t.store.findCustomer(OTHER_TPP_ID, { customerNumber: DEFAULT_CUSTOMERS.ola.customerNumber });
      assert.ok(ola !== undefined && olaOfB !== undefined && ola.id !== olaOfB.id);
    });
  });
}

describe('the number of sandbox banks (MAX_SANDBOX_BANKS)', () => {
  it('refuses a new TPP with 429 ACCESS_EXCEEDED once the sandbox keeps its most banks, while a TPP with a bank goes on', async () => {
    const t = await startTestApp({ seed: false, maxBanks: 1 });
    try {
      const first = await t.signed({ method: 'GET', url: '/v1/sandbox/customers' });
      assert.equal(first.statusCode, 200, first.body);
      const refused = await t.signed({ method: 'GET', url: '/v1/sandbox/customers', as: t.fixtures.otherTpp });
      const body = assertErrorBody(refused, 429, 'ACCESS_EXCEEDED');
      assert.match(
        body.message ?? '',
        new RegExp(`keeps 1 banks, one per TPP, and has no room for a bank of ${OTHER_TPP_ID}`),
      );
      assert.equal((await t.signed({ method: 'GET', url: '/v1/sandbox/customers' })).statusCode, 200);
      assert.deepEqual(await t.store.listBanks(), [TPP_ID]);
    } finally {
      await t.close();
    }
  });
});
