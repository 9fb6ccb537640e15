import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { addDays, osloDate } from '../../src/domain/clock.js';
import { DEFAULT_ACCOUNTS, DEFAULT_CUSTOMERS } from '../../src/sandbox/default-data-set.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import {
  CROSS_BORDER_PATH,
  OLA_ACCOUNTS,
  PSU_ID,
  createCrossBorder,
  createHeaders,
  crossBorderBody,
  messagesByPath,
  OTHER_PSU_ID,
} from '../support/payment-requests.js';
import { createMigratedTestDatabase } from '../support/postgres.js';
import { ibanOf, nextBban, nextFnr, nextOrganisationNumber } from '../support/norwegian-numbers.js';
import { sandboxAccountBody } from '../support/sandbox-bodies.js';
import { OTHER_TPP_ID, TPP_ID } from '../support/tpp-fixtures.js';
import { type TestApp, assertErrorBody, startTestApp, PUBLIC_URL } from '../support/test-app.js';
import { ACCEPT_FIXES } from '../../src/domain/accept-fix.js';

/** The sandbox's test-data API (mock-data): customers, accounts, agreements, card accounts, transactions, initialize. */
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/**
 * Runs a test against an app of its own whose bank's date is the day before a published change's
 * default (src/domain/accept-fix.ts): what it shows of the time before the change holds whatever day
 * the suite runs on. The suite's app stays as it was for the tests after it.
 */
async function beforeDefaultOf(fix: string, test: () => Promise<void>): Promise<void> {
  const defaultFrom = ACCEPT_FIXES.find((known) => known.name === fix)?.defaultFrom;
  if (defaultFrom == null) throw new Error(`${fix} has no default date`);
  const pinned = new Date(`${addDays(defaultFrom, -1)}T10:00:00Z`);
  const shared = t;
  t = await startTestApp({ clock: { now: () => pinned } });
  try {
    await test();
  } finally {
    await t.close();
    t = shared;
  }
}

// ---- Test data ----

/** An account in another bank, the counterpart of test transactions (the platform's example). */
const ELSEWHERE = { iban: 'NO6290491105991', bban: '90491105991' };

// ---- Requests ----

const post = (url: string, body: unknown, as?: CertificateAndKey, headers?: Record<string, string>) =>
  t.signed({
    method: 'POST',
    url,
    body,
    ...(as === undefined ? {} : { as }),
    ...(headers === undefined ? {} : { headers }),
  });
const get = (url: string, as?: CertificateAndKey) =>
  t.signed({ method: 'GET', url, ...(as === undefined ? {} : { as }) });
const del = (url: string, as?: CertificateAndKey) =>
  t.signed({ method: 'DELETE', url, ...(as === undefined ? {} : { as }) });

type Json = Record<string, any>;

function created(response: LightMyRequestResponse): Json {
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as Json;
}

function pathsOf(response: LightMyRequestResponse): string[] {
  return [...messagesByPath(response).keys()].sort();
}

function textAt(response: LightMyRequestResponse, path: string): string {
  const messages = messagesByPath(response).get(path);
  assert.ok(messages, `no tppMessage at ${path}: ${response.body}`);
  return messages.map((m) => m.text).join(' | ');
}

async function newCustomer(type: 'private' | 'corporate' = 'private', as?: CertificateAndKey): Promise<Json> {
  const customerNumber = type === 'private' ? nextFnr() : nextOrganisationNumber();
  return created(
    await post('/v1/sandbox/customers', { customerNumber, name: `Test ${type} ${customerNumber}`, type }, as),
  );
}

async function newAccount(customerNumber: string, overrides: Json = {}, as?: CertificateAndKey): Promise<Json> {
  return created(await post('/v1/sandbox/accounts', sandboxAccountBody(customerNumber, overrides), as));
}

function today(): string {
  return osloDate(t.clock.now());
}

/** A credit to the account from an account elsewhere, as the platform's example posts them. */
function credit(account: Json, overrides: Json = {}): Json {
  return {
    amount: 1500,
    currency: account.currency,
    valueDate: today(),
    bookingDate: today(),
    remittanceInformationUnstructured: '63444766',
    creditorId: '1',
    creditorName: 'Ola Test',
    creditorAccount: { iban: account.iban, bban: account.bban },
    ultimateCreditor: 'Test',
    debtorName: 'Aftenposten',
    debtorAccount: ELSEWHERE,
    ultimateDebtor: 'Aftenposten AS',
    purposeCode: 'SALA',
    bankTransactionCode: 'PMNT',
    ...overrides,
  };
}

/** A debit of the account to an account elsewhere. */
function debit(account: Json, overrides: Json = {}): Json {
  return credit(account, {
    amount: -250.5,
    creditorName: 'Sognekraft',
    creditorAccount: ELSEWHERE,
    debtorName: 'Ola Test',
    debtorAccount: { iban: account.iban },
    ...overrides,
  });
}

async function postTransactions(account: Json, transactions: Json[], as?: CertificateAndKey): Promise<Json[]> {
  return created(await post(`/v1/sandbox/accounts/${account.id}/transactions`, transactions, as)) as unknown as Json[];
}

async function listTransactions(account: Json, query = '', as?: CertificateAndKey): Promise<Json[]> {
  const response = await get(`/v1/sandbox/accounts/${account.id}/transactions${query}`, as);
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as Json[];
}

// ---- Customers ----

describe('sandbox customers', () => {
  it('creates a private customer: 201 with every field of the Sandbox customer and its self link', async () => {
    const customerNumber = nextFnr();
    const response = await post('/v1/sandbox/customers', {
      customerNumber,
      name: 'Test Testperson 1',
      type: 'private',
    });
    const body = created(response);
    assert.match(body.customerId, /^enc!!/);
    const self = `/v1/sandbox/customers/${body.customerId}`;
    assert.deepEqual(body, {
      customerId: body.customerId,
      customerNumber,
      customerType: 'PRIVATE',
      customerName: 'Test Testperson 1',
      agreements: [],
      accounts: [],
      cardAccounts: [],
      _links: { self: { href: self, verbs: ['GET', 'DELETE'] } },
    });
    assert.equal(response.headers.location, `${PUBLIC_URL}${self}`);
    const read = await get(self);
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual(read.json(), body);
  });

  it('creates a corporate customer with an organisation number, and with an 11-digit national identity number', async () => {
    const organisation = created(
      await post('/v1/sandbox/customers', {
        customerNumber: nextOrganisationNumber(),
        name: 'Test AS',
        type: 'corporate',
      }),
    );
    assert.equal(organisation.customerType, 'CORPORATE');
    const personal = created(
      await post('/v1/sandbox/customers', {
        customerNumber: nextFnr(),
        name: 'Enkeltpersonforetak Test',
        type: 'CORPORATE',
      }),
    );
    assert.equal(personal.customerType, 'CORPORATE');
  });

  it('refuses a private customer number that is not a national identity number, and a corporate one that is not digits, naming $.customerNumber', async () => {
    const fnr = nextFnr();
    const wrongCheck = `${fnr.slice(0, 10)}${(Number(fnr[10]) + 1) % 10}`;
    for (const [customerNumber, type, reason] of [
      [wrongCheck, 'private', /not a Norwegian national identity number/],
      [nextOrganisationNumber(), 'private', /national identity number/],
      ['AS-5555555', 'corporate', /not a corporate customer number: digits only/],
    ] as const) {
      const response = await post('/v1/sandbox/customers', { customerNumber, name: 'X', type });
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      assert.deepEqual(pathsOf(response), ['$.customerNumber'], `${customerNumber} ${type}`);
      assert.match(textAt(response, '$.customerNumber'), reason);
    }
  });

  it('reports every problem of a bad customer body at once, each with its path', async () => {
    const response = await post('/v1/sandbox/customers', { customerNumber: 1234, type: 'person', nickname: 'x' });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.deepEqual(pathsOf(response), ['$.customerNumber', '$.name', '$.nickname', '$.type']);
  });

  it("refuses a customer number already used in the TPP's bank with 409 CONFLICT naming $.customerNumber, the default data set's too; another TPP's bank may have it", async () => {
    const customer = await newCustomer();
    for (const customerNumber of [customer.customerNumber, DEFAULT_CUSTOMERS.ola.customerNumber]) {
      const response = await post('/v1/sandbox/customers', { customerNumber, name: 'Again', type: 'private' });
      assertErrorBody(response, 409, 'CONFLICT');
      assert.deepEqual(pathsOf(response), ['$.customerNumber']);
    }
    // Numbers are unique within one TPP's bank only: another TPP's script may use the same setup.
    assert.equal(
      (
        await post(
          '/v1/sandbox/customers',
          { customerNumber: customer.customerNumber, name: 'Other', type: 'private' },
          t.fixtures.otherTpp,
        )
      ).statusCode,
      201,
    );
  });

  it('hides a customer from another TPP: GET and DELETE answer 404 RESOURCE_UNKNOWN', async () => {
    const customer = await newCustomer();
    const self = customer._links.self.href;
    const read = await get(self, t.fixtures.otherTpp);
    assertErrorBody(read, 404, 'RESOURCE_UNKNOWN');
    assert.deepEqual(pathsOf(read), ['path:customerId']);
    assertErrorBody(await del(self, t.fixtures.otherTpp), 404, 'RESOURCE_UNKNOWN');
    assertErrorBody(await get('/v1/sandbox/customers/enc!!unknown'), 404, 'RESOURCE_UNKNOWN');
    assert.equal((await get(self)).statusCode, 200);
  });

  it("lists the customers this TPP sees: the default data set and its own, not another TPP's, in a stable order", async () => {
    const mine = await newCustomer();
    const theirs = await newCustomer('private', t.fixtures.otherTpp);
    const response = await get('/v1/sandbox/customers');
    assert.equal(response.statusCode, 200, response.body);
    const list = response.json() as Json[];
    const numbers = list.map((c) => c.customerNumber);
    assert.deepEqual(
      new Set(numbers.slice(0, Object.keys(DEFAULT_CUSTOMERS).length)),
      new Set(Object.values(DEFAULT_CUSTOMERS).map((c) => c.customerNumber)),
      'the default data set first',
    );
    assert.ok(numbers.includes(mine.customerNumber));
    assert.ok(!numbers.includes(theirs.customerNumber));
    assert.deepEqual((await get('/v1/sandbox/customers')).json(), list, 'the same list twice');
    const page = (await get('/v1/sandbox/customers?offset=1&limit=2')).json() as Json[];
    assert.deepEqual(
      page.map((c) => c.customerId),
      list.slice(1, 3).map((c) => c.customerId),
    );
    assertErrorBody(await get('/v1/sandbox/customers?limit=0'), 400, 'FORMAT_ERROR');
    // Text that coercion alone reads as a number: Infinity passed as a whole number and was answered 500.
    for (const query of ['limit=Infinity', 'limit=-Infinity', 'offset=Infinity', 'offset=%20', 'limit=0x10']) {
      const body = assertErrorBody(await get(`/v1/sandbox/customers?${query}`), 400, 'FORMAT_ERROR');
      assert.equal(body.tppMessages?.[0]?.path, `query:${query.split('=')[0]}`, query);
    }
    const theirList = (await get('/v1/sandbox/customers', t.fixtures.otherTpp)).json() as Json[];
    assert.ok(theirList.some((c) => c.customerNumber === theirs.customerNumber));
    assert.ok(!theirList.some((c) => c.customerNumber === mine.customerNumber));
  });

  it('reads a default customer with the corporate agreement it is engaged on, and the owner with all its accounts', async () => {
    const list = (await get('/v1/sandbox/customers')).json() as Json[];
    const ola = list.find((c) => c.customerNumber === DEFAULT_CUSTOMERS.ola.customerNumber)!;
    const nordlys = list.find((c) => c.customerNumber === DEFAULT_CUSTOMERS.nordlys.customerNumber)!;
    assert.equal(ola.customerType, 'PRIVATE');
    assert.equal(ola.accounts.length >= 2, true);
    const agreement = ola.agreements.find((a: Json) => a.id === 'AGR-18129215603');
    assert.ok(agreement, 'Ola is engaged on the Nordlys agreement');
    assert.equal(agreement.engagements.length, 2);
    assert.deepEqual(nordlys.agreements, [
      { id: 'AGR-18129215603', name: 'Nordlys Handel AS nettbank', engagements: agreement.engagements },
    ]);
    assert.deepEqual(nordlys.accounts, agreement.engagements);
    // Each TPP has its own copy of the default data set: this one is not the other TPP's.
    assertErrorBody(await get(`/v1/sandbox/customers/${ola.customerId}`, t.fixtures.otherTpp), 404, 'RESOURCE_UNKNOWN');
  });

  it('deletes a customer with its accounts, card accounts and transactions: 204, then 404', async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    const [posted] = await postTransactions(account, [credit(account)]);
    const card = created(await post('/v1/sandbox/card-accounts', cardBody(customer.customerNumber)));
    const response = await del(customer._links.self.href);
    assert.equal(response.statusCode, 204, response.body);
    assert.equal(response.body, '');
    assertErrorBody(await get(customer._links.self.href), 404, 'RESOURCE_UNKNOWN');
    assertErrorBody(await get(account._links.self.href), 404, 'RESOURCE_UNKNOWN');
    assertErrorBody(await get(posted!._links.self.href), 404, 'RESOURCE_UNKNOWN');
    assertErrorBody(await get(card._links.self.href), 404, 'RESOURCE_UNKNOWN');
    assert.equal(await t.store.findAccount(TPP_ID, { bban: account.bban }), undefined);
  });

  it("deletes a customer of the default data set like any other of the TPP's bank (204), and lets the number be used again", async () => {
    const app = await startTestApp();
    try {
      const ola = (await app.store.findCustomer(TPP_ID, { customerNumber: DEFAULT_CUSTOMERS.ola.customerNumber }))!;
      const response = await app.signed({ method: 'DELETE', url: `/v1/sandbox/customers/${ola.id}` });
      assert.equal(response.statusCode, 204, response.body);
      assert.equal(await app.store.findAccount(TPP_ID, { bban: OLA_ACCOUNTS[0] }), undefined, 'with its accounts');
      // With its PSU sessions: the PSU-ID the TPP held for Ola names no one any more (migration 022 took the cascade).
      assert.equal(await app.store.findPsuSession(TPP_ID, PSU_ID), undefined, 'with its PSU sessions');
      assert.ok(await app.store.findPsuSession(OTHER_TPP_ID, OTHER_PSU_ID), "the other TPP's session stays");
      const again = await app.signed({
        method: 'POST',
        url: '/v1/sandbox/customers',
        body: { customerNumber: DEFAULT_CUSTOMERS.ola.customerNumber, name: 'Ola Again', type: 'private' },
      });
      assert.equal(again.statusCode, 201, again.body);
      assert.ok(
        await app.store.findCustomer(OTHER_TPP_ID, {
          id: (await app.store.findCustomer(OTHER_TPP_ID, { customerNumber: DEFAULT_CUSTOMERS.ola.customerNumber }))!
            .id,
        }),
        "the other TPP's Ola stays",
      );
    } finally {
      await app.close();
    }
  });

  it('lists the accounts, card accounts and agreements a customer holds', async () => {
    const customer = await newCustomer();
    const first = await newAccount(customer.customerNumber);
    const second = await newAccount(customer.customerNumber, { accountName: 'Sparekonto', cashAccountType: 'SVGS' });
    const card = created(await post('/v1/sandbox/card-accounts', cardBody(customer.customerNumber)));
    const read = (await get(customer._links.self.href)).json() as Json;
    assert.deepEqual(read.accounts, [first.id, second.id]);
    assert.deepEqual(read.cardAccounts, [card.id]);
    assert.deepEqual(read.agreements, []);
  });
});

