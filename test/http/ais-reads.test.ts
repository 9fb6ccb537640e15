import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ConsentSession, giveConsent, readAis } from '../support/ais-requests.js';
import {
  type AisCustomer,
  ELSEWHERE,
  approvedBulk,
  bankDate,
  newAisCustomer,
  nextBatchRun,
  postCardTransactions,
  postTransactions,
} from '../support/ais-data.js';
import { nextBban, nextOrganisationNumber } from '../support/norwegian-numbers.js';
import { acceptedFixes } from '../../src/domain/accept-fix.js';
import { SANDBOX_BANK_BIC } from '../../src/domain/bank.js';
import { PROPRIETARY_TRANSACTION_CODES as CODES } from '../../src/domain/proprietary-transaction-code.js';
import { bulkBody, bulkEntry } from '../support/payment-requests.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * The account-information reads (docs/ais.md): exactly what the TPP's sandbox bank holds, in the
 * Berlin Group shapes with string amounts: accounts, balances given at creation and moved by executed
 * payments, transactions posted and booked by the batch run, booked and pending, card accounts.
 */
type Json = Record<string, any>;

/**
 * Whether a published change (src/domain/accept-fix.ts) is in force on the bank's date, as the server
 * decides it: from its default date every read has its form, and these tests run on the real clock.
 */
