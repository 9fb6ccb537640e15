import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/test-app.js';
import {
  BULK,
  ELSEWHERE,
  NDCT,
  STRAKS,
  balanceOf,
  bulkOf,
  domesticBody,
  bankNow,
  moveClockTo,
  newCustomer,
  nextBatchRun,
  pathsOf,
  reasonOf,
  signedPayment,
  statusOf,
} from '../support/scenario-steps.js';
import { OTHER_TPP_ID } from '../support/tpp-fixtures.js';
import { giveConsent, readAis } from '../support/ais-requests.js';
import { nextBban } from '../support/norwegian-numbers.js';
import { PERIODIC_PATH, periodicBody } from '../support/periodic-requests.js';

/**
 * The scenarios that are the bank's own data (docs/scenarios.md), driven as a TPP's test drives them:
 * setup through the test-data API (an account's status, a customer's payment limit), a payment
 * created and signed, the clock moved to the batch run, the status read. Each rejection's
 * statusReason starts with its ISO 20022 code; nothing is booked of what the bank rejects.
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`scenarios from the bank's data, on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ engine });
    });
    after(() => t.close());

    async function setStatus(accountId: string, status: string) {
      const patched = await t.signed({ method: 'PATCH', url: `/v1/sandbox/accounts/${accountId}`, body: { status } });
      assert.equal(patched.statusCode, 200, patched.body);
      return patched.json();
    }

    it('no funds: RJCT "AM04 insufficient funds …" at the batch run, fundsAvailable false', async () => {
      const psu = await newCustomer(t, [50]);
      const payment = await signedPayment(t, NDCT, domesticBody(psu.accounts[0]!.bban, ELSEWHERE, '50.01'), psu.number);
      await nextBatchRun(t);
      const answer = await statusOf(t, payment.status);
      assert.deepEqual([answer.transactionStatus, answer.fundsAvailable], ['RJCT', false]);
      assert.match((await reasonOf(t, payment.status)) ?? '', /^AM04 insufficient funds: /);
    });

    it('a blocked debtor account: RJCT "AC06 …" at the batch run, nothing debited', async () => {
      const ola = await newCustomer(t, [5000]);
      assert.equal((await setStatus(ola.accounts[0]!.id, 'blocked')).status, 'blocked');
      const payment = await signedPayment(
        t,
        NDCT,
        domesticBody(ola.accounts[0]!.bban, ELSEWHERE, '100.00'),
        ola.number,
      );
      await nextBatchRun(t);
      assert.equal((await statusOf(t, payment.status)).transactionStatus, 'RJCT');
      assert.equal(await reasonOf(t, payment.status), `AC06 the debtor account ${ola.accounts[0]!.bban} is blocked`);
      assert.equal(await balanceOf(t, ola.accounts[0]!.id), '5000.00');
    });

    it('a closed (deleted) debtor account, status given at create: RJCT "AC04 …"; a Straks payment at its SCA', async () => {
      const customer = await newCustomer(t, []);
      const body = {
        customerNumber: customer.number,
        accountName: 'Lukket',
        bban: nextBban(),
        currency: 'NOK',
        product: 'Brukskonto',
        cashAccountType: 'CACC',
        balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount: 1000, currency: 'NOK' } }],
        status: 'DELETED',
      };
      const account = await t.signed({ method: 'POST', url: '/v1/sandbox/accounts', body });
      assert.equal(account.statusCode, 201, account.body);
      assert.equal(account.json().status, 'deleted');
      const straks = await signedPayment(t, STRAKS, domesticBody(body.bban, ELSEWHERE, '10.00'), customer.number);
      assert.equal((await statusOf(t, straks.status)).transactionStatus, 'RJCT', 'executed (rejected) at its SCA');
      assert.equal(await reasonOf(t, straks.status), `AC04 the debtor account ${body.bban} is closed`);
    });

    it('a blocked or closed creditor account of the bank: RJCT "AC06 …" and "AC04 …"; enabled again, it is paid', async () => {
      const payer = await newCustomer(t, [5000]);
      const payee = await newCustomer(t, [0, 0, 0]);
      const [blocked, closed, open] = payee.accounts as [
        (typeof payee.accounts)[0],
        (typeof payee.accounts)[0],
        (typeof payee.accounts)[0],
      ];
      await setStatus(blocked.id, 'blocked');
      await setStatus(closed.id, 'deleted');
      await setStatus(open.id, 'blocked');
      await setStatus(open.id, 'enabled');
      const from = payer.accounts[0]!.bban;
      const toBlocked = await signedPayment(t, NDCT, domesticBody(from, blocked.bban, '100.00'), payer.number);
      const toClosed = await signedPayment(t, NDCT, domesticBody(from, closed.bban, '100.00'), payer.number);
      const toOpen = await signedPayment(t, NDCT, domesticBody(from, open.bban, '100.00'), payer.number);
      await nextBatchRun(t);
      assert.equal(await reasonOf(t, toBlocked.status), `AC06 the creditor account ${blocked.bban} is blocked`);
      assert.equal(await reasonOf(t, toClosed.status), `AC04 the creditor account ${closed.bban} is closed`);
      assert.equal((await statusOf(t, toOpen.status)).transactionStatus, 'ACSC');
      assert.deepEqual(
        [await balanceOf(t, payer.accounts[0]!.id), await balanceOf(t, open.id), await balanceOf(t, blocked.id)],
        ['4900.00', '100.00', '0.00'],
      );
    });

    it('an account number of the bank\'s registration number (1506) that no account has: RJCT "AC01 … does not exist"', async () => {
      const payer = await newCustomer(t, [5000]);
      const unknown = '15069999996';
      const payment = await signedPayment(
        t,
        NDCT,
        domesticBody(payer.accounts[0]!.bban, unknown, '100.00'),
        payer.number,
      );
      const elsewhere = await signedPayment(
        t,
        NDCT,
        domesticBody(payer.accounts[0]!.bban, ELSEWHERE, '100.00'),
        payer.number,
      );
      await nextBatchRun(t);
      assert.equal(await reasonOf(t, payment.status), `AC01 the creditor account ${unknown} does not exist`);
      assert.equal((await statusOf(t, elsewhere.status)).transactionStatus, 'ACSC', 'another bank: it leaves this one');
    });

    it('a payment over the PSU\'s limit: RJCT "AM02 …"; one at the limit executes; PATCH changes and removes the limit', async () => {
      const psu = await newCustomer(t, [5000], { paymentLimit: '500.00' });
      const read = await t.signed({ method: 'GET', url: `/v1/sandbox/customers/${psu.id}` });
      assert.equal(read.json().paymentLimit, '500.00');
      const from = psu.accounts[0]!.bban;
      const over = await signedPayment(t, NDCT, domesticBody(from, ELSEWHERE, '500.01'), psu.number);
      const at = await signedPayment(t, NDCT, domesticBody(from, ELSEWHERE, '500.00'), psu.number);
      await nextBatchRun(t);
      assert.equal(
        await reasonOf(t, over.status),
        "AM02 the amount, NOK 500.01, exceeds the PSU's limit of NOK 500.00",
      );
      assert.equal((await statusOf(t, at.status)).transactionStatus, 'ACSC');

      const lowered = await t.signed({
        method: 'PATCH',
        url: `/v1/sandbox/customers/${psu.id}`,
        body: { paymentLimit: 100 },
      });
      assert.equal(lowered.statusCode, 200, lowered.body);
      assert.equal(lowered.json().paymentLimit, '100.00');
      const again = await signedPayment(t, NDCT, domesticBody(from, ELSEWHERE, '200.00'), psu.number);
      await nextBatchRun(t);
      assert.match((await reasonOf(t, again.status)) ?? '', /^AM02 /);

      const removed = await t.signed({
        method: 'PATCH',
        url: `/v1/sandbox/customers/${psu.id}`,
        body: { paymentLimit: null },
      });
      assert.equal(removed.json().paymentLimit, undefined);
      const free = await signedPayment(t, NDCT, domesticBody(from, ELSEWHERE, '900.00'), psu.number);
      await nextBatchRun(t);
      assert.equal((await statusOf(t, free.status)).transactionStatus, 'ACSC');
    });

    it("a bulk executed in part: PART, and each entry's status readable with its own reason", async () => {
      const psu = await newCustomer(t, [1000], { paymentLimit: '800.00' });
      const bulk = await signedPayment(
        t,
        BULK,
        bulkOf(psu.accounts[0]!.bban, [
          { to: ELSEWHERE, amount: '600.00' },
          { to: '15069999996', amount: '100.00' },
          { to: ELSEWHERE, amount: '900.00' },
          { to: ELSEWHERE, amount: '300.00' },
          { to: ELSEWHERE, amount: '400.00' },
        ]),
        psu.number,
      );
      assert.equal((await statusOf(t, bulk.status)).entries, undefined, 'no entries before the run');
      const runs = await nextBatchRun(t);
      assert.equal(
        runs.reduce((n, r) => n + r.partial, 0),
        1,
      );
      const answer = await statusOf(t, bulk.status);
      assert.equal(answer.transactionStatus, 'PART');
      assert.equal(answer.fundsAvailable, true);
      assert.deepEqual(
        answer.entries?.map((e) => [e.transactionStatus, e.statusReason?.slice(0, 4)]),
        [
          ['ACSC', undefined],
          ['RJCT', 'AC01'],
          ['RJCT', 'AM02'],
          ['ACSC', undefined],
          ['RJCT', 'AM04'],
        ],
      );
      assert.match(answer.tppMessages?.[0]?.text ?? '', /^entries were rejected for 3 reasons/);
      assert.equal(await balanceOf(t, psu.accounts[0]!.id), '100.00');
    });

    it('a standing order from a blocked account: its execution is rejected "AC06 …" on its day, and the order runs on', async () => {
      const psu = await newCustomer(t, [5000]);
      const today = (await bankNow(t)).toISOString().slice(0, 10);
      const start = new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10);
      const order = await signedPayment(
        t,
        PERIODIC_PATH,
        periodicBody({
          instructedAmount: { amount: '100.00', currency: 'NOK' },
          debtorAccount: { bban: psu.accounts[0]!.bban, currency: 'NOK' },
          startDate: start,
          dayOfExecution: undefined,
          frequency: 'Daily',
        }),
        psu.number,
      );
      await setStatus(psu.accounts[0]!.id, 'blocked');
      // A week on: the first execution may follow a weekend or Easter's five days without a bank day.
      await moveClockTo(t, new Date(Date.parse(start) + 7 * 86_400_000));
      const read = (await t.signed({ method: 'GET', url: order.status })).json();
      assert.equal(read.transactionStatus, 'ACTC', 'the order runs on');
      assert.deepEqual(
        [read.executions[0].transactionStatus, read.executions[0].statusReason],
        ['RJCT', `AC06 the debtor account ${psu.accounts[0]!.bban} is blocked`],
      );
      assert.equal(await balanceOf(t, psu.accounts[0]!.id), '5000.00');
    });

    it("shows the account's status in account information (Berlin Group's accountStatus)", async () => {
      const ola = (await t.signed({ method: 'GET', url: '/v1/sandbox/customers' }))
        .json()
        .find((c: { customerNumber: string }) => c.customerNumber === '13039319955');
      await setStatus(ola.accounts[1], 'blocked');
      const accounts = await readAis(t, '/v1/accounts', await giveConsent(t));
      assert.equal(accounts.statusCode, 200, accounts.body);
      const statuses = accounts.json().accounts.map((a: { bban: string; status: string }) => [a.bban, a.status]);
      assert.deepEqual(statuses, [
        ['15061012343', 'enabled'],
        ['15061012351', 'blocked'],
      ]);
      await setStatus(ola.accounts[1], 'enabled');
    });

    it('refuses a status or a limit that cannot be, at its path, and an account or customer of another TPP with 404', async () => {
      const mine = await newCustomer(t, [0]);
      const badStatus = await t.signed({
        method: 'PATCH',
        url: `/v1/sandbox/accounts/${mine.accounts[0]!.id}`,
        body: { status: 'frozen' },
      });
      assert.equal(badStatus.statusCode, 400, badStatus.body);
      assert.deepEqual(pathsOf(badStatus), ['$.status']);
      const noField = await t.signed({
        method: 'PATCH',
        url: `/v1/sandbox/accounts/${mine.accounts[0]!.id}`,
        body: {},
      });
      assert.equal(noField.statusCode, 400, noField.body);
      for (const paymentLimit of ['-1', 0, '10.001', 'much']) {
        const badLimit = await t.signed({
          method: 'PATCH',
          url: `/v1/sandbox/customers/${mine.id}`,
          body: { paymentLimit },
        });
        assert.equal(badLimit.statusCode, 400, `${paymentLimit}: ${badLimit.body}`);
        assert.deepEqual(pathsOf(badLimit), ['$.paymentLimit'], String(paymentLimit));
      }
      const atCreate = await t.signed({
        method: 'POST',
        url: '/v1/sandbox/customers',
        body: { customerNumber: '01078900497', name: 'X', type: 'private', paymentLimit: -5 },
      });
      assert.equal(atCreate.statusCode, 400, atCreate.body);
      assert.deepEqual(pathsOf(atCreate), ['$.paymentLimit']);
      const other = await newCustomerOf(OTHER_TPP_ID);
      const foreignAccount = await t.signed({
        method: 'PATCH',
        url: `/v1/sandbox/accounts/${other.account}`,
        body: { status: 'blocked' },
      });
      assert.equal(foreignAccount.statusCode, 404, foreignAccount.body);
      const foreignCustomer = await t.signed({
        method: 'PATCH',
        url: `/v1/sandbox/customers/${other.customer}`,
        body: { paymentLimit: 1 },
      });
      assert.equal(foreignCustomer.statusCode, 404, foreignCustomer.body);
    });

    /** A default customer and account of the other TPP's bank, by id. */
    async function newCustomerOf(tppId: string): Promise<{ customer: string; account: string }> {
      const customer = (await t.store.findCustomer(t.banks.of(tppId), { customerNumber: '13039319955' }))!;
      const account = (await t.store.findAccount(t.banks.of(tppId), { bban: '15061012343' }))!;
      return { customer: customer.id, account: account.id };
    }
  });
}
