import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { type TestDatabase, createMigratedTestDatabase } from '../support/postgres.js';
import {
  BULK_PATH,
  CROSS_BORDER_PATH,
  SE_IBAN,
  bulkBody,
  bulkEntry,
  crossBorderBody,
} from '../support/payment-requests.js';
import { newCustomer, nextBatchRun, signedPayment } from '../support/scenario-steps.js';
import { type TestApp, startTestApp } from '../support/test-app.js';
import { TPP_ID } from '../support/tpp-fixtures.js';

/**
 * The ledger and the batch run, through the interface a TPP uses: payments are created and signed,
 * the sandbox clock is moved to the next batch time, and the payments execute: debits, credits,
 * transactions, ACSC; without funds RJCT with fundsAvailable false and the reason; a bulk in part PART.
 */
const OLA = { number: '13039319955', current: '15061012343', savings: '15061012351' };
const KARI = { number: '12085592767', current: '15061012378' };

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`executing payments in the batch run, on ${engine}`, () => {
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

    async function status(
      href: string,
    ): Promise<{ transactionStatus: string; fundsAvailable?: boolean; tppMessages?: { text: string }[] }> {
      // The status and its funds check; the answer's paymentId and links are tested in payment-reads.test.ts.
      const { transactionStatus, fundsAvailable, tppMessages } = (await t.signed({ method: 'GET', url: href })).json();
      return {
        transactionStatus,
        ...(fundsAvailable === undefined ? {} : { fundsAvailable }),
        ...(tppMessages === undefined ? {} : { tppMessages }),
      };
    }

    async function balance(bban: string): Promise<bigint> {
      return (await t.store.findAccount(TPP_ID, { bban }))!.balanceMinor;
    }

    async function accountBalance(id: string): Promise<string> {
      const read = await t.signed({ method: 'GET', url: `/v1/sandbox/accounts/${id}` });
      assert.equal(read.statusCode, 200, read.body);
      return read.json().balances[0].balanceAmount.amount;
    }

    /**
     * The account's transactions from the listing (endpoint 5): the amount as a TPP posts it (units of the
     * currency, positive), the side the account is on (debtor: a debit; creditor: a credit) and the bank
     * transaction code.
     */
    async function listing(id: string): Promise<[number, string, string][]> {
      const account = (await t.signed({ method: 'GET', url: `/v1/sandbox/accounts/${id}` })).json() as { iban: string };
      const read = await t.signed({ method: 'GET', url: `/v1/sandbox/accounts/${id}/transactions` });
      assert.equal(read.statusCode, 200, read.body);
      type Row = {
        amount: number;
        bankTransactionCode: string;
        debtorAccount: { iban: string };
        creditorAccount: { iban: string };
      };
      return (read.json() as Row[]).map((x) => [
        x.amount,
        x.debtorAccount.iban === account.iban
          ? 'debtor'
          : x.creditorAccount.iban === account.iban
            ? 'creditor'
            : 'neither',
        x.bankTransactionCode,
      ]);
    }

    it('end to end from a new customer with two new accounts: cross-border and bulk execute, ACSC, new balances, transactions listed', async () => {
      const {
        number,
        accounts: [current, savings],
      } = await newCustomer(t, [20000, 5000]);
      const cross = crossBorderBody();
      cross.instructedAmount = { amount: '1000.00', currency: 'EUR' };
      cross.creditorAccount = { iban: SE_IBAN, currency: 'EUR' };
      cross.debtorAccount = { bban: current!.bban, currency: 'NOK' };
      const crossPayment = await signedPayment(t, CROSS_BORDER_PATH, cross, number);
      const bulk = bulkBody(2);
      bulk.debtorAccount = { bban: current!.bban, currency: 'NOK' };
      (bulk.payments as Record<string, unknown>[])[0] = {
        ...bulkEntry(0),
        instructedAmount: { amount: '2000.00', currency: 'NOK' },
        creditorAccount: { bban: savings!.bban, currency: 'NOK' },
      };
      (bulk.payments as Record<string, unknown>[])[1] = {
        ...bulkEntry(1),
        instructedAmount: { amount: '500.00', currency: 'NOK' },
      };
      const bulkPayment = await signedPayment(t, BULK_PATH, bulk, number);

      await nextBatchRun(t);

      assert.deepEqual(await status(crossPayment.status), { transactionStatus: 'ACSC', fundsAvailable: true });
      assert.deepEqual(await status(bulkPayment.status), { transactionStatus: 'ACSC', fundsAvailable: true });
      // NOK 20 000.00 less EUR 1 000.00 at 11.70 (11 700.00), its fee 100.00 + 0.25 % conversion (29.25), and the bulk's 2 500.00.
      assert.equal(await accountBalance(current!.id), '5670.75');
      assert.equal(await accountBalance(savings!.id), '7000.00');
      // Booked as a TPP posts test transactions: the amount in NOK, positive; the account as debtor on a debit, as creditor on a credit.
      assert.deepEqual(
        (await listing(current!.id)).sort(),
        [
          [11_700, 'debtor', 'PMNT-ICDT-XBCT'],
          [2_000, 'debtor', 'PMNT-ICDT-DMCT'],
          [500, 'debtor', 'PMNT-ICDT-DMCT'],
          [129.25, 'debtor', 'ACMT-MDOP-CHRG'],
        ].sort(),
      );
      assert.deepEqual(await listing(savings!.id), [[2_000, 'creditor', 'PMNT-RCDT-DMCT']]);
    });

    it('end to end from a new customer whose account holds too little: RJCT with the reason, nothing booked', async () => {
      const {
        number,
        accounts: [account],
      } = await newCustomer(t, [400]);
      const bulk = bulkBody(1);
      bulk.debtorAccount = { bban: account!.bban, currency: 'NOK' };
      (bulk.payments as Record<string, unknown>[])[0] = {
        ...bulkEntry(0),
        instructedAmount: { amount: '400.01', currency: 'NOK' },
      };
      const payment = await signedPayment(t, BULK_PATH, bulk, number);
      await nextBatchRun(t);
      const read = await status(payment.status);
      assert.equal(read.transactionStatus, 'RJCT');
      assert.equal(read.fundsAvailable, false);
      assert.match(read.tppMessages?.[0]?.text ?? '', /insufficient funds/);
      assert.equal(await accountBalance(account!.id), '400.00');
      assert.deepEqual(await listing(account!.id), []);
    });

    it('executes a signed bulk and a cross-border payment at the next batch time: debits, credits, fees, ACSC', async () => {
      const olaBefore = await balance(OLA.current);
      const savingsBefore = await balance(OLA.savings);
      const kariBefore = await balance(KARI.current);
      const bulk = bulkBody(2);
      bulk.debtorAccount = { bban: OLA.current, currency: 'NOK' };
      (bulk.payments as Record<string, unknown>[])[0] = {
        ...bulkEntry(0),
        instructedAmount: { amount: '1000.50', currency: 'NOK' },
        creditorAccount: { bban: KARI.current, currency: 'NOK' },
      };
      (bulk.payments as Record<string, unknown>[])[1] = {
        ...bulkEntry(1),
        instructedAmount: { amount: '500.00', currency: 'NOK' },
      };
      const bulkPayment = await signedPayment(t, BULK_PATH, bulk, OLA.number);
      const cross = crossBorderBody();
      cross.instructedAmount = { amount: '1000.00', currency: 'EUR' };
      cross.creditorAccount = { iban: SE_IBAN, currency: 'EUR' };
      cross.debtorAccount = { bban: OLA.savings, currency: 'NOK' };
      const crossPayment = await signedPayment(t, CROSS_BORDER_PATH, cross, OLA.number);
      assert.equal((await status(bulkPayment.status)).transactionStatus, 'ACTC');

      const runs = await nextBatchRun(t);
      assert.ok(runs.reduce((sum, r) => sum + r.executed, 0) >= 2, JSON.stringify(runs));

      assert.deepEqual(await status(bulkPayment.status), { transactionStatus: 'ACSC', fundsAvailable: true });
      assert.deepEqual(await status(crossPayment.status), { transactionStatus: 'ACSC', fundsAvailable: true });
      assert.equal(await balance(OLA.current), olaBefore - 150_050n, 'NOK 1 500.50 debited for the bulk (no fee)');
      assert.equal(
        await balance(KARI.current),
        kariBefore + 100_050n,
        'NOK 1 000.50 credited to the creditor account in this bank',
      );
      // EUR 1 000.00 at 11.70 is NOK 11 700.00; fee NOK 100.00 plus conversion 0.25 % (29.25, at least 25.00): NOK 11 829.25.
      assert.equal(await balance(OLA.savings), savingsBefore - 1_182_925n);
    });

    it('rejects a payment the account cannot cover: RJCT, fundsAvailable false, and why, never a server fault', async () => {
      const kariBefore = await balance(KARI.current);
      const bulk = bulkBody(1);
      bulk.debtorAccount = { bban: KARI.current, currency: 'NOK' };
      (bulk.payments as Record<string, unknown>[])[0] = {
        ...bulkEntry(0),
        instructedAmount: { amount: `${Number(kariBefore / 100n) + 5_001}.00`, currency: 'NOK' },
      };
      const payment = await signedPayment(t, BULK_PATH, bulk, KARI.number);
      await nextBatchRun(t);
      const read = await status(payment.status);
      assert.equal(read.transactionStatus, 'RJCT');
      assert.equal(read.fundsAvailable, false);
      assert.match(read.tppMessages?.[0]?.text ?? '', /insufficient funds/);
      assert.equal(await balance(KARI.current), kariBefore);
    });

    it('executes a bulk entry by entry: PART when the account covers some entries and not the others', async () => {
      const kariBefore = await balance(KARI.current);
      const available = kariBefore + 500_000n;
      const half = available / 100n / 2n + 1n;
      const bulk = bulkBody(2);
      bulk.debtorAccount = { bban: KARI.current, currency: 'NOK' };
      for (const i of [0, 1])
        (bulk.payments as Record<string, unknown>[])[i] = {
          ...bulkEntry(i),
          instructedAmount: { amount: `${half}.00`, currency: 'NOK' },
        };
      const payment = await signedPayment(t, BULK_PATH, bulk, KARI.number);
      await nextBatchRun(t);
      const read = await status(payment.status);
      assert.equal(read.transactionStatus, 'PART');
      assert.equal(read.fundsAvailable, true);
      assert.equal(await balance(KARI.current), kariBefore - half * 100n);
    });

    it('never overdraws an account: of ten payments more than it can cover, only those it covers execute', async () => {
      const kariBefore = await balance(KARI.current);
      const available = kariBefore + 500_000n;
      const each = (available / 5n / 100n) * 100n;
      for (let i = 0; i < 10; i++) {
        const bulk = bulkBody(1);
        bulk.debtorAccount = { bban: KARI.current, currency: 'NOK' };
        (bulk.payments as Record<string, unknown>[])[0] = {
          ...bulkEntry(i),
          instructedAmount: { amount: `${each / 100n}.00`, currency: 'NOK' },
        };
        await signedPayment(t, BULK_PATH, bulk, KARI.number);
      }
      const runs = await Promise.all([t.runner.runNow(TPP_ID), t.runner.runNow(TPP_ID)]);
      const executed = runs.reduce((sum, r) => sum + r.executed, 0);
      assert.equal(executed, 5, JSON.stringify(runs));
      assert.equal(
        runs.reduce((sum, r) => sum + r.rejected, 0),
        5,
      );
      const after = await balance(KARI.current);
      assert.equal(after, kariBefore - 5n * each);
      assert.ok(after >= -500_000n, 'within the credit line');
    });
  });
}