const inForce = async (t: TestApp, fix: string): Promise<boolean> =>
  acceptedFixes(undefined, await bankDate(t, 0)).active.has(fix);

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`account-information reads (${engine})`, () => {
    let t: TestApp;
    let customer: AisCustomer;
    let session: ConsentSession;
    let main: AisCustomer['accounts'][number];
    let savings: AisCustomer['accounts'][number];
    before(async () => {
      t = await startTestApp({ engine });
      customer = await newAisCustomer(
        t,
        [
          { balance: 20000, creditLine: 1000 },
          { balance: 5000, name: 'Sparekonto', cashAccountType: 'SVGS' },
        ],
        1,
      );
      [main, savings] = customer.accounts as [typeof main, typeof main];
      session = await giveConsent(t, { customerNumber: customer.number });
    });
    after(() => t.close());

    const read = async (url: string): Promise<Json> => {
      const response = await readAis(t, url, session);
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      return response.json() as Json;
    };

    it("lists the accounts the PSU shared as Berlin Group AccountDetails, with the bank's bic and links to self, balances and transactions, in the list and the read", async () => {
      const { accounts } = await read('/v1/accounts');
      const isoTypes = await inForce(t, 'cash-account-type-iso');
      assert.deepEqual(
        accounts,
        [main, savings]
          .map((a, i) => ({
            resourceId: a.id,
            iban: a.iban,
            bban: a.bban,
            currency: 'NOK',
            name: i === 0 ? 'Brukskonto' : 'Sparekonto',
            product: 'Brukskonto',
            cashAccountType: isoTypes ? ['CACC', 'SVGS'][i] : ['Current', 'Savings'][i],
            status: 'enabled',
            bic: SANDBOX_BANK_BIC,
            usage: 'PRIV',
            ownerName: `Test ${customer.number}`,
            _links: {
              self: { href: `/v1/accounts/${encodeURIComponent(a.id)}`, verbs: ['GET'] },
              balances: { href: `/v1/accounts/${encodeURIComponent(a.id)}/balances`, verbs: ['GET'] },
              transactions: {
                href: `/v1/accounts/${encodeURIComponent(a.id)}/transactions?bookingStatus=both`,
                verbs: ['GET'],
              },
            },
          }))
          .sort((x, y) => x.bban.localeCompare(y.bban)),
      );
      const withBalance = await read('/v1/accounts?withBalance=true');
      assert.ok(withBalance.accounts.every((a: Json) => Array.isArray(a.balances) && a.balances.length === 3));
      const one = await read(`/v1/accounts/${encodeURIComponent(main.id)}`);
      assert.equal(one.account.balances, undefined);
      const listed = accounts.find((a: Json) => a.resourceId === main.id) as Json;
      assert.deepEqual(one.account, listed, 'the read is the list entry');
    });

    it('reads the balance given at creation as strings: interimBooked, expected, and interimAvailable with the credit line; _links.self', async () => {
      const body = await read(`/v1/accounts/${encodeURIComponent(savings.id)}/balances`);
      const today = await bankDate(t, 0);
      assert.deepEqual(body, {
        account: { iban: savings.iban, bban: savings.bban, currency: 'NOK' },
        balances: [
          { balanceType: 'interimBooked', balanceAmount: { amount: '5000.00', currency: 'NOK' }, referenceDate: today },
          { balanceType: 'expected', balanceAmount: { amount: '5000.00', currency: 'NOK' }, referenceDate: today },
          {
            balanceType: 'interimAvailable',
            balanceAmount: { amount: '5000.00', currency: 'NOK' },
            creditLimitIncluded: true,
            referenceDate: today,
          },
        ],
        _links: { self: { href: `/v1/accounts/${encodeURIComponent(savings.id)}/balances`, verbs: ['GET'] } },
      });
    });

    it('shows an authorised payment as pending and in the expected balance, then as booked once the batch run executed it, with the booked balance moved', async () => {
      const bulk = bulkBody(2);
      bulk.debtorAccount = { bban: main.bban, currency: 'NOK' };
      (bulk.payments as Json[])[0] = {
        ...bulkEntry(0),
        instructedAmount: { amount: '2000.00', currency: 'NOK' },
        creditorAccount: { bban: savings.bban, currency: 'NOK' },
        remittanceInformationUnstructured: 'Til sparing',
      };
      (bulk.payments as Json[])[1] = {
        ...bulkEntry(1),
        instructedAmount: { amount: '500.00', currency: 'NOK' },
        creditorAccount: { bban: ELSEWHERE.bban, currency: 'NOK' },
        remittanceInformationUnstructured: 'Strøm',
      };
      await approvedBulk(t, customer.number, bulk);

      const today = await bankDate(t, 0);
      const pending = await read(
        `/v1/accounts/${encodeURIComponent(main.id)}/transactions?bookingStatus=pending&dateFrom=${today}`,
      );
      assert.deepEqual(
        pending.transactions.pending.map((p: Json) => [
          p.transactionAmount.amount,
          p.creditorAccount.bban,
          p.remittanceInformationUnstructured,
        ]),
        [
          ['-2000.00', savings.bban, 'Til sparing'],
          ['-500.00', ELSEWHERE.bban, 'Strøm'],
        ],
      );
      assert.equal(pending.transactions.booked, undefined);
      assert.deepEqual(
        pending.transactions.pending.map((p: Json) => [
          p.bookingDate,
          p.valueDate,
          p.proprietaryBankTransactionCode,
          p.remittanceInformationUnstructuredArray,
        ]),
        [
          [today, undefined, CODES.domesticPayment, ['Til sparing']],
          [today, undefined, CODES.domesticPayment, ['Strøm']],
        ],
        "pending entries as the platform's: the day they are to be booked as bookingDate, no valueDate",
      );
      const before = (await read(`/v1/accounts/${encodeURIComponent(main.id)}/balances`)).balances;
      assert.deepEqual(
        before.map((b: Json) => [b.balanceType, b.balanceAmount.amount]),
        [
          ['interimBooked', '20000.00'],
          ['expected', '17500.00'],
          ['interimAvailable', '18500.00'],
        ],
      );

      await nextBatchRun(t);

      const after = (await read(`/v1/accounts/${encodeURIComponent(main.id)}/balances`)).balances;
      assert.deepEqual(
        after.map((b: Json) => [b.balanceType, b.balanceAmount.amount]),
        [
          ['interimBooked', '17500.00'],
          ['expected', '17500.00'],
          ['interimAvailable', '18500.00'],
        ],
      );
      const bookingDate = await bankDate(t, 0);
      const both = await read(
        `/v1/accounts/${encodeURIComponent(main.id)}/transactions?bookingStatus=both&dateFrom=${bookingDate}`,
      );
      assert.deepEqual(both.transactions.pending, []);
      assert.deepEqual(
        both.transactions.booked.map((b: Json) => [
          b.transactionAmount.amount,
          b.bookingDate,
          b.creditorAccount.bban,
          b.bankTransactionCode,
          b.proprietaryBankTransactionCode,
        ]),
        [
          ['-2000.00', bookingDate, savings.bban, 'PMNT-ICDT-DMCT', CODES.domesticPayment],
          ['-500.00', bookingDate, ELSEWHERE.bban, 'PMNT-ICDT-DMCT', CODES.domesticPayment],
        ],
      );
      const credited = await read(
        `/v1/accounts/${encodeURIComponent(savings.id)}/transactions?bookingStatus=booked&dateFrom=${bookingDate}`,
      );
      assert.deepEqual(
        credited.transactions.booked.map((b: Json) => [
          b.transactionAmount.amount,
          b.debtorAccount.bban,
          b.bankTransactionCode,
          b.proprietaryBankTransactionCode,
        ]),
        [['2000.00', main.bban, 'PMNT-RCDT-DMCT', CODES.domesticCredit]],
      );
      assert.equal(
        (await read(`/v1/accounts/${encodeURIComponent(savings.id)}/balances`)).balances[0].balanceAmount.amount,
        '7000.00',
      );
    });

    it('lists posted transactions in booking-date order with stable ids, a debit negative whatever sign it was posted with', async () => {
      const [d1, d2, d3] = [await bankDate(t, -30), await bankDate(t, -20), await bankDate(t, -10)];
      const ids = await postTransactions(t, savings, [
        { amount: 300, bookingDate: d3, remittance: 'third' },
        { amount: -120.5, bookingDate: d1, remittance: 'first' },
        { amount: 80, bookingDate: d2, remittance: 'second' },
      ]);
      const url = `/v1/accounts/${encodeURIComponent(savings.id)}/transactions?bookingStatus=booked&dateFrom=${d1}&dateTo=${d3}`;
      const first = await read(url);
      const booked = first.transactions.booked as Json[];
      assert.deepEqual(
        booked.map((b) => [b.remittanceInformationUnstructured, b.transactionAmount.amount, b.bookingDate]),
        [
          ['first', '-120.50', d1],
          ['second', '80.00', d2],
          ['third', '300.00', d3],
        ],
      );
      assert.deepEqual(
        booked.map((b) => b.transactionId),
        [ids[1], ids[2], ids[0]],
      );
      assert.deepEqual(booked[0], {
        transactionId: ids[1],
        bookingDate: d1,
        valueDate: d1,
        transactionAmount: { amount: '-120.50', currency: 'NOK' },
        creditorName: 'Sognekraft AS',
        creditorAccount: ELSEWHERE,
        debtorName: 'Test Person',
        debtorAccount: { iban: savings.iban, bban: savings.bban },
        remittanceInformationUnstructured: 'first',
        remittanceInformationUnstructuredArray: ['first'],
        purposeCode: 'OTHR',
        // A code that is no ISO Domain-Family-SubFamily is left out once bank-transaction-code-iso is in force.
        ...((await inForce(t, 'bank-transaction-code-iso')) ? {} : { bankTransactionCode: 'PMNT' }),
        proprietaryBankTransactionCode: CODES.other,
        _links: {
          transactionDetails: {
            href: `/v1/accounts/${encodeURIComponent(savings.id)}/transactions/${encodeURIComponent(ids[1]!)}`,
            verbs: ['GET'],
          },
        },
      });
      assert.deepEqual(first.transactions._links, {
        self: {
          href: `/v1/accounts/${encodeURIComponent(savings.id)}/transactions?bookingStatus=booked&dateFrom=${d1}&dateTo=${d3}`,
          verbs: ['GET'],
        },
        account: { href: `/v1/accounts/${encodeURIComponent(savings.id)}`, verbs: ['GET'] },
      });
      assert.deepEqual(
        (await read(url)).transactions.booked.map((b: Json) => b.transactionId),
        booked.map((b) => b.transactionId),
        'the same ids on every read',
      );
      const detail = await read(booked[1]!._links.transactionDetails.href);
      assert.deepEqual(detail, { transactionsDetails: booked[1] });
    });

    it('pages with limit and _links.next (keyset): each transaction once, in order; one posted meanwhile behind the cursor is not seen, one after it is', async () => {
      const [earlier, day] = [await bankDate(t, -6), await bankDate(t, -5)];
      await postTransactions(
        t,
        main,
        Array.from({ length: 25 }, (_, i) => ({ amount: i + 1, bookingDate: day, remittance: `page ${i + 1}` })),
      );
      let url: string | undefined =
        `/v1/accounts/${encodeURIComponent(main.id)}/transactions?bookingStatus=booked&dateFrom=${earlier}&dateTo=${day}&limit=10`;
      const seen: string[] = [];
      let pages = 0;
      while (url !== undefined) {
        const page: Json = await read(url);
        assert.equal(page.transactions._links.self.href, url, "a page's self is the page as asked for");
        seen.push(...page.transactions.booked.map((b: Json) => b.remittanceInformationUnstructured));
        url = page.transactions._links.next?.href;
        pages += 1;
        if (pages === 1)
          await postTransactions(t, main, [
            { amount: 99, bookingDate: earlier, remittance: 'behind the cursor' },
            { amount: 98, bookingDate: day, remittance: 'after the cursor' },
          ]);
      }
      assert.equal(pages, 3);
      assert.deepEqual(seen, [...Array.from({ length: 25 }, (_, i) => `page ${i + 1}`), 'after the cursor']);
    });

    it('gives booked only for booked, pending only for pending, both for both, and adds an empty information list for all', async () => {
      const base = `/v1/accounts/${encodeURIComponent(savings.id)}/transactions?dateFrom=${await bankDate(t, -1)}&bookingStatus=`;
      assert.deepEqual(Object.keys((await read(`${base}booked`)).transactions).sort(), ['_links', 'booked']);
      assert.deepEqual(Object.keys((await read(`${base}pending`)).transactions).sort(), ['_links', 'pending']);
      assert.deepEqual(Object.keys((await read(`${base}both`)).transactions).sort(), ['_links', 'booked', 'pending']);
      assert.deepEqual(Object.keys((await read(`${base}all`)).transactions).sort(), [
        '_links',
        'booked',
        'information',
        'pending',
      ]);
    });

    it('reads the card accounts shared: details, the balances given at creation, and their transactions', async () => {
      const card = customer.cards[0]!;
      const [day1, day2] = [await bankDate(t, -3), await bankDate(t, -2)];
      const ids = await postCardTransactions(t, card.id, [
        { bookingDate: day2, amount: -100, original: { amount: -95.5, currency: 'SEK' } },
        { bookingDate: day1, amount: -42 },
      ]);
      const list = await read('/v1/card-accounts');
      assert.deepEqual(list.cardAccounts, [
        {
          resourceId: card.id,
          maskedPan: card.maskedPan,
          currency: 'NOK',
          name: 'Gullkort',
          product: 'Basic Credit',
          status: 'enabled',
          usage: 'PRIV',
          ownerName: `Test ${customer.number}`,
          creditLimit: { amount: '15000.00', currency: 'NOK' },
          _links: {
            self: { href: `/v1/card-accounts/${encodeURIComponent(card.id)}`, verbs: ['GET'] },
            balances: { href: `/v1/card-accounts/${encodeURIComponent(card.id)}/balances`, verbs: ['GET'] },
            transactions: {
              href: `/v1/card-accounts/${encodeURIComponent(card.id)}/transactions?bookingStatus=both`,
              verbs: ['GET'],
            },
          },
        },
      ]);
      assert.deepEqual(
        (await read(`/v1/card-accounts/${encodeURIComponent(card.id)}`)).cardAccount,
        list.cardAccounts[0],
      );
      assert.deepEqual(await read(`/v1/card-accounts/${encodeURIComponent(card.id)}/balances`), {
        cardAccount: { maskedPan: card.maskedPan, currency: 'NOK' },
        balances: [{ balanceType: 'interimBooked', balanceAmount: { amount: '-1234.50', currency: 'NOK' } }],
        _links: { self: { href: `/v1/card-accounts/${encodeURIComponent(card.id)}/balances`, verbs: ['GET'] } },
      });
      const transactions = await read(
        `/v1/card-accounts/${encodeURIComponent(card.id)}/transactions?bookingStatus=both&dateFrom=${day1}`,
      );
      assert.deepEqual(transactions.cardAccount, { maskedPan: card.maskedPan, currency: 'NOK' });
      assert.deepEqual(
        transactions.cardTransactions.booked.map((b: Json) => [
          b.cardTransactionId,
          b.bookingDate,
          b.transactionAmount.amount,
          b.originalAmount?.amount,
          b.proprietaryBankTransactionCode,
        ]),
        [
          ['card-1', day1, '-42.00', undefined, CODES.cardPurchase],
          ['card-0', day2, '-100.00', '-95.50', CODES.cardPurchase],
        ],
        'a card transaction posted without a code of its own is a card purchase',
      );
      assert.deepEqual(transactions.cardTransactions.pending, []);
      assert.deepEqual(transactions.cardTransactions._links, {
        self: {
          href: `/v1/card-accounts/${encodeURIComponent(card.id)}/transactions?bookingStatus=both&dateFrom=${day1}`,
          verbs: ['GET'],
        },
        cardAccount: { href: `/v1/card-accounts/${encodeURIComponent(card.id)}`, verbs: ['GET'] },
      });
      assert.equal(ids.length, 2);
    });
  });
}

