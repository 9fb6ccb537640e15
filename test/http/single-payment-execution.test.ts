import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays } from '../../src/domain/clock.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { nextFnr } from '../support/norwegian-numbers.js';
import { type TestDatabase, createMigratedTestDatabase } from '../support/postgres.js';
import { sandboxAccountBody } from '../support/sandbox-bodies.js';
import { signedPayment } from '../support/scenario-steps.js';
import {
  CBCT_PATH,
  NDCT_PATH,
  SEPA_PATH,
  STRAKS_PATH,
  cbctBody,
  ndctBody,
  sepaBody,
} from '../support/single-payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * The SCA and execution of the single payments of issue 30, through the interface a TPP uses: NDCT,
 * SEPA and the general cross-border product are executed by the batch run on their date; Straks is
 * executed within the request that completes the SCA (ACSC, the balance and the booked transaction
 * at once), with the funds checked as the batch run checks them.
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`executing the single payments of every product, on ${engine}`, () => {
    let t: TestApp;
    let database: TestDatabase | undefined;
    let store: Store | undefined;
    before(async () => {
      if (engine === 'postgres') {
        database = await createMigratedTestDatabase();
        store = PostgresStore.open(database.url);
        await store.migrate();
      }
      t = await startTestApp(store === undefined ? {} : { store });
    });
    after(async () => {
      await t.close();
      await store?.close();
      await database?.drop();
    });

    /** A new customer of the sandbox with one account of this balance and currency, made through the test-data API. */
    async function newCustomer(
      amount: number,
      currency = 'NOK',
    ): Promise<{ number: string; id: string; bban: string }> {
      const number = nextFnr();
      const customer = await t.signed({
        method: 'POST',
        url: '/v1/sandbox/customers',
        body: { customerNumber: number, name: `Test ${number}`, type: 'private' },
      });
      assert.equal(customer.statusCode, 201, customer.body);
      const body = sandboxAccountBody(number, {
        currency,
        balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount, currency } }],
      });
      const account = await t.signed({ method: 'POST', url: '/v1/sandbox/accounts', body });
      assert.equal(account.statusCode, 201, account.body);
      return { number, id: account.json().id as string, bban: body.bban as string };
    }

    /** Creates a payment for the customer and approves it on the SCA page; the status read right after. */
    async function approved(path: string, body: unknown, number: string): Promise<{ status: string; read: Status }> {
      const { status: href } = await signedPayment(t, path, body, number);
      return { status: href, read: await status(href) };
    }

    interface Status {
      transactionStatus: string;
      fundsAvailable?: boolean;
      tppMessages?: { text: string }[];
    }
    async function status(href: string): Promise<Status> {
      return (await t.signed({ method: 'GET', url: href })).json();
    }

    async function balance(id: string): Promise<string> {
      return (await t.signed({ method: 'GET', url: `/v1/sandbox/accounts/${id}` })).json().balances[0].balanceAmount
        .amount;
    }

    async function listing(id: string): Promise<[number, string][]> {
      const read = await t.signed({ method: 'GET', url: `/v1/sandbox/accounts/${id}/transactions` });
      assert.equal(read.statusCode, 200, read.body);
      return (read.json() as { amount: number; bankTransactionCode: string }[]).map((x) => [
        x.amount,
        x.bankTransactionCode,
      ]);
    }

    async function clock(): Promise<{ today: string; nextBatchRun: string }> {
      return (await t.signed({ method: 'GET', url: '/v1/sandbox/clock' })).json();
    }

    async function nextBatchRun(): Promise<void> {
      const moved = await t.signed({
        method: 'POST',
        url: '/v1/sandbox/clock',
        body: { to: (await clock()).nextBatchRun },
      });
      assert.equal(moved.statusCode, 200, moved.body);
    }

    it('Straks: ACSC within the request that completes the SCA; the balance and the booked transaction show it at once, with its fee', async () => {
      const debtor = await newCustomer(1000);
      const creditor = await newCustomer(0);
      const body = {
        ...ndctBody(),
        instructedAmount: { amount: '300.00', currency: 'NOK' },
        creditorAccount: { bban: creditor.bban, currency: 'NOK' },
        debtorAccount: { bban: debtor.bban, currency: 'NOK' },
      };
      const { read } = await approved(STRAKS_PATH, body, debtor.number);
      assert.equal(read.transactionStatus, 'ACSC');
      assert.equal(read.fundsAvailable, true);
      // NOK 1 000.00 less NOK 300.00 and the Straks fee of NOK 10.00, with no batch run.
      assert.equal(await balance(debtor.id), '690.00');
      assert.equal(await balance(creditor.id), '300.00');
      assert.deepEqual((await listing(debtor.id)).sort(), [
        [10, 'ACMT-MDOP-CHRG'],
        [300, 'PMNT-ICDT-DMCT'],
      ]);
      assert.deepEqual(await listing(creditor.id), [[300, 'PMNT-RCDT-DMCT']]);
    });

    it('Straks without funds: RJCT within the SCA request with the reason, nothing booked', async () => {
      const debtor = await newCustomer(100);
      const body = {
        ...ndctBody(),
        instructedAmount: { amount: '95.00', currency: 'NOK' },
        debtorAccount: { bban: debtor.bban, currency: 'NOK' },
      };
      const { read } = await approved(STRAKS_PATH, body, debtor.number);
      assert.equal(read.transactionStatus, 'RJCT');
      assert.equal(read.fundsAvailable, false);
      assert.match(read.tppMessages?.[0]?.text ?? '', /insufficient funds/);
      assert.equal(await balance(debtor.id), '100.00');
      assert.deepEqual(await listing(debtor.id), []);
    });

    it('NDCT with a future requestedExecutionDate: PDNG after the SCA, untouched by the runs before its date, executed by the first run on it', async () => {
      const debtor = await newCustomer(5000);
      const date = addDays((await clock()).today, 1);
      const body = {
        ...ndctBody(),
        instructedAmount: { amount: '1200.00', currency: 'NOK' },
        debtorAccount: { bban: debtor.bban, currency: 'NOK' },
        requestedExecutionDate: date,
      };
      const { status: href, read } = await approved(NDCT_PATH, body, debtor.number);
      assert.equal(read.transactionStatus, 'PDNG');
      // Runs pass until its date comes (the rest of today's, if any): it waits; the first run on its date executes it.
      let executedOn: string | undefined;
      for (let run = 0; run < 7 && executedOn === undefined; run++) {
        await nextBatchRun();
        const now = await status(href);
        if (now.transactionStatus === 'ACSC') executedOn = (await clock()).today;
        else assert.equal(now.transactionStatus, 'PDNG', 'not executed before its date');
      }
      assert.equal(executedOn, date);
      assert.equal(await balance(debtor.id), '3800.00', 'free: no fee');
      assert.deepEqual(await listing(debtor.id), [[1200, 'PMNT-ICDT-DMCT']]);
    });

    it('SEPA from a NOK account and the general cross-border product: ACTC after the SCA, ACSC by the batch run, debited at the reference rate with their fees', async () => {
      const debtor = await newCustomer(10000);
      const sepa = await approved(
        SEPA_PATH,
        { ...sepaBody(), debtorAccount: { bban: debtor.bban, currency: 'NOK' } },
        debtor.number,
      );
      const cbct = await approved(
        CBCT_PATH,
        { ...cbctBody(), debtorAccount: { bban: debtor.bban, currency: 'NOK' } },
        debtor.number,
      );
      assert.equal(sepa.read.transactionStatus, 'ACTC');
      assert.equal(cbct.read.transactionStatus, 'ACTC');
      await nextBatchRun();
      assert.equal((await status(sepa.status)).transactionStatus, 'ACSC');
      assert.equal((await status(cbct.status)).transactionStatus, 'ACSC');
      // EUR 100.00 at 11.70 = NOK 1 170.00, fee 15.00 + 25.00; SEK 1 000.00 at 1.02 = NOK 1 020.00, fee 50.00 + 25.00.
      assert.equal(await balance(debtor.id), '7695.00');
      assert.deepEqual(
        (await listing(debtor.id)).sort(),
        [
          [1020, 'PMNT-ICDT-XBCT'],
          [1170, 'PMNT-ICDT-ESCT'],
          [40, 'ACMT-MDOP-CHRG'],
          [75, 'ACMT-MDOP-CHRG'],
        ].sort(),
      );
    });

    it('SEPA from a EUR account: debited in euro, the fee converted from NOK at the reference rate', async () => {
      const debtor = await newCustomer(1000, 'EUR');
      const { status: href } = await approved(
        SEPA_PATH,
        { ...sepaBody(), debtorAccount: { bban: debtor.bban, currency: 'EUR' } },
        debtor.number,
      );
      await nextBatchRun();
      assert.equal((await status(href)).transactionStatus, 'ACSC');
      // EUR 1 000.00 less EUR 100.00 and NOK 15.00 at 11.70 (EUR 1.28).
      assert.equal(await balance(debtor.id), '898.72');
    });
  });
}