// ---- Accounts ----

describe('sandbox accounts', () => {
  it('creates an account from the body the platform uses (amounts as JSON numbers): 201 with every field, read back the same', async () => {
    const customer = await newCustomer();
    const body = sandboxAccountBody(customer.customerNumber, {
      creditLine: 0,
      balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount: 18000, currency: 'NOK' } }],
    });
    const response = await post('/v1/sandbox/accounts', body);
    const account = created(response);
    const self = `/v1/sandbox/accounts/${account.id}`;
    assert.deepEqual(account, {
      id: account.id,
      customerNumber: customer.customerNumber,
      accountName: 'Brukskonto',
      bban: body.bban,
      iban: body.iban,
      currency: 'NOK',
      product: 'Brukskonto',
      cashAccountType: 'CACC',
      creditLine: '0.00',
      balances: [{ balanceType: 'expected', balanceAmount: { amount: '18000.00', currency: 'NOK' } }],
      status: 'enabled',
      _links: {
        self: { href: self, verbs: ['GET', 'DELETE'] },
        transactions: { href: `${self}/transactions`, verbs: ['GET', 'POST'] },
      },
    });
    assert.equal(response.headers.location, `${PUBLIC_URL}${self}`);
    assert.deepEqual((await get(self)).json(), account);
  });

  it('stores JSON number amounts without floating-point loss: 1234.56 is 123456 minor units', async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber, {
      creditLine: 5000.1,
      balances: [{ balanceType: 'expected', balanceAmount: { amount: 1234.56, currency: 'NOK' } }],
    });
    const stored = await t.store.findSandboxAccount(TPP_ID, account.id);
    assert.equal(stored!.balanceMinor, 123456n);
    assert.equal(stored!.creditLineMinor, 500010n);
    assert.equal(account.balances[0].balanceAmount.amount, '1234.56');
    assert.equal(account.creditLine, '5000.10');
    const euro = await newAccount(customer.customerNumber, {
      currency: 'EUR',
      balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount: 3326011, currency: 'EUR' } }],
    });
    assert.equal((await t.store.findSandboxAccount(TPP_ID, euro.id))!.balanceMinor, 332601100n);
    const asString = await newAccount(customer.customerNumber, {
      creditLine: '250.75',
      balances: [{ balanceType: 'expected', balanceAmount: { amount: '-99.99', currency: 'NOK' } }],
    });
    assert.equal((await t.store.findSandboxAccount(TPP_ID, asString.id))!.balanceMinor, -9999n);
  });

  it('refuses the result of float arithmetic (0.1 + 0.2) and an exponent instead of rounding them', async () => {
    const customer = await newCustomer();
    const response = await post(
      '/v1/sandbox/accounts',
      sandboxAccountBody(customer.customerNumber, {
        creditLine: 1e21,
        balances: [{ balanceType: 'expected', balanceAmount: { amount: 0.1 + 0.2, currency: 'NOK' } }],
      }),
    );
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.deepEqual(pathsOf(response), ['$.balances[0].balanceAmount.amount', '$.creditLine']);
    assert.match(textAt(response, '$.balances[0].balanceAmount.amount'), /17 fraction digits/);
    assert.match(textAt(response, '$.creditLine'), /exponent/);
  });

  it('takes the first balance of type interimAvailable, expected or closingBooked; else the first; none is 0', async () => {
    const customer = await newCustomer();
    const balance = async (balances: Json[]) =>
      (await t.store.findSandboxAccount(TPP_ID, (await newAccount(customer.customerNumber, { balances })).id))!
        .balanceMinor;
    const amount = (balanceType: string, value: number) => ({
      balanceType,
      balanceAmount: { amount: value, currency: 'NOK' },
    });
    assert.equal(
      await balance([amount('interimBooked', 5), amount('CLOSING_BOOKED', 10), amount('expected', 20)]),
      1000n,
    );
    assert.equal(await balance([amount('openingBooked', 7), amount('forwardAvailable', 8)]), 700n);
    assert.equal(await balance([]), 0n);
    const none = sandboxAccountBody(customer.customerNumber);
    delete none.balances;
    delete none.creditLine;
    const account = created(await post('/v1/sandbox/accounts', none));
    assert.equal(account.creditLine, '0.00');
    assert.equal(account.balances[0].balanceAmount.amount, '0.00');
  });

  it('composes the IBAN when only the BBAN is given', async () => {
    const customer = await newCustomer();
    const body = sandboxAccountBody(customer.customerNumber);
    delete body.iban;
    const account = created(await post('/v1/sandbox/accounts', body));
    assert.equal(account.iban, ibanOf(body.bban));
  });

  it('refuses a bad BBAN, an IBAN of another account, an unknown cashAccountType, balance type and currency, each at its path', async () => {
    const customer = await newCustomer();
    const other = nextBban();
    const bad = sandboxAccountBody(customer.customerNumber, {
      cashAccountType: 'CURR',
      currency: 'NOK',
      balances: [{ balanceType: 'PENDING', balanceAmount: { amount: 1, currency: 'EUR' } }],
    });
    bad.iban = ibanOf(other);
    let response = await post('/v1/sandbox/accounts', bad);
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.deepEqual(pathsOf(response), [
      '$.balances[0].balanceAmount.currency',
      '$.balances[0].balanceType',
      '$.cashAccountType',
      '$.iban',
    ]);
    assert.match(textAt(response, '$.iban'), /is not the IBAN of \$\.bban/);
    response = await post(
      '/v1/sandbox/accounts',
      sandboxAccountBody(customer.customerNumber, { bban: '1234567890', iban: undefined }),
    );
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.match(textAt(response, '$.bban'), /11 digits/);
    response = await post('/v1/sandbox/accounts', {
      ...sandboxAccountBody(customer.customerNumber),
      creditLine: -5,
      currency: 'XXX',
    });
    assert.deepEqual(pathsOf(response), ['$.currency']);
    response = await post('/v1/sandbox/accounts', { ...sandboxAccountBody(customer.customerNumber), creditLine: -5 });
    assert.match(textAt(response, '$.creditLine'), /must not be negative/);
  });

  it("refuses an account of an unknown customer, or of another TPP's, at $.customerNumber", async () => {
    const theirs = await newCustomer('private', t.fixtures.otherTpp);
    for (const customerNumber of [nextFnr(), theirs.customerNumber]) {
      const response = await post('/v1/sandbox/accounts', sandboxAccountBody(customerNumber));
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      assert.deepEqual(pathsOf(response), ['$.customerNumber']);
    }
  });

  it("refuses a BBAN or IBAN already used in the TPP's bank with 409 CONFLICT at its path; another TPP's bank may have it", async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    let response = await post(
      '/v1/sandbox/accounts',
      sandboxAccountBody(customer.customerNumber, { bban: account.bban, iban: account.iban }),
    );
    assertErrorBody(response, 409, 'CONFLICT');
    assert.deepEqual(pathsOf(response), ['$.bban', '$.iban']);
    response = await post(
      '/v1/sandbox/accounts',
      sandboxAccountBody(customer.customerNumber, { bban: OLA_ACCOUNTS[0], iban: undefined }),
    );
    assertErrorBody(response, 409, 'CONFLICT');
    assert.deepEqual(pathsOf(response), ['$.bban']);
    const theirs = await newCustomer('private', t.fixtures.otherTpp);
    response = await post(
      '/v1/sandbox/accounts',
      sandboxAccountBody(theirs.customerNumber, { bban: account.bban, iban: account.iban }),
      t.fixtures.otherTpp,
    );
    assert.equal(response.statusCode, 201, response.body);
  });

  it('limits accountName to 35 characters, and to 70 with x-accept-fix longer-name', () =>
    beforeDefaultOf('longer-name', async () => {
      const customer = await newCustomer();
      const name36 = 'K'.repeat(36);
      let response = await post(
        '/v1/sandbox/accounts',
        sandboxAccountBody(customer.customerNumber, { accountName: name36 }),
      );
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      assert.match(
        textAt(response, '$.accountName'),
        /at most 35 characters long \(it is 36\); 70 with x-accept-fix longer-name/,
      );
      assert.equal(
        created(
          await post(
            '/v1/sandbox/accounts',
            sandboxAccountBody(customer.customerNumber, { accountName: 'K'.repeat(35) }),
          ),
        ).accountName.length,
        35,
      );
      const longer = created(
        await post(
          '/v1/sandbox/accounts',
          sandboxAccountBody(customer.customerNumber, { accountName: 'L'.repeat(70) }),
          undefined,
          { 'x-accept-fix': 'longer-name' },
        ),
      );
      assert.equal(longer.accountName, 'L'.repeat(70));
      response = await post(
        '/v1/sandbox/accounts',
        sandboxAccountBody(customer.customerNumber, { accountName: 'L'.repeat(71) }),
        undefined,
        { 'x-accept-fix': 'longer-name' },
      );
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      assert.match(textAt(response, '$.accountName'), /at most 70 characters/);
    }));

  it('hides an account from another TPP: GET, DELETE and its transactions answer 404 RESOURCE_UNKNOWN', async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    const other = t.fixtures.otherTpp;
    for (const response of [
      await get(account._links.self.href, other),
      await del(account._links.self.href, other),
      await get(`${account._links.self.href}/transactions`, other),
      await post(`${account._links.self.href}/transactions`, [credit(account)], other),
    ]) {
      assertErrorBody(response, 404, 'RESOURCE_UNKNOWN');
      assert.deepEqual(pathsOf(response), ['path:mockAccountId']);
    }
  });

  it("deletes an account with its transactions: 204, then 404; an account of the default data set too, in the TPP's bank only", async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    await postTransactions(account, [credit(account)]);
    assert.equal((await del(account._links.self.href)).statusCode, 204);
    assertErrorBody(await get(account._links.self.href), 404, 'RESOURCE_UNKNOWN');
    assertErrorBody(await get(`${account._links.self.href}/transactions`), 404, 'RESOURCE_UNKNOWN');
    const customerNow = (await get(customer._links.self.href)).json() as Json;
    assert.deepEqual(customerNow.accounts, []);
    const app = await startTestApp();
    try {
      const ola = (await app.store.findAccount(TPP_ID, { bban: OLA_ACCOUNTS[0] }))!;
      assertErrorBody(
        await app.signed({ method: 'DELETE', url: `/v1/sandbox/accounts/${ola.id}`, as: app.fixtures.otherTpp }),
        404,
        'RESOURCE_UNKNOWN',
      );
      assert.equal((await app.signed({ method: 'DELETE', url: `/v1/sandbox/accounts/${ola.id}` })).statusCode, 204);
      assert.ok(await app.store.findAccount(OTHER_TPP_ID, { bban: OLA_ACCOUNTS[0] }), "the other TPP's copy stays");
    } finally {
      await app.close();
    }
  });

  it('lets a TPP add an account to a customer of the default data set, which only that TPP sees', async () => {
    const account = await newAccount(DEFAULT_CUSTOMERS.kari.customerNumber, { accountName: 'Feriekonto' });
    assert.equal((await get(account._links.self.href)).statusCode, 200);
    assertErrorBody(await get(account._links.self.href, t.fixtures.otherTpp), 404, 'RESOURCE_UNKNOWN');
  });
});