describe('account-information reads: what is refused', () => {
  let t: TestApp;
  let customer: AisCustomer;
  let session: ConsentSession;
  let url: string;
  before(async () => {
    t = await startTestApp();
    customer = await newAisCustomer(t, [{ balance: 100 }, { balance: 200 }]);
    session = await giveConsent(t, { customerNumber: customer.number, choose: (all) => [all[0]!] });
    url = `/v1/accounts/${encodeURIComponent(customer.accounts[0]!.id)}/transactions`;
  });
  after(() => t.close());

  it('refuses a bookingStatus outside booked, pending, both and all with 400 FORMAT_ERROR at query:bookingStatus', async () => {
    for (const status of ['foo', 'information', 'BOOKED']) {
      const body = assertErrorBody(
        await readAis(t, `${url}?bookingStatus=${status}&dateFrom=2026-01-01`, session),
        400,
        'FORMAT_ERROR',
      );
      assert.equal(body.tppMessages![0]!.path, 'query:bookingStatus', status);
    }
  });

  it('requires bookingStatus and dateFrom (Berlin Group): 400 QUERY_PARAMETER_REQUIRED naming each', async () => {
    const body = assertErrorBody(await readAis(t, url, session), 400, 'QUERY_PARAMETER_REQUIRED');
    assert.deepEqual(body.tppMessages!.map((m) => m.path).sort(), ['query:bookingStatus', 'query:dateFrom']);
  });

  it('refuses a dateFrom that is no date, a dateTo before dateFrom, limits outside 1 to 1000 and a cursor it did not give, each at its query parameter', async () => {
    const cases: [string, string][] = [
      ['bookingStatus=booked&dateFrom=2026-02-30', 'query:dateFrom'],
      ['bookingStatus=booked&dateFrom=yesterday', 'query:dateFrom'],
      ['bookingStatus=booked&dateFrom=2026-05-01&dateTo=2026-04-30', 'query:dateTo'],
      ['bookingStatus=booked&dateFrom=2026-01-01&limit=0', 'query:limit'],
      ['bookingStatus=booked&dateFrom=2026-01-01&limit=1001', 'query:limit'],
      ['bookingStatus=booked&dateFrom=2026-01-01&limit=99999999999999999999', 'query:limit'],
      ['bookingStatus=booked&dateFrom=2026-01-01&cursor=abc', 'query:cursor'],
      ['bookingStatus=booked&dateFrom=2026-01-01&cursor=2026-02-30.4', 'query:cursor'],
      ['bookingStatus=booked&dateFrom=2026-01-01&cursor=2026-01-01.99999999999', 'query:cursor'],
      ['bookingStatus=booked&dateFrom=2026-01-01&withBalance=maybe', 'query:withBalance'],
    ];
    for (const [query, path] of cases) {
      const body = assertErrorBody(await readAis(t, `${url}?${query}`, session), 400, 'FORMAT_ERROR');
      assert.equal(body.tppMessages![0]!.path, path, query);
    }
  });

  it('answers an account the PSU did not share, or that does not exist, with 404 RESOURCE_UNKNOWN at path:accountId', async () => {
    for (const id of [customer.accounts[1]!.id, 'enc!!nothing', '%00']) {
      const body = assertErrorBody(
        await readAis(t, `/v1/accounts/${encodeURIComponent(id)}/balances`, session),
        404,
        'RESOURCE_UNKNOWN',
      );
      assert.equal(body.tppMessages![0]!.path, 'path:accountId');
    }
    assertErrorBody(await readAis(t, '/v1/card-accounts/enc!!nothing', session), 404, 'RESOURCE_UNKNOWN');
  });

  it("answers another account's transaction id with 404 RESOURCE_UNKNOWN at path:transactionId", async () => {
    const [other] = await postTransactions(t, customer.accounts[1]!, [
      { amount: 5, bookingDate: await bankDate(t, 0) },
    ]);
    const body = assertErrorBody(
      await readAis(t, `${url}/${encodeURIComponent(other!)}`, session),
      404,
      'RESOURCE_UNKNOWN',
    );
    assert.equal(body.tppMessages![0]!.path, 'path:transactionId');
  });

  it('hides an account the PSU no longer holds: deleted from the sandbox, it is 404 and gone from the list', async () => {
    const other = await newAisCustomer(t, [{ balance: 1 }]);
    const theirs = await giveConsent(t, { customerNumber: other.number });
    assert.equal((await readAis(t, '/v1/accounts', theirs)).json().accounts.length, 1);
    assert.equal(
      (await t.signed({ method: 'DELETE', url: `/v1/sandbox/accounts/${other.accounts[0]!.id}` })).statusCode,
      204,
    );
    assert.deepEqual((await readAis(t, '/v1/accounts', theirs)).json().accounts, []);
    assertErrorBody(
      await readAis(t, `/v1/accounts/${encodeURIComponent(other.accounts[0]!.id)}`, theirs),
      404,
      'RESOURCE_UNKNOWN',
    );
  });
});

