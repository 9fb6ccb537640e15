import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays, osloDate, startOfOsloDay } from '../../src/domain/clock.js';
import { type AisCustomer, ELSEWHERE, bankDate, newAisCustomer } from '../support/ais-data.js';
import { createHeaders } from '../support/payment-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { NDCT_PATH, ndctBody } from '../support/single-payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * A clock move runs every batch slot it passes, however far it goes (docs/batch.md): a payment due
 * tomorrow is booked tomorrow, not in the last week of a 100-day move, as it was when a move reached
 * back no further than a server that was down does (a week). Slots before anything is due are
 * skipped, so the move's runs are the days with something to execute.
 */
type Json = Record<string, any>;

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`a long clock move (${engine})`, () => {
    let t: TestApp;
    let customer: AisCustomer;
    before(async () => {
      t = await startTestApp({ engine });
      customer = await newAisCustomer(t, [{ balance: 200000 }]);
    });
    after(() => t.close());

    async function approved(body: Record<string, unknown>): Promise<string> {
      const headers = createHeaders({ 'X-PSU-IDENTITY': customer.number, 'PSU-Context': 'PRIVATE' });
      delete headers['PSU-ID'];
      const debtorAccount = { bban: customer.accounts[0]!.bban, currency: 'NOK' };
      const created = await t.signed({ method: 'POST', url: NDCT_PATH, body: { ...body, debtorAccount }, headers });
      assert.equal(created.statusCode, 201, created.body);
      const psu = new ScriptedPsu(t.app);
      await psu.open(created.json()._links.scaRedirect.href);
      await psu.logIn(customer.number, '123456');
      await psu.approve();
      return created.json().paymentId as string;
    }

    it('books a payment on the first batch run after its SCA and one dated 40 days ahead on its date, over a move of 100 days', async () => {
      const today = await bankDate(t, 0);
      const later = addDays(today, 40);
      const base = { ...ndctBody(), creditorAccount: { bban: ELSEWHERE.bban, currency: 'NOK' } };
      await approved({ ...base, remittanceInformationUnstructured: 'Betalt i dag' });
      await approved({
        ...base,
        remittanceInformationUnstructured: 'Betalt om 40 dager',
        requestedExecutionDate: later,
      });
      const clockBefore = (await t.signed({ method: 'GET', url: '/v1/sandbox/clock' })).json() as Json;
      const firstRun = osloDate(new Date(clockBefore.nextBatchRun));

      const moved = await t.signed({
        method: 'POST',
        url: '/v1/sandbox/clock',
        body: { advanceSeconds: 100 * 86_400 },
      });
      assert.equal(moved.statusCode, 200, moved.body);
      const runs = (moved.json() as Json).batchRuns as { slot: string; executed: number }[];
      // Two runs did something; slots with nothing due were skipped, not run (500 slots in 100 days).
      assert.deepEqual(
        runs.filter((r) => r.executed > 0).map((r) => osloDate(new Date(r.slot))),
        [firstRun, later <= firstRun ? firstRun : osloDateOfFirstSlotOn(later, runs)],
      );
      assert.ok(runs.length <= 5 * 2, `runs: ${runs.length} (${runs.map((r) => r.slot).join(', ')})`);

      const read = await t.signed({
        method: 'GET',
        url: `/v1/sandbox/accounts/${encodeURIComponent(customer.accounts[0]!.id)}/transactions`,
      });
      assert.equal(read.statusCode, 200, read.body);
      const booked = (read.json() as Json[]).filter((x) => typeof x.remittanceInformationUnstructured === 'string');
      if (process.env.SHOW) console.log(JSON.stringify(booked.slice(0, 2)));
      const dateOf = (text: string) => booked.find((x) => x.remittanceInformationUnstructured === text)?.bookingDate;
      assert.equal(dateOf('Betalt i dag'), firstRun, JSON.stringify(booked));
      assert.equal(dateOf('Betalt om 40 dager') >= later, true, JSON.stringify(booked));
      assert.equal(
        dateOf('Betalt om 40 dager') <= addDays(later, 3),
        true,
        'booked on its date or the next banking day',
      );
    });

    it('a move of 30 days runs a batch slot only on the days a standing order of the bank executes', async () => {
      const moved = await t.signed({ method: 'POST', url: '/v1/sandbox/clock', body: { advanceSeconds: 30 * 86_400 } });
      assert.equal(moved.statusCode, 200, moved.body);
      const answer = moved.json() as Json;
      const orderDays = new Set(
        (answer.standingOrders as { slot: string }[]).map((r) => r.slot.replace('periodic:', '')),
      );
      const runDays = (answer.batchRuns as { slot: string }[]).map((r) => osloDate(new Date(r.slot)));
      assert.ok(
        runDays.length <= orderDays.size,
        `runs on ${runDays.join(', ')}; orders on ${[...orderDays].join(', ')}`,
      );
      for (const day of runDays) assert.ok(orderDays.has(day), `a run on ${day}, when no standing order executed`);
    });
  });
}

/** The date of the run that executed the payment dated `date`: on that date or the first banking day after. */
function osloDateOfFirstSlotOn(date: string, runs: { slot: string; executed: number }[]): string {
  const on = runs.find((r) => r.executed > 0 && new Date(r.slot).getTime() >= startOfOsloDay(date).getTime());
  return on === undefined ? date : osloDate(new Date(on.slot));
}