// ---- Account transactions ----

describe('sandbox account transactions', () => {
  it('posts credits as the platform does and lists them with every field of the Sandbox transaction, the amount as posted', async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    const day = addDays(today(), -3);
    const body = [
      credit(account, { amount: 1500, valueDate: day, bookingDate: day }),
      credit(account, { amount: '123.45', creditorAccount: { bban: account.bban } }),
    ];
    const ids = await postTransactions(account, body);
    assert.equal(ids.length, 2);
    for (const entry of ids) {
      assert.match(entry.id, /^enc!!/);
      assert.deepEqual(entry._links, {
        self: { href: `/v1/sandbox/accounts/${account.id}/transactions/${entry.id}`, verbs: ['GET'] },
      });
    }
    const list = await listTransactions(account);
    assert.deepEqual(list[0], {
      id: ids[0]!.id,
      amount: 1500,
      currency: 'NOK',
      valueDate: day,
      remittanceInformationUnstructured: '63444766',
      creditorName: 'Ola Test',
      creditorAccount: { iban: account.iban, bban: account.bban },
      debtorName: 'Aftenposten',
      debtorAccount: ELSEWHERE,
      bankTransactionCode: 'PMNT',
      ultimateDebtor: 'Aftenposten AS',
      ultimateCreditor: 'Test',
      purposeCode: 'SALA',
      bookingDate: day,
      _links: { self: { href: `/v1/sandbox/accounts/${account.id}/transactions/${ids[0]!.id}`, verbs: ['GET'] } },
    });
    assert.equal(list[1]!.amount, 123.45);
    assert.deepEqual(
      list[1]!.creditorAccount,
      { iban: account.iban, bban: account.bban },
      'the IBAN is composed from a BBAN given alone',
    );
    const one = await get(ids[1]!._links.self.href);
    assert.equal(one.statusCode, 200);
    assert.deepEqual(one.json(), list[1]);
  });

  it('reads back what was posted, unit and sign, stored exactly: 1500 is 1500, 1234.56 is 1234.56, -0.07 is -0.07', async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    const amounts = [1500, 1234.56, -0.07, 21474836.47, 2147483647, -2147483648, '99.90'];
    await postTransactions(
      account,
      amounts.map((amount, i) => (i % 2 === 0 ? credit(account, { amount }) : debit(account, { amount }))),
    );
    assert.deepEqual(
      (await listTransactions(account)).map((x) => x.amount),
      [1500, 1234.56, -0.07, 21474836.47, 2147483647, -2147483648, 99.9],
    );
    const stored = await t.store.listSandboxTransactions(account.id, {
      fromDate: undefined,
      toDate: undefined,
      offset: 0,
      limit: 10,
    });
    assert.deepEqual(
      stored.map((x) => x.amountMinor),
      [150000n, 123456n, -7n, 2147483647n, 214748364700n, -214748364800n, 9990n],
    );
  });

  it('leaves the balance as it is: posted transactions are history', async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    await postTransactions(account, [credit(account, { amount: 5000 }), debit(account)]);
    assert.deepEqual((await get(account._links.self.href)).json(), account);
  });

  it('takes the direction from the side the account is on, not from the sign: a positive debit and a negative credit are kept as posted', async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    await postTransactions(account, [
      debit(account, { amount: 250 }),
      debit(account, { amount: -250.5, debtorAccount: { bban: account.bban } }),
      credit(account, { amount: 1500 }),
      credit(account, { amount: -100, creditorAccount: { iban: account.iban } }),
    ]);
    const list = await listTransactions(account);
    assert.deepEqual(
      list.map((x) => [x.amount, x.debtorAccount.iban === account.iban ? 'debit' : 'credit']),
      [
        [250, 'debit'],
        [-250.5, 'debit'],
        [1500, 'credit'],
        [-100, 'credit'],
      ],
    );
  });

  it('refuses another account of this bank as the debtor, and the account on neither side or on both, saying which account', async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    const otherAccount = await newAccount(customer.customerNumber);
    const response = await post(`/v1/sandbox/accounts/${account.id}/transactions`, [
      debit(account),
      credit(account, { debtorAccount: { iban: otherAccount.iban } }),
      credit(account, { amount: -5, debtorAccount: { bban: DEFAULT_ACCOUNTS[0]!.bban } }),
      credit(account, { creditorAccount: { bban: ELSEWHERE.bban } }),
      debit(account, { creditorAccount: { bban: account.bban } }),
      debit(account, { debtorAccount: { iban: otherAccount.iban }, creditorAccount: ELSEWHERE }),
    ]);
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.deepEqual(pathsOf(response), [
      '$[1].debtorAccount',
      '$[2].debtorAccount',
      '$[3]',
      '$[4].creditorAccount',
      '$[5]',
    ]);
    assert.match(
      textAt(response, '$[1].debtorAccount'),
      new RegExp(
        `names account ${otherAccount.iban} \\(${otherAccount.bban}\\) of this sandbox bank as the debtor, another account than account ${account.iban}.*would not show the debit`,
      ),
    );
    assert.match(
      textAt(response, '$[3]'),
      new RegExp(`names account ${account.iban} \\(${account.bban}\\).*on neither side`),
    );
    assert.match(textAt(response, '$[4].creditorAccount'), /as both debtor and creditor/);
    assert.deepEqual(await listTransactions(account), [], 'nothing of a refused request is stored');
  });

  it('refuses dates after today and a booking date after the value date, bank transaction codes outside 4 to 14, and more, each at its path', async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    const tomorrow = addDays(today(), 1);
    const yesterday = addDays(today(), -1);
    const response = await post(`/v1/sandbox/accounts/${account.id}/transactions`, [
      credit(account, { bookingDate: tomorrow, valueDate: tomorrow }),
      credit(account, { bookingDate: today(), valueDate: yesterday }),
      credit(account, { bankTransactionCode: 'PMT' }),
      credit(account, { bankTransactionCode: 'PMNT-RCDT-DMCTX' }),
      credit(account, { purposeCode: '' }),
      credit(account, { currency: 'EUR' }),
      credit(account, { amount: 2147483648 }),
      credit(account, { amount: 0 }),
      credit(account, { amount: 10.005 }),
      credit(account, { debtorAccount: { iban: 'NO0000000000000' } }),
      credit(account, { debtorAccount: { iban: ELSEWHERE.iban, bban: '90491105992' } }),
      credit(account, { valueDate: '2026-02-30' }),
      { ...credit(account), remittanceInformationUnstructured: undefined, extra: 1 },
    ]);
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.deepEqual(pathsOf(response), [
      '$[0].bookingDate',
      '$[0].valueDate',
      '$[10].debtorAccount.bban',
      '$[11].valueDate',
      '$[12].extra',
      '$[12].remittanceInformationUnstructured',
      '$[1].bookingDate',
      '$[2].bankTransactionCode',
      '$[3].bankTransactionCode',
      '$[4].purposeCode',
      '$[5].currency',
      '$[6].amount',
      '$[7].amount',
      '$[8].amount',
      '$[9].debtorAccount.iban',
    ]);
    assert.match(textAt(response, '$[0].bookingDate'), /after today/);
    assert.match(textAt(response, '$[1].bookingDate'), /must not be after the value date/);
    assert.match(
      textAt(response, '$[6].amount'),
      /outside what a sandbox transaction amount holds \(an int32 of NOK units/,
    );
    assert.match(textAt(response, '$[7].amount'), /must not be zero/);
    assert.match(textAt(response, '$[5].currency'), /NOK/);
  });

  it('takes 1 to 1000 transactions in one request', async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    let response = await post(`/v1/sandbox/accounts/${account.id}/transactions`, []);
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.deepEqual(pathsOf(response), ['$']);
    response = await post(`/v1/sandbox/accounts/${account.id}/transactions`, { amount: 1 });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    const many = Array.from({ length: 1000 }, (_, i) => credit(account, { amount: i + 1 }));
    assert.equal((await postTransactions(account, many)).length, 1000);
    response = await post(`/v1/sandbox/accounts/${account.id}/transactions`, [...many, credit(account)]);
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.match(textAt(response, '$'), /at most 1000 entries/);
    const page = await listTransactions(account, '?offset=998&limit=1000');
    assert.deepEqual(
      page.map((x) => x.amount),
      [999, 1000],
    );
  });

  describe('listing', () => {
    let account: Json;
    const dates: string[] = [];
    before(async () => {
      const customer = await newCustomer();
      account = await newAccount(customer.customerNumber);
      // 25 transactions over five days, posted in an order that is not the dates' order.
      const body = Array.from({ length: 25 }, (_, i) => {
        const day = addDays(today(), -((i * 3) % 5) - 1);
        dates.push(day);
        return credit(account, { amount: i + 1, bookingDate: day, valueDate: day });
      });
      await postTransactions(account, body.slice(0, 10));
      await postTransactions(account, body.slice(10));
    });

    it('returns every transaction in posting order, the same on every read, 100 by default', async () => {
      const all = await listTransactions(account);
      assert.deepEqual(
        all.map((x) => x.amount),
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
      assert.deepEqual(await listTransactions(account), all);
    });

    it('pages with offset and limit over the dense position', async () => {
      assert.deepEqual(
        (await listTransactions(account, '?offset=10&limit=5')).map((x) => x.amount),
        [11, 12, 13, 14, 15],
      );
      assert.deepEqual(
        (await listTransactions(account, '?limit=3')).map((x) => x.amount),
        [1, 2, 3],
      );
      assert.deepEqual(
        (await listTransactions(account, '?offset=24')).map((x) => x.amount),
        [25],
      );
      assert.deepEqual(await listTransactions(account, '?offset=25'), []);
      const pages: number[] = [];
      for (let offset = 0; offset < 25; offset += 7)
        pages.push(...(await listTransactions(account, `?offset=${offset}&limit=7`)).map((x) => x.amount));
      assert.deepEqual(
        pages,
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
    });

    it('filters on the booking date with fromDate and toDate, in posting order, with offset and limit', async () => {
      const day = dates[0]!;
      const expected = dates.map((d, i) => (d === day ? i + 1 : undefined)).filter((n) => n !== undefined);
      assert.deepEqual(
        (await listTransactions(account, `?fromDate=${day}&toDate=${day}`)).map((x) => x.amount),
        expected,
      );
      assert.deepEqual(
        (await listTransactions(account, `?fromDate=${day}&toDate=${day}&offset=1&limit=2`)).map((x) => x.amount),
        expected.slice(1, 3),
      );
      const from = addDays(today(), -2);
      const later = dates.map((d, i) => (d >= from ? i + 1 : undefined)).filter((n) => n !== undefined);
      assert.deepEqual(
        (await listTransactions(account, `?fromDate=${from}`)).map((x) => x.amount),
        later,
      );
      const to = addDays(today(), -4);
      const earlier = dates.map((d, i) => (d <= to ? i + 1 : undefined)).filter((n) => n !== undefined);
      assert.deepEqual(
        (await listTransactions(account, `?toDate=${to}`)).map((x) => x.amount),
        earlier,
      );
    });

    it('refuses limit 0, a limit over 1000, a negative offset, a date that is not one and toDate before fromDate', async () => {
      for (const [query, path] of [
        ['?limit=0', 'query:limit'],
        ['?limit=1001', 'query:limit'],
        ['?offset=-1', 'query:offset'],
        ['?offset=x', 'query:offset'],
        ['?fromDate=2026-13-01', 'query:fromDate'],
        [`?fromDate=${today()}&toDate=${addDays(today(), -1)}`, 'query:toDate'],
      ] as const) {
        const response = await get(`/v1/sandbox/accounts/${account.id}/transactions${query}`);
        assertErrorBody(response, 400, 'FORMAT_ERROR');
        assert.deepEqual(pathsOf(response), [path], query);
      }
    });

    it('answers an unknown account or transaction with 404 RESOURCE_UNKNOWN', async () => {
      assertErrorBody(await get('/v1/sandbox/accounts/enc!!nothing/transactions'), 404, 'RESOURCE_UNKNOWN');
      const response = await get(`/v1/sandbox/accounts/${account.id}/transactions/enc!!nothing`);
      assertErrorBody(response, 404, 'RESOURCE_UNKNOWN');
      assert.deepEqual(pathsOf(response), ['path:transactionId']);
    });
  });
});

