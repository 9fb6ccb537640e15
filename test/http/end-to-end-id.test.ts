import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays } from '../../src/domain/clock.js';
import { type AisCustomer, ELSEWHERE, bankDate, newAisCustomer, nextBatchRun } from '../support/ais-data.js';
import { type ConsentSession, giveConsent, readAis } from '../support/ais-requests.js';
import { createHeaders } from '../support/payment-requests.js';
import { PERIODIC_PATH, periodicBody } from '../support/periodic-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
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
 * Release 1.21.18: the endToEndIdentification of a payment of the products that take it (NDCT,
 * Straks, SEPA, the standing order) is booked with its executed transaction and shown in account
 * information as Berlin Group's `endToEndId`: pending, booked, and each execution of a standing order;
 * a fee booked with it and a product without the field carry none (docs/decisions/0226).
 */
type Json = Record<string, any>;

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`endToEndId in account information (${engine})`, () => {
    let t: TestApp;
    let customer: AisCustomer;
    let session: ConsentSession;
    let account: AisCustomer['accounts'][number];
    before(async () => {
      t = await startTestApp({ engine });
      customer = await newAisCustomer(t, [{ balance: 200000 }]);
      account = customer.accounts[0]!;
      session = await giveConsent(t, { customerNumber: customer.number });
    });
    after(() => t.close());

    /** Creates a payment from the customer's account and has them approve it on the SCA page. */
    async function approved(path: string, body: Record<string, unknown>): Promise<void> {
      const headers = createHeaders({ 'X-PSU-IDENTITY': customer.number, 'PSU-Context': 'PRIVATE' });
      delete headers['PSU-ID'];
      const debtorAccount = { bban: account.bban, currency: 'NOK' };
      const created = await t.signed({ method: 'POST', url: path, body: { ...body, debtorAccount }, headers });
      assert.equal(created.statusCode, 201, created.body);
      const psu = new ScriptedPsu(t.app);
      await psu.open(created.json()._links.scaRedirect.href);
      await psu.logIn(customer.number, '123456');
      await psu.approve();
    }

    async function transactions(bookingStatus: string, dateFrom: string): Promise<Json> {
      const url = `/v1/accounts/${encodeURIComponent(account.id)}/transactions?bookingStatus=${bookingStatus}&dateFrom=${dateFrom}`;
      const response = await readAis(t, url, session);
      assert.equal(response.statusCode, 200, response.body);
      return response.json().transactions as Json;
    }

    /** The entry whose message is `text`. */
    function entry(list: Json[], text: string): Json {
      const found = list.find((x) => x.remittanceInformationUnstructured === text);
      assert.ok(found, `no entry "${text}" in ${JSON.stringify(list)}`);
      return found;
    }

    const domestic = (message: string, endToEnd?: string) => ({
      ...ndctBody(),
      creditorAccount: { bban: ELSEWHERE.bban, currency: 'NOK' },
      remittanceInformationUnstructured: message,
      ...(endToEnd === undefined ? {} : { endToEndIdentification: endToEnd }),
    });

    it('NDCT: pending with its endToEndId after the SCA, booked with it by the batch run; one sent without it has none', async () => {
      const today = await bankDate(t, 0);
      await approved(NDCT_PATH, domestic('NDCT med referanse', 'E2E-NDCT-0001'));
      await approved(NDCT_PATH, domestic('NDCT uten referanse'));
      const pending = (await transactions('pending', today)).pending as Json[];
      assert.equal(entry(pending, 'NDCT med referanse').endToEndId, 'E2E-NDCT-0001');
      assert.equal('endToEndId' in entry(pending, 'NDCT uten referanse'), false);
      await nextBatchRun(t);
      const booked = (await transactions('booked', today)).booked as Json[];
      assert.equal(entry(booked, 'NDCT med referanse').endToEndId, 'E2E-NDCT-0001');
      assert.equal('endToEndId' in entry(booked, 'NDCT uten referanse'), false);
    });

    it('Straks: booked at its SCA with its endToEndId; its fee, booked beside it, carries none', async () => {
      const today = await bankDate(t, 0);
      await approved(STRAKS_PATH, domestic('Straks med referanse', 'E2E-STRAKS-01'));
      const booked = (await transactions('booked', today)).booked as Json[];
      const debit = entry(booked, 'Straks med referanse');
      assert.equal(debit.endToEndId, 'E2E-STRAKS-01');
      const fees = booked.filter((x) => x.bankTransactionCode === 'ACMT-MDOP-CHRG');
      assert.ok(fees.length > 0, JSON.stringify(booked));
      for (const fee of fees) assert.equal('endToEndId' in fee, false);
    });

    it('SEPA: booked by the batch run with its endToEndId; the general cross-border product, which has no such field, with none', async () => {
      const today = await bankDate(t, 0);
      await approved(SEPA_PATH, {
        ...sepaBody(),
        remittanceInformationUnstructured: 'SEPA med referanse',
        endToEndIdentification: 'E2E-SEPA-0001',
      });
      await approved(CBCT_PATH, { ...cbctBody(), remittanceInformationUnstructured: 'Utland uten felt' });
      await nextBatchRun(t);
      const booked = (await transactions('booked', today)).booked as Json[];
      assert.equal(entry(booked, 'SEPA med referanse').endToEndId, 'E2E-SEPA-0001');
      assert.equal('endToEndId' in entry(booked, 'Utland uten felt'), false);
    });

    it("a standing order: each execution booked with the order's endToEndId", async () => {
      const today = await bankDate(t, 0);
      const startDate = addDays(today, 1);
      await approved(PERIODIC_PATH, {
        ...periodicBody({ startDate, frequency: 'Daily', dayOfExecution: undefined }),
        creditorAccount: { bban: ELSEWHERE.bban, currency: 'NOK' },
        instructedAmount: { amount: '10.00', currency: 'NOK' },
        remittanceInformationUnstructured: 'Fast trekk',
        endToEndIdentification: 'E2E-STO-0001',
      });
      // Ten days hold two bank days whatever the start: Christmas and Easter close the bank for up to five.
      const moved = await t.signed({ method: 'POST', url: '/v1/sandbox/clock', body: { advanceSeconds: 10 * 86_400 } });
      assert.equal(moved.statusCode, 200, moved.body);
      const booked = ((await transactions('booked', today)).booked as Json[]).filter(
        (x) => x.remittanceInformationUnstructured === 'Fast trekk',
      );
      assert.ok(booked.length >= 2, JSON.stringify(booked));
      for (const execution of booked) {
        assert.equal(execution.endToEndId, 'E2E-STO-0001');
        assert.equal(execution.bankTransactionCode, 'PMNT-ICDT-STDO');
      }
    });
  });
}