describe('account-information reads: corporate agreements', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("lets a person acting for a company share and read only the agreement's accounts they have VIEW on, as long as they have it", async () => {
    const company = nextOrganisationNumber();
    assert.equal(
      (
        await t.signed({
          method: 'POST',
          url: '/v1/sandbox/customers',
          body: { customerNumber: company, name: 'Fjellet AS', type: 'corporate' },
        })
      ).statusCode,
      201,
    );
    const accounts: { id: string; bban: string }[] = [];
    for (const name of ['Drift', 'Lønn', 'Skatt']) {
      const bban = nextBban();
      const response = await t.signed({
        method: 'POST',
        url: '/v1/sandbox/accounts',
        body: {
          customerNumber: company,
          accountName: name,
          bban,
          currency: 'NOK',
          product: 'Bedriftskonto',
          cashAccountType: 'CACC',
          balances: [],
        },
      });
      assert.equal(response.statusCode, 201, response.body);
      accounts.push({ id: response.json().id, bban });
    }
    const person = await newAisCustomer(t, [{ balance: 1 }]);
    const agreement = await t.signed({
      method: 'POST',
      url: '/v1/sandbox/agreements',
      body: {
        owner: company,
        name: 'Fjellet AS nettbank',
        engagements: [
          { customer: person.number, account: { bban: accounts[0]!.bban }, roles: ['VIEW', 'REGISTER'] },
          { customer: person.number, account: { bban: accounts[1]!.bban }, roles: ['REGISTER'] },
          { customer: person.number, account: { bban: accounts[2]!.bban }, roles: ['VIEW'] },
        ],
      },
    });
    assert.equal(agreement.statusCode, 201, agreement.body);
    const agreementId = agreement.json().id as string;

    let offered: string[] = [];
    const session = await giveConsent(t, {
      customerNumber: person.number,
      headers: { 'PSU-Context': 'CORPORATE', 'PSU-Corporate-ID': agreementId },
      choose: (all) => (offered = all),
    });
    assert.deepEqual(
      new Set(offered),
      new Set([accounts[0]!.id, accounts[2]!.id]),
      'the page offers the accounts with VIEW only',
    );
    const list = (await readAis(t, '/v1/accounts', session)).json() as { accounts: Json[] };
    assert.deepEqual(list.accounts.map((a) => a.bban).sort(), [accounts[0]!.bban, accounts[2]!.bban].sort());
    assert.ok(list.accounts.every((a) => a.usage === 'ORGA' && a.ownerName === 'Fjellet AS'));
    assert.deepEqual(
      (await readAis(t, '/v1/card-accounts', session)).json().cardAccounts,
      [],
      'a card account is no account of an agreement',
    );
    assertErrorBody(
      await readAis(t, `/v1/accounts/${encodeURIComponent(accounts[1]!.id)}`, session),
      404,
      'RESOURCE_UNKNOWN',
    );

    assert.equal((await t.signed({ method: 'DELETE', url: `/v1/sandbox/agreements/${agreementId}` })).statusCode, 204);
    assert.deepEqual(
      (await readAis(t, '/v1/accounts', session)).json().accounts,
      [],
      'without the engagement the person views nothing',
    );
  });
});