// ---- Agreements ----

describe('sandbox agreements', () => {
  it("creates a corporate agreement engaging a person on the owner's accounts; owner and person list it", async () => {
    const company = await newCustomer('corporate');
    const person = await newCustomer('private');
    const first = await newAccount(company.customerNumber, { accountName: 'Driftskonto' });
    const second = await newAccount(company.customerNumber, { accountName: 'Skattetrekk', cashAccountType: 'TAXE' });
    const body = {
      owner: company.customerNumber,
      name: 'Test AS nettbank',
      engagements: [
        { customer: person.customerNumber, account: { iban: first.iban }, roles: ['VIEW', 'REGISTER'] },
        { customer: person.customerNumber, account: { bban: second.bban }, roles: ['VIEW'] },
      ],
    };
    const response = await post('/v1/sandbox/agreements', body);
    const agreement = created(response);
    assert.deepEqual(agreement, {
      id: agreement.id,
      owner: company.customerNumber,
      name: 'Test AS nettbank',
      engagements: [
        {
          customer: person.customerNumber,
          account: { iban: first.iban, bban: first.bban },
          roles: ['VIEW', 'REGISTER'],
        },
        { customer: person.customerNumber, account: { iban: second.iban, bban: second.bban }, roles: ['VIEW'] },
      ],
      _links: { self: { href: `/v1/sandbox/agreements/${agreement.id}`, verbs: ['GET', 'DELETE'] } },
    });
    assert.deepEqual((await get(agreement._links.self.href)).json(), agreement);
    const owner = (await get(company._links.self.href)).json() as Json;
    assert.deepEqual(owner.agreements, [
      { id: agreement.id, name: 'Test AS nettbank', engagements: [first.id, second.id] },
    ]);
    const engaged = (await get(person._links.self.href)).json() as Json;
    assert.deepEqual(engaged.agreements, [
      { id: agreement.id, name: 'Test AS nettbank', engagements: [first.id, second.id] },
    ]);
    const engagement = await t.store.findEngagement(
      TPP_ID,
      agreement.id,
      (await t.store.findCustomer(TPP_ID, { customerNumber: person.customerNumber }))!.id,
      first.id,
    );
    assert.deepEqual(engagement?.roles, ['VIEW', 'REGISTER'], 'the SCA sees the engagement');
  });

  it("refuses a private owner, an account not the owner's, a corporate person, an unknown account, a bad role and a repeated engagement, each at its path", async () => {
    const company = await newCustomer('corporate');
    const person = await newCustomer('private');
    const ownAccount = await newAccount(company.customerNumber);
    const personsAccount = await newAccount(person.customerNumber);
    let response = await post('/v1/sandbox/agreements', {
      owner: company.customerNumber,
      name: 'Bad',
      engagements: [
        { customer: person.customerNumber, account: { iban: personsAccount.iban }, roles: ['VIEW'] },
        { customer: company.customerNumber, account: { iban: ownAccount.iban }, roles: ['VIEW'] },
        { customer: person.customerNumber, account: { bban: nextBban() }, roles: ['VIEW'] },
        { customer: person.customerNumber, account: { iban: ownAccount.iban }, roles: ['SIGN'] },
        { customer: person.customerNumber, account: { bban: ownAccount.bban }, roles: ['VIEW'] },
        { customer: person.customerNumber, account: { iban: ownAccount.iban }, roles: ['REGISTER'] },
        { customer: person.customerNumber, account: {}, roles: [] },
      ],
    });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.deepEqual(pathsOf(response), [
      '$.engagements[0].account',
      '$.engagements[1].customer',
      '$.engagements[2].account.bban',
      '$.engagements[3].roles[0]',
      '$.engagements[5]',
      '$.engagements[6].account',
      '$.engagements[6].roles',
    ]);
    assert.match(textAt(response, '$.engagements[0].account'), /not an account of the agreement's owner/);
    assert.match(textAt(response, '$.engagements[5]'), /repeats the engagement.*\$\.engagements\[4\]/);
    response = await post('/v1/sandbox/agreements', { owner: person.customerNumber, name: 'Private', engagements: [] });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.match(textAt(response, '$.owner'), /private customer/);
    const theirs = await newCustomer('corporate', t.fixtures.otherTpp);
    response = await post('/v1/sandbox/agreements', { owner: theirs.customerNumber, name: 'Theirs', engagements: [] });
    assert.deepEqual(pathsOf(response), ['$.owner']);
  });

  it('refuses an account reference whose iban or bban is not a string with 400 at that field, not 500', async () => {
    const company = await newCustomer('corporate');
    const person = await newCustomer('private');
    for (const account of [
      { iban: 12345 },
      { bban: 90412263056 },
      { iban: null, bban: true },
      { bban: ['x'] },
      { iban: {} },
    ]) {
      const response = await post('/v1/sandbox/agreements', {
        owner: company.customerNumber,
        name: 'Typed',
        engagements: [{ customer: person.customerNumber, account, roles: ['VIEW'] }],
      });
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      for (const field of Object.keys(account))
        assert.match(textAt(response, `$.engagements[0].account.${field}`), /must be a string/);
    }
  });

  it('hides an agreement from another TPP; each TPP has the default agreements and can delete its own copy', async () => {
    const company = await newCustomer('corporate');
    const agreement = created(
      await post('/v1/sandbox/agreements', { owner: company.customerNumber, name: 'Mine', engagements: [] }),
    );
    assertErrorBody(await get(agreement._links.self.href, t.fixtures.otherTpp), 404, 'RESOURCE_UNKNOWN');
    assertErrorBody(await del(agreement._links.self.href, t.fixtures.otherTpp), 404, 'RESOURCE_UNKNOWN');
    const standard = await get('/v1/sandbox/agreements/AGR-18129215603', t.fixtures.otherTpp);
    assert.equal(standard.statusCode, 200, standard.body);
    assert.equal(standard.json().owner, DEFAULT_CUSTOMERS.nordlys.customerNumber);
    assert.equal((await del(agreement._links.self.href)).statusCode, 204);
    assertErrorBody(await get(agreement._links.self.href), 404, 'RESOURCE_UNKNOWN');
    const app = await startTestApp();
    try {
      assert.equal(
        (await app.signed({ method: 'DELETE', url: '/v1/sandbox/agreements/AGR-18129215603' })).statusCode,
        204,
      );
      assertErrorBody(
        await app.signed({ method: 'GET', url: '/v1/sandbox/agreements/AGR-18129215603' }),
        404,
        'RESOURCE_UNKNOWN',
      );
      assert.equal(
        (await app.signed({ method: 'GET', url: '/v1/sandbox/agreements/AGR-18129215603', as: app.fixtures.otherTpp }))
          .statusCode,
        200,
        "the other TPP's stays",
      );
    } finally {
      await app.close();
    }
  });

  it('lets a TPP create an agreement on a default corporate customer, seen only by that TPP', async () => {
    const person = await newCustomer('private');
    const nordlys = (await t.store.findAccount(TPP_ID, { bban: '15062056786' }))!;
    const agreement = created(
      await post('/v1/sandbox/agreements', {
        owner: DEFAULT_CUSTOMERS.nordlys.customerNumber,
        name: 'Extra',
        engagements: [{ customer: person.customerNumber, account: { bban: nordlys.bban }, roles: ['VIEW'] }],
      }),
    );
    const nordlysId = (await t.store.findCustomer(TPP_ID, {
      customerNumber: DEFAULT_CUSTOMERS.nordlys.customerNumber,
    }))!.id;
    const theirNordlysId = (await t.store.findCustomer(OTHER_TPP_ID, {
      customerNumber: DEFAULT_CUSTOMERS.nordlys.customerNumber,
    }))!.id;
    const mine = (await get(`/v1/sandbox/customers/${nordlysId}`)).json() as Json;
    const theirs = (await get(`/v1/sandbox/customers/${theirNordlysId}`, t.fixtures.otherTpp)).json() as Json;
    assert.ok(mine.agreements.some((a: Json) => a.id === agreement.id));
    assert.ok(!theirs.agreements.some((a: Json) => a.id === agreement.id));
  });
});

// ---- Card accounts ----

function cardBody(customerNumber: string, overrides: Json = {}): Json {
  const pan = `525412${'*'.repeat(6)}${String(1000 + (cardCounter++ % 9000))}`;
  return {
    customerNumber,
    maskedPan: pan,
    name: 'Test',
    product: 'Basic Credit',
    currency: 'NOK',
    creditLimit: { currency: 'NOK', amount: 1000 },
    balances: [
      {
        balanceAmount: { currency: 'NOK', amount: 0 },
        balanceType: 'EXPECTED',
        referenceDate: '2020-01-01',
        lastChangeDateTime: '2019-10-14T13:55:45.494Z',
        lastCommittedTransaction: 'test',
      },
      { balanceAmount: { currency: 'NOK', amount: 0 }, balanceType: 'AUTHORISED' },
    ],
    cardId: '1',
    cardIdVNo: '2',
    accountNumber: '123412341234',
    expiry: '2028-01-01',
    status: 'ENABLED',
    ...overrides,
  };
}
let cardCounter = 0;

function cardTransaction(overrides: Json = {}): Json {
  return {
    cardTransactionId: 'test-1',
    terminalId: 'tid',
    bookingDate: today(),
    transactionDate: today(),
    transactionAmount: { currency: 'NOK', amount: 100 },
    originalAmount: { currency: 'SEK', amount: 95.5 },
    merchantCategoryCode: '5411',
    markupFee: { currency: 'NOK', amount: 10 },
    markupFeePercentage: '20',
    cardAcceptorId: '',
    cardAcceptorAddress: {},
    maskedPan: '',
    transactionDetails: '',
    invoiced: '',
    proprietaryBankTransactionCode: '',
    ...overrides,
  };
}

describe('sandbox card accounts', () => {
  it("creates a card account from the platform's body: 201 with its fields, amounts as strings, read back the same", async () => {
    const customer = await newCustomer();
    const body = cardBody(customer.customerNumber, { maskedPan: '1234xxxxxxxx4321' });
    const response = await post('/v1/sandbox/card-accounts', body);
    const card = created(response);
    const self = `/v1/sandbox/card-accounts/${card.id}`;
    assert.deepEqual(card, {
      id: card.id,
      customerNumber: customer.customerNumber,
      maskedPan: '1234xxxxxxxx4321',
      name: 'Test',
      product: 'Basic Credit',
      currency: 'NOK',
      creditLimit: { amount: '1000.00', currency: 'NOK' },
      balances: [
        {
          balanceType: 'expected',
          balanceAmount: { amount: '0.00', currency: 'NOK' },
          referenceDate: '2020-01-01',
          lastChangeDateTime: '2019-10-14T13:55:45.494Z',
          lastCommittedTransaction: 'test',
        },
        { balanceType: 'authorised', balanceAmount: { amount: '0.00', currency: 'NOK' } },
      ],
      cardId: '1',
      cardIdVNo: '2',
      accountNumber: '123412341234',
      expiry: '2028-01-01',
      status: 'ENABLED',
      _links: {
        self: { href: self, verbs: ['GET', 'DELETE'] },
        transactions: { href: `${self}/transactions`, verbs: ['GET', 'POST'] },
      },
    });
    assert.equal(response.headers.location, `${PUBLIC_URL}${self}`);
    assert.deepEqual((await get(self)).json(), card);
    const customerNow = (await get(customer._links.self.href)).json() as Json;
    assert.deepEqual(customerNow.cardAccounts, [card.id]);
  });

  it('refuses a masked card number of another form, a limit in another currency and a 36-character name, each at its path', () =>
    beforeDefaultOf('longer-name', async () => {
      const customer = await newCustomer();
      const response = await post(
        '/v1/sandbox/card-accounts',
        cardBody(customer.customerNumber, {
          maskedPan: '5254123456783241',
          creditLimit: { currency: 'EUR', amount: 1 },
          name: 'N'.repeat(36),
        }),
      );
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      assert.deepEqual(pathsOf(response), ['$.creditLimit.currency', '$.maskedPan', '$.name']);
      assert.match(textAt(response, '$.maskedPan'), /masked card number/);
      const longer = await post(
        '/v1/sandbox/card-accounts',
        cardBody(customer.customerNumber, { name: 'N'.repeat(70) }),
        undefined,
        { 'x-accept-fix': 'longer-name' },
      );
      assert.equal(created(longer).name.length, 70);
    }));

  it("takes a masked card number used before (the platform's scripts give every card 1234xxxxxxxx4321; real ones collide too)", async () => {
    const customer = await newCustomer();
    const other = await newCustomer();
    const body = cardBody(customer.customerNumber, { maskedPan: '1234xxxxxxxx4321' });
    const first = created(await post('/v1/sandbox/card-accounts', body));
    const second = created(await post('/v1/sandbox/card-accounts', body));
    const third = created(await post('/v1/sandbox/card-accounts', { ...body, customerNumber: other.customerNumber }));
    assert.equal(new Set([first.id, second.id, third.id]).size, 3);
    assert.equal(((await get(second._links.self.href)).json() as Json).maskedPan, '1234xxxxxxxx4321');
  });

  it('posts card transactions and lists them in posting order with offset and limit; empty texts are left out', async () => {
    const customer = await newCustomer();
    const card = created(await post('/v1/sandbox/card-accounts', cardBody(customer.customerNumber)));
    const ids = created(
      await post(`${card._links.self.href}/transactions`, [
        cardTransaction(),
        cardTransaction({
          cardTransactionId: 'test-2',
          transactionAmount: { currency: 'NOK', amount: 1000 },
          invoiced: true,
        }),
        cardTransaction({
          cardTransactionId: 'test-3',
          transactionAmount: { currency: 'NOK', amount: '-49.90' },
          cardAcceptorAddress: { city: 'Oslo', country: 'NO' },
        }),
      ]),
    ) as unknown as Json[];
    assert.equal(ids.length, 3);
    const list = (await get(`${card._links.self.href}/transactions`)).json() as Json[];
    assert.deepEqual(
      list.map((x) => x.cardTransactionId),
      ['test-1', 'test-2', 'test-3'],
    );
    assert.deepEqual(list[0], {
      id: ids[0]!.id,
      cardTransactionId: 'test-1',
      terminalId: 'tid',
      transactionDate: today(),
      bookingDate: today(),
      transactionAmount: { amount: '100.00', currency: 'NOK' },
      originalAmount: { amount: '95.50', currency: 'SEK' },
      merchantCategoryCode: '5411',
      markupFee: { amount: '10.00', currency: 'NOK' },
      markupFeePercentage: '20',
      _links: { self: { href: `/v1/sandbox/card-accounts/${card.id}/transactions/${ids[0]!.id}`, verbs: ['GET'] } },
    });
    assert.equal(list[1]!.invoiced, true);
    assert.deepEqual(list[2]!.cardAcceptorAddress, { city: 'Oslo', country: 'NO' });
    assert.equal(list[2]!.transactionAmount.amount, '-49.90');
    const page = (await get(`${card._links.self.href}/transactions?offset=1&limit=1`)).json() as Json[];
    assert.deepEqual(
      page.map((x) => x.cardTransactionId),
      ['test-2'],
    );
    assert.deepEqual((await get(ids[2]!._links.self.href)).json(), list[2]);
    assertErrorBody(await get(`${card._links.self.href}/transactions?limit=0`), 400, 'FORMAT_ERROR');
  });

  it('refuses card transactions with a merchant category code over 70 characters, a future date or an amount in another currency', async () => {
    const customer = await newCustomer();
    const card = created(await post('/v1/sandbox/card-accounts', cardBody(customer.customerNumber)));
    const response = await post(`${card._links.self.href}/transactions`, [
      cardTransaction({ merchantCategoryCode: 'M'.repeat(71) }),
      cardTransaction({ bookingDate: addDays(today(), 1) }),
      cardTransaction({ transactionAmount: { currency: 'EUR', amount: 1 } }),
      cardTransaction({ transactionAmount: { currency: 'NOK', amount: 1.001 } }),
    ]);
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.deepEqual(pathsOf(response), [
      '$[0].merchantCategoryCode',
      '$[1].bookingDate',
      '$[2].transactionAmount.currency',
      '$[3].transactionAmount.amount',
    ]);
  });

  it('hides a card account from another TPP and deletes it with its transactions', async () => {
    const customer = await newCustomer();
    const card = created(await post('/v1/sandbox/card-accounts', cardBody(customer.customerNumber)));
    await post(`${card._links.self.href}/transactions`, [cardTransaction()]);
    for (const response of [
      await get(card._links.self.href, t.fixtures.otherTpp),
      await get(`${card._links.self.href}/transactions`, t.fixtures.otherTpp),
      await post(`${card._links.self.href}/transactions`, [cardTransaction()], t.fixtures.otherTpp),
      await del(card._links.self.href, t.fixtures.otherTpp),
    ]) {
      assertErrorBody(response, 404, 'RESOURCE_UNKNOWN');
      assert.deepEqual(pathsOf(response), ['path:mockCardAccountId']);
    }
    assert.equal((await del(card._links.self.href)).statusCode, 204);
    assertErrorBody(await get(card._links.self.href), 404, 'RESOURCE_UNKNOWN');
  });
});

// ---- Signing and content ----

/** The WARNING tppMessages of a create's answer, as [path, text]. */
function warningsOf(body: Json): [string, string][] {
  const messages = (body.tppMessages ?? []) as { category: string; code: string; path: string; text: string }[];
  for (const m of messages) assert.deepEqual([m.category, m.code], ['WARNING', 'FORMAT_ERROR'], JSON.stringify(m));
  return messages.map((m) => [m.path, m.text]);
}

/** A Norwegian account number whose MOD11 check digit is wrong: the platform's own script gives it to company 88888888. */
const PLATFORM_BAD_MOD11 = { bban: '83204742935', iban: 'NO1383204742935' };
let badMod11Counter = 0;
/** Another account number whose MOD11 check digit is wrong (the check digit of the valid one, plus one). */
function nextBadMod11Bban(): string {
  for (;;) {
    const bban = nextBban();
    const wrong = `${bban.slice(0, 10)}${(Number(bban[10]) + 1 + (badMod11Counter++ % 2)) % 10}`;
    if (wrong !== bban) return wrong;
  }
}

describe('test data the way the platform takes it', () => {
  it('takes a corporate customer number that is not an organisation number (8 digits as 55555555, a wrong MOD11) with a WARNING at $.customerNumber', async () => {
    const stamp = String(Date.now()).slice(-7);
    const org = nextOrganisationNumber();
    const wrongMod11 = `${org.slice(0, 8)}${(Number(org[8]) + 1) % 10}`;
    for (const [customerNumber, reason] of [
      [`8${stamp}`, /it has 8 digits, not 9/],
      [wrongMod11, /its MOD11 check digit is wrong/],
    ] as const) {
      const response = await post('/v1/sandbox/customers', { customerNumber, name: 'Testfirma 1', type: 'corporate' });
      const body = created(response);
      assert.equal(body.customerNumber, customerNumber);
      const warnings = warningsOf(body);
      assert.deepEqual(
        warnings.map(([path]) => path),
        ['$.customerNumber'],
      );
      assert.match(warnings[0]![1], reason);
      assert.match(warnings[0]![1], /not a Norwegian organisation number.*agreements work/);
      const read = (await get(body._links.self.href)).json() as Json;
      assert.equal(read.tppMessages, undefined, 'the warning goes with the create only');
      const { tppMessages: _, ...resource } = body;
      assert.deepEqual(read, resource);
    }
  });

  it('takes an account whose MOD11 check digit is wrong with a WARNING saying payments from it will be refused; it holds transactions, and the payment interface refuses it', async () => {
    const customer = await newCustomer();
    const bban = nextBadMod11Bban();
    const body = created(
      await post('/v1/sandbox/accounts', sandboxAccountBody(customer.customerNumber, { bban, iban: undefined })),
    );
    assert.equal(body.bban, bban);
    assert.equal(body.iban, ibanOf(bban), 'the IBAN is composed with correct ISO 13616 check digits');
    const warnings = warningsOf(body);
    assert.deepEqual(
      warnings.map(([path]) => path),
      ['$.bban'],
    );
    assert.match(
      warnings[0]![1],
      new RegExp(
        `'${bban}' is not a valid Norwegian account number: its MOD11 check digit is wrong \\(it would be \\d, not ${bban[10]}\\)`,
      ),
    );
    assert.match(
      warnings[0]![1],
      /can hold test transactions, but the payment interface .* refuses payments from or to this number/,
    );
    assert.equal((await get(body._links.self.href)).json().tppMessages, undefined);

    const ids = await postTransactions(body, [credit(body), debit(body, { amount: 100 })]);
    assert.deepEqual(
      ids.map((x) => x.tppMessages),
      [undefined, undefined],
      'no warning about the account itself on its transactions',
    );
    assert.equal((await listTransactions(body)).length, 2);

    const payment = crossBorderBody();
    payment.debtorAccount = { bban, currency: 'NOK' };
    const refused = await t.signed({ method: 'POST', url: CROSS_BORDER_PATH, body: payment, headers: createHeaders() });
    assertErrorBody(refused, 400, 'FORMAT_ERROR');
    assert.match(textAt(refused, '$.debtorAccount.bban'), /MOD11 check digit is wrong/);
  });

  it('takes the IBAN of a BBAN that fails MOD11 (one warning, at $.bban), and names the check that failed on a bad IBAN', async () => {
    const customer = await newCustomer();
    const bban = nextBadMod11Bban();
    const body = created(
      await post('/v1/sandbox/accounts', sandboxAccountBody(customer.customerNumber, { bban, iban: ibanOf(bban) })),
    );
    assert.deepEqual(
      warningsOf(body).map(([path]) => path),
      ['$.bban'],
    );

    const good = nextBban();
    const iban = ibanOf(good);
    const wrongDigits = `NO${String((Number(iban.slice(2, 4)) + 1) % 100).padStart(2, '0')}${good}`;
    const response = await post(
      '/v1/sandbox/accounts',
      sandboxAccountBody(customer.customerNumber, { bban: good, iban: wrongDigits }),
    );
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    const text = textAt(response, '$.iban');
    assert.match(
      text,
      new RegExp(`is not a valid IBAN: its check digits ${wrongDigits.slice(2, 4)} are wrong \\(ISO 13616 MOD97\\)`),
    );
    assert.doesNotMatch(text, /country code|length/);
  });

  it('takes purposeCode as plain text on account transactions and any merchant category code on card transactions, read back as given', async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    await postTransactions(account, [
      credit(account, { purposeCode: 'code' }),
      credit(account, { purposeCode: 'SALA' }),
    ]);
    assert.deepEqual(
      (await listTransactions(account)).map((x) => x.purposeCode),
      ['code', 'SALA'],
    );
    const card = created(await post('/v1/sandbox/card-accounts', cardBody(customer.customerNumber)));
    const ids = created(
      await post(`${card._links.self.href}/transactions`, [
        cardTransaction({ merchantCategoryCode: 'BOB' }),
        cardTransaction({ merchantCategoryCode: 'TEST' }),
      ]),
    ) as unknown as Json[];
    assert.equal(ids.length, 2);
    const list = (await get(`${card._links.self.href}/transactions`)).json() as Json[];
    assert.deepEqual(
      list.map((x) => x.merchantCategoryCode),
      ['BOB', 'TEST'],
    );
  });

  it('warns of a counterpart account number that fails MOD11, and takes it', async () => {
    const customer = await newCustomer();
    const account = await newAccount(customer.customerNumber);
    const elsewhere = nextBadMod11Bban();
    const ids = await postTransactions(account, [
      credit(account),
      credit(account, { debtorAccount: { bban: elsewhere } }),
    ]);
    assert.equal(ids[0]!.tppMessages, undefined);
    assert.deepEqual(
      warningsOf(ids[1]!).map(([path]) => path),
      ['$[1].debtorAccount.bban'],
    );
    assert.deepEqual((await listTransactions(account))[1]!.debtorAccount, { iban: ibanOf(elsewhere), bban: elsewhere });
  });

  describe("a setup script in the platform's style", () => {
    /** Every call the script makes, with its status. */
    const calls: { step: string; status: number; body: string }[] = [];
    const step = async (name: string, request: Promise<LightMyRequestResponse>): Promise<Json> => {
      const response = await request;
      calls.push({ step: name, status: response.statusCode, body: response.body });
      return response.body === '' ? {} : (response.json() as Json);
    };
    const day = () => addDays(today(), -2);
    /** The platform's transaction example (init_transactions_for_a_single_account.sh): credits from an account elsewhere, purposeCode "code". */
    const platformCredits = (account: Json) =>
      [1500, 1500, 123].map((amount, i) => ({
        amount,
        currency: 'NOK',
        valueDate: day(),
        bookingDate: day(),
        remittanceInformationUnstructured: ['63444766', '1476074371486', '1476074371486'][i],
        creditorId: String(i + 1),
        creditorName: ['Aftenposten', 'Sognekraft', 'Testperson To'][i],
        creditorAccount: { iban: account.iban, bban: account.bban },
        ultimateCreditor: 'Test',
        debtorName: 'Testperson 2',
        debtorAccount: ELSEWHERE,
        ultimateDebtor: 'test',
        purposeCode: 'code',
        bankTransactionCode: 'PMNT',
      }));
    const platformCardTransactions = () =>
      [
        ['test-1', 100, 'BOB'],
        ['test-2', 1000, 'TEST'],
      ].map(([id, amount, mcc]) => ({
        cardTransactionId: id,
        terminalId: 'tid',
        bookingDate: day(),
        transactionDate: day(),
        transactionAmount: { currency: 'NOK', amount },
        originalAmount: { currency: 'NOK', amount },
        merchantCategoryCode: mcc,
        markupFee: { currency: 'NOK', amount: 10 },
        markupFeePercentage: '20',
        cardAcceptorId: '',
        cardAcceptorAddress: {},
        maskedPan: '',
        transactionDetails: '',
        invoiced: '',
        proprietaryBankTransactionCode: '',
      }));
    const account = (
      customerNumber: string,
      accountName: string,
      bban: string,
      iban: string,
      currency = 'NOK',
      cashAccountType = 'CACC',
    ) => ({
      customerNumber,
      accountName,
      bban,
      iban,
      currency,
      product: accountName,
      cashAccountType,
      creditLine: 0,
      balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount: 10000, currency } }],
    });

    it('runs customers (01078900497, 88888888, 55555555), accounts (four failing MOD11), agreements, account and card transactions: every call 2xx', async (context) => {
      // init_01078900497_private.sh: the quick start, on a fresh server: no number of the default data set is taken.
      await step(
        'customer 01078900497',
        post('/v1/sandbox/customers', { customerNumber: '01078900497', name: 'Test Testperson 1', type: 'private' }),
      );
      const brukskonto = await step(
        'account 90412263056',
        post(
          '/v1/sandbox/accounts',
          account('01078900497', 'Brukskonto', '90412263056', 'NO2390412263056', 'NOK', 'TAXE'),
        ),
      );
      await step(
        'account 90412329715',
        post('/v1/sandbox/accounts', account('01078900497', 'Regningskonto', '90412329715', 'NO6590412329715')),
      );
      await step(
        'account 90522037388',
        post(
          '/v1/sandbox/accounts',
          account('01078900497', 'Sparekonto', '90522037388', 'NO3390522037388', 'NOK', 'SVGS'),
        ),
      );
      await step(
        'account 83960706687',
        post(
          '/v1/sandbox/accounts',
          account('01078900497', 'Valutakonto EUR', '83960706687', 'NO0983960706687', 'EUR'),
        ),
      );
      const card = await step(
        'card account',
        post('/v1/sandbox/card-accounts', cardBody('01078900497', { name: 'Test', expiry: '2020-01-01' })),
      );
      // init_17099233842_corporate.sh: company 88888888, whose account numbers fail MOD11.
      await step(
        'customer 88888888',
        post('/v1/sandbox/customers', { customerNumber: '88888888', name: 'Testfirma 1', type: 'corporate' }),
      );
      const drift = await step(
        'account 83204742935',
        post(
          '/v1/sandbox/accounts',
          account('88888888', 'Driftskonto', PLATFORM_BAD_MOD11.bban, PLATFORM_BAD_MOD11.iban),
        ),
      );
      await step(
        'account 21416137948',
        post('/v1/sandbox/accounts', account('88888888', 'Regningskonto', '21416137948', 'NO0621416137948')),
      );
      await step(
        'account 55347156427',
        post('/v1/sandbox/accounts', account('88888888', 'Valutakonto', '55347156427', 'NO2155347156427', 'EUR')),
      );
      await step(
        'account 13312276846',
        post(
          '/v1/sandbox/accounts',
          account('88888888', 'Skattetrekkskonto', '13312276846', 'NO0513312276846', 'NOK', 'TAXE'),
        ),
      );
      await step(
        'customer 55555555',
        post('/v1/sandbox/customers', { customerNumber: '55555555', name: 'Testfirma 5', type: 'corporate' }),
      );
      // init_agreements_and_engangements_for_a_corporate_customer.sh
      await step(
        'agreement',
        post('/v1/sandbox/agreements', {
          owner: '88888888',
          name: 'Testavtale 1 ',
          engagements: [
            { customer: '01078900497', account: { iban: PLATFORM_BAD_MOD11.iban }, roles: ['VIEW', 'REGISTER'] },
          ],
        }),
      );
      // init_transactions_for_a_single_account.sh and init_transactions_for_a_single_card_account.sh
      await step(
        'transactions 90412263056',
        post(`/v1/sandbox/accounts/${brukskonto.id}/transactions`, platformCredits(brukskonto)),
      );
      await step(
        'transactions 83204742935',
        post(`/v1/sandbox/accounts/${drift.id}/transactions`, platformCredits(drift)),
      );
      await step('card transactions', post(`${card._links.self.href}/transactions`, platformCardTransactions()));

      const answered2xx = calls.filter((c) => c.status >= 200 && c.status < 300).length;
      context.diagnostic(`platform-style script: ${answered2xx} of ${calls.length} calls answered 2xx`);
      assert.deepEqual(
        calls.filter((c) => c.status >= 300).map((c) => `${c.step}: ${c.status} ${c.body}`),
        [],
      );
      assert.equal(answered2xx, 16);
      assert.deepEqual(
        (await listTransactions(brukskonto)).map((x) => [x.amount, x.purposeCode]),
        [
          [1500, 'code'],
          [1500, 'code'],
          [123, 'code'],
        ],
      );
      assert.equal(warningsOf(drift)[0]![0], '$.bban');
    });

    it("gives every customer's card the platform's masked PAN 1234xxxxxxxx4321 (2xx for each)", async (context) => {
      const first = nextFnr();
      const second = nextFnr();
      for (const customerNumber of [first, second])
        created(await post('/v1/sandbox/customers', { customerNumber, name: 'Test', type: 'private' }));
      const answers = [];
      for (const customerNumber of [first, second])
        answers.push(
          await post('/v1/sandbox/card-accounts', cardBody(customerNumber, { maskedPan: '1234xxxxxxxx4321' })),
        );
      context.diagnostic(
        `shared masked PAN: ${answers.filter((r) => r.statusCode === 201).length} of ${answers.length} card accounts answered 201`,
      );
      for (const response of answers) created(response);
    });
  });
});

describe('sandbox requests', () => {
  it('needs a signature and, on creates, a Digest; any PSD2 role will do', async () => {
    assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/sandbox/customers' }), 400, 'HTTP_HEADER_REQUIRED');
    const withoutDigest = await t.signed({
      method: 'POST',
      url: '/v1/sandbox/customers',
      body: { customerNumber: nextFnr(), name: 'X', type: 'private' },
      sign: { digest: false },
    });
    assertErrorBody(withoutDigest, 400, 'HTTP_HEADER_REQUIRED');
    const aisOnly = await post(
      '/v1/sandbox/customers',
      { customerNumber: nextFnr(), name: 'Only AIS', type: 'private' },
      t.fixtures.aisOnly,
    );
    assert.equal(aisOnly.statusCode, 201, aisOnly.body);
  });

  it('documents only the sandbox header set on the sandbox reads, and Digest on the creates', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { in: string; name: string; required?: boolean }[];
            security?: Record<string, string[]>[];
          }
        >
      >;
      components: { securitySchemes: Record<string, { name: string }> };
    };
    // The signature's two headers are required through the operation's security schemes.
    const headers = (path: string, method: string) =>
      [
        ...(document.paths[path]![method]!.parameters ?? [])
          .filter((p) => p.in === 'header')
          .map((p) => `${p.name}${p.required === true ? '' : '?'}`),
        ...Object.keys(document.paths[path]![method]!.security?.[0] ?? {}).map(
          (scheme) => document.components.securitySchemes[scheme]!.name,
        ),
      ].sort();
    const signed = ['Date?', 'Signature', 'TPP-Signature-Certificate', 'X-Request-ID'];
    for (const path of [
      '/v1/sandbox/customers/{customerId}',
      '/v1/sandbox/accounts/{mockAccountId}/transactions',
      '/v1/sandbox/customers',
    ]) {
      assert.deepEqual(headers(path, 'get'), signed, path);
    }
    assert.deepEqual(headers('/v1/sandbox/customers', 'post'), [
      'Date?',
      'Digest',
      'Signature',
      'TPP-Signature-Certificate',
      'X-Request-ID',
      'x-accept-fix?',
    ]);
  });

  it('answers match their OpenAPI schemas', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
    (addFormats as unknown as (a: Ajv) => void)(ajv);
    ajv.addSchema(document as object, 'openapi');
    const validator = (template: string, method: string, status: number): ValidateFunction => {
      const pointer = `openapi#/paths/${template.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${status}/content/application~1json/schema`;
      const validate = ajv.getSchema(pointer);
      assert.ok(validate, `no schema at ${pointer}`);
      return validate;
    };
    const conforms = (template: string, method: string, response: LightMyRequestResponse) => {
      const validate = validator(template, method, response.statusCode);
      assert.equal(
        validate(response.json()),
        true,
        `${method} ${template} ${response.statusCode}: ${JSON.stringify(validate.errors)}\n${response.body}`,
      );
    };
    const customer = await newCustomer('corporate');
    const person = await newCustomer('private');
    conforms(
      '/v1/sandbox/customers',
      'post',
      await post('/v1/sandbox/customers', { customerNumber: nextFnr(), name: 'Schema', type: 'private' }),
    );
    conforms('/v1/sandbox/customers', 'get', await get('/v1/sandbox/customers'));
    conforms('/v1/sandbox/customers/{customerId}', 'get', await get(customer._links.self.href));
    conforms('/v1/sandbox/customers/{customerId}', 'get', await get('/v1/sandbox/customers/enc!!x'));
    const accountResponse = await post('/v1/sandbox/accounts', sandboxAccountBody(customer.customerNumber));
    conforms('/v1/sandbox/accounts', 'post', accountResponse);
    const account = accountResponse.json() as Json;
    conforms(
      '/v1/sandbox/accounts',
      'post',
      await post('/v1/sandbox/accounts', sandboxAccountBody(customer.customerNumber, { cashAccountType: 'X' })),
    );
    conforms('/v1/sandbox/accounts/{mockAccountId}', 'get', await get(account._links.self.href));
    conforms(
      '/v1/sandbox/accounts/{mockAccountId}/transactions',
      'post',
      await post(`${account._links.self.href}/transactions`, [credit(account), debit(account)]),
    );
    conforms(
      '/v1/sandbox/accounts/{mockAccountId}/transactions',
      'get',
      await get(`${account._links.self.href}/transactions`),
    );
    const agreement = await post('/v1/sandbox/agreements', {
      owner: customer.customerNumber,
      name: 'Schema',
      engagements: [{ customer: person.customerNumber, account: { iban: account.iban }, roles: ['VIEW'] }],
    });
    conforms('/v1/sandbox/agreements', 'post', agreement);
    conforms('/v1/sandbox/agreements/{agreementId}', 'get', await get(agreement.json()._links.self.href));
    const card = await post('/v1/sandbox/card-accounts', cardBody(person.customerNumber));
    conforms('/v1/sandbox/card-accounts', 'post', card);
    conforms(
      '/v1/sandbox/card-accounts/{mockCardAccountId}/transactions',
      'post',
      await post(`${card.json()._links.self.href}/transactions`, [cardTransaction()]),
    );
    conforms(
      '/v1/sandbox/card-accounts/{mockCardAccountId}/transactions',
      'get',
      await get(`${card.json()._links.self.href}/transactions`),
    );
  });
});

// ---- Initialize ----

describe('POST /v1/sandbox/initialize', () => {
  it("deletes the TPP's own customers with their data and restores the default data set, keeping payments and other TPPs' data", async () => {
    const app = await startTestApp();
    try {
      const send = (method: string, url: string, body?: unknown, as = app.fixtures.tpp) =>
        app.signed({ method, url, body, as });
      const mine = created(
        await send('POST', '/v1/sandbox/customers', { customerNumber: nextFnr(), name: 'Mine', type: 'private' }),
      );
      const myAccount = created(await send('POST', '/v1/sandbox/accounts', sandboxAccountBody(mine.customerNumber)));
      const theirs = created(
        await send(
          'POST',
          '/v1/sandbox/customers',
          { customerNumber: nextFnr(), name: 'Theirs', type: 'private' },
          app.fixtures.otherTpp,
        ),
      );
      // Changes to the default data set: an account added to Ola, a transaction on his account, an agreement on Nordlys.
      const added = created(
        await send('POST', '/v1/sandbox/accounts', sandboxAccountBody(DEFAULT_CUSTOMERS.ola.customerNumber)),
      );
      const olaAccount = (await app.store.findAccount(TPP_ID, { bban: OLA_ACCOUNTS[0] }))!;
      await send('POST', `/v1/sandbox/accounts/${olaAccount.id}/transactions`, [
        credit({ ...olaAccount, currency: 'NOK' }),
      ]);
      const payment = created(
        await createCrossBorder(app, {
          body: { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } },
        }),
      );
      const olaBefore = (await app.store.findCustomer(TPP_ID, {
        customerNumber: DEFAULT_CUSTOMERS.ola.customerNumber,
      }))!;

      const response = await send('POST', '/v1/sandbox/initialize');
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), {
        deletedCustomers: 1,
        defaultDataSet: {
          customers: Object.values(DEFAULT_CUSTOMERS).map((c) => c.customerNumber),
          accounts: DEFAULT_ACCOUNTS.length,
          agreements: 2,
        },
      });

      assertErrorBody(await send('GET', mine._links.self.href), 404, 'RESOURCE_UNKNOWN');
      assertErrorBody(await send('GET', myAccount._links.self.href), 404, 'RESOURCE_UNKNOWN');
      assert.equal(
        (await send('GET', theirs._links.self.href, undefined, app.fixtures.otherTpp)).statusCode,
        200,
        "another TPP's customer stays",
      );
      assertErrorBody(await send('GET', added._links.self.href), 404, 'RESOURCE_UNKNOWN');
      const olaAfter = (await app.store.findCustomer(TPP_ID, {
        customerNumber: DEFAULT_CUSTOMERS.ola.customerNumber,
      }))!;
      assert.notEqual(olaAfter.id, olaBefore.id, 'the default customers are made afresh');
      const olaRead = (await send('GET', `/v1/sandbox/customers/${olaAfter.id}`)).json() as Json;
      assert.equal(olaRead.accounts.length, DEFAULT_ACCOUNTS.filter((a) => a.owner === 'ola').length);
      const restored = (await app.store.findSandboxAccount(
        TPP_ID,
        (await app.store.findAccount(TPP_ID, { bban: OLA_ACCOUNTS[0] }))!.id,
      ))!;
      assert.equal(restored.balanceMinor, DEFAULT_ACCOUNTS.find((a) => a.bban === OLA_ACCOUNTS[0])!.balance);
      assert.deepEqual((await send('GET', `/v1/sandbox/accounts/${restored.id}/transactions`)).json(), []);
      assert.equal((await send('GET', '/v1/sandbox/agreements/AGR-18129215603')).statusCode, 200);
      assert.equal(
        await app.store.findPsuSession(TPP_ID, PSU_ID),
        undefined,
        'PSU sessions of the removed customers go with them',
      );
      assert.equal((await send('GET', payment._links.self.href)).statusCode, 200, 'payments are kept');
      // Twice in a row is the same.
      assert.equal((await send('POST', '/v1/sandbox/initialize')).json().deletedCustomers, 0);
    } finally {
      await app.close();
    }
  });
});

// ---- Production ----

describe('production mode', () => {
  it('answers every /v1/sandbox route with 404 NOT_FOUND', async () => {
    const production = await startTestApp({ mode: 'production' });
    try {
      for (const [method, url] of [
        ['POST', '/v1/sandbox/customers'],
        ['GET', '/v1/sandbox/customers'],
        ['GET', '/v1/sandbox/customers/enc!!x'],
        ['DELETE', '/v1/sandbox/customers/enc!!x'],
        ['POST', '/v1/sandbox/accounts'],
        ['GET', '/v1/sandbox/accounts/enc!!x'],
        ['DELETE', '/v1/sandbox/accounts/enc!!x'],
        ['POST', '/v1/sandbox/accounts/enc!!x/transactions'],
        ['GET', '/v1/sandbox/accounts/enc!!x/transactions'],
        ['GET', '/v1/sandbox/accounts/enc!!x/transactions/enc!!y'],
        ['POST', '/v1/sandbox/agreements'],
        ['GET', '/v1/sandbox/agreements/x'],
        ['POST', '/v1/sandbox/card-accounts'],
        ['GET', '/v1/sandbox/card-accounts/x'],
        ['POST', '/v1/sandbox/card-accounts/x/transactions'],
        ['GET', '/v1/sandbox/card-accounts/x/transactions'],
        ['POST', '/v1/sandbox/initialize'],
      ] as const) {
        const response = await production.signed({ method, url, ...(method === 'POST' ? { body: {} } : {}) });
        const body = assertErrorBody(response, 404, 'NOT_FOUND');
        assert.match(body.message ?? '', /belongs to the sandbox/, `${method} ${url}`);
      }
      const document = (await production.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
        paths: Record<string, unknown>;
      };
      assert.deepEqual(
        Object.keys(document.paths).filter((p) => p.startsWith('/v1/sandbox/customers')),
        [],
        'production documents no sandbox operation',
      );
    } finally {
      await production.close();
    }
  });
});

// ---- PostgreSQL ----

describe('on PostgreSQL', () => {
  it('creates, lists, pages, deletes and initializes the same way', async () => {
    const database = await createMigratedTestDatabase();
    const store = PostgresStore.open(database.url);
    await store.migrate();
    const pg = await startTestApp({ store });
    try {
      const send = (method: string, url: string, body?: unknown, as = pg.fixtures.tpp) =>
        pg.signed({ method, url, body, as });
      const customer = created(
        await send('POST', '/v1/sandbox/customers', { customerNumber: nextFnr(), name: 'Pg', type: 'private' }),
      );
      assertErrorBody(
        await send('POST', '/v1/sandbox/customers', {
          customerNumber: customer.customerNumber,
          name: 'Pg',
          type: 'private',
        }),
        409,
        'CONFLICT',
      );
      const account = created(
        await send(
          'POST',
          '/v1/sandbox/accounts',
          sandboxAccountBody(customer.customerNumber, {
            balances: [{ balanceType: 'expected', balanceAmount: { amount: 1234.56, currency: 'NOK' } }],
          }),
        ),
      );
      assert.equal((await pg.store.findSandboxAccount(TPP_ID, account.id))!.balanceMinor, 123456n);
      assertErrorBody(
        await send(
          'POST',
          '/v1/sandbox/accounts',
          sandboxAccountBody(customer.customerNumber, { bban: account.bban, iban: account.iban }),
        ),
        409,
        'CONFLICT',
      );
      const day = addDays(osloDate(pg.clock.now()), -1);
      await send(
        'POST',
        `${account._links.self.href}/transactions`,
        Array.from({ length: 12 }, (_, i) =>
          credit(account, { amount: i + 1, ...(i % 2 === 0 ? { bookingDate: day, valueDate: day } : {}) }),
        ),
      );
      const page = (await send('GET', `${account._links.self.href}/transactions?offset=4&limit=3`)).json() as Json[];
      assert.deepEqual(
        page.map((x) => x.amount),
        [5, 6, 7],
      );
      const dated = (
        await send('GET', `${account._links.self.href}/transactions?fromDate=${day}&toDate=${day}&offset=1&limit=2`)
      ).json() as Json[];
      assert.deepEqual(
        dated.map((x) => x.amount),
        [3, 5],
      );
      const card = created(await send('POST', '/v1/sandbox/card-accounts', cardBody(customer.customerNumber)));
      await send('POST', `${card._links.self.href}/transactions`, [
        cardTransaction(),
        cardTransaction({ cardTransactionId: 'b' }),
      ]);
      assert.equal(((await send('GET', `${card._links.self.href}/transactions`)).json() as Json[]).length, 2);
      const company = created(
        await send('POST', '/v1/sandbox/customers', {
          customerNumber: nextOrganisationNumber(),
          name: 'Pg AS',
          type: 'corporate',
        }),
      );
      const companyAccount = created(
        await send('POST', '/v1/sandbox/accounts', sandboxAccountBody(company.customerNumber)),
      );
      created(
        await send('POST', '/v1/sandbox/agreements', {
          owner: company.customerNumber,
          name: 'Pg',
          engagements: [{ customer: customer.customerNumber, account: { iban: companyAccount.iban }, roles: ['VIEW'] }],
        }),
      );
      const read = (await send('GET', customer._links.self.href)).json() as Json;
      assert.equal(read.agreements.length, 1);
      assert.deepEqual(read.cardAccounts, [card.id]);
      assert.equal((await send('DELETE', customer._links.self.href)).statusCode, 204);
      assertErrorBody(await send('GET', account._links.self.href), 404, 'RESOURCE_UNKNOWN');
      const initialized = await send('POST', '/v1/sandbox/initialize');
      assert.equal(initialized.statusCode, 200, initialized.body);
      assert.equal(initialized.json().deletedCustomers, 1);
      assertErrorBody(await send('GET', company._links.self.href), 404, 'RESOURCE_UNKNOWN');
    } finally {
      await pg.close();
      await store.close();
      await database.drop();
    }
  });
});
