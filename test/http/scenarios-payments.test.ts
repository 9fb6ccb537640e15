import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { giveConsent, readAis } from '../support/ais-requests.js';
import {
  ELSEWHERE,
  NDCT,
  STRAKS,
  arm,
  armRefused,
  balanceOf,
  bankNow,
  domesticBody,
  moveClockTo,
  newCustomer,
  nextBatchRun,
  pathsOf,
  reasonOf,
  signedPayment,
  statusOf,
} from '../support/scenario-steps.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The payment scenarios a TPP's test arms (POST /v1/sandbox/scenarios, docs/scenarios.md), each
 * driven end to end: armed, a payment created and signed, the bank's clock moved through its batch
 * runs, the status read at each step. What a held payment finally does is what any payment does.
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`payment scenarios, on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ engine });
    });
    after(() => t.close());

    it('payment-pending, then ACSC: PDNG at the batch run, nothing booked, executed at the first run at or after `until`', async () => {
      const psu = await newCustomer(t, [1000]);
      const from = psu.accounts[0]!;
      const until = new Date((await bankNow(t)).getTime() + 2 * DAY);
      const armed = await arm(t, {
        kind: 'payment-pending',
        match: { debtorAccount: { bban: from.bban } },
        until: until.toISOString(),
        then: 'ACSC',
      });
      assert.deepEqual(
        [armed.kind, armed.until, armed.then, armed.timesLeft],
        ['payment-pending', until.toISOString(), 'ACSC', 1],
      );
      const payment = await signedPayment(t, NDCT, domesticBody(from.bban, ELSEWHERE, '100.00'), psu.number);
      await nextBatchRun(t);
      assert.equal((await statusOf(t, payment.status)).transactionStatus, 'PDNG');
      assert.equal(await balanceOf(t, from.id), '1000.00');
      assert.deepEqual((await t.signed({ method: 'GET', url: '/v1/sandbox/scenarios' })).json(), [], 'spent');

      // Account information shows it pending until then.
      const session = await giveConsent(t, { customerNumber: psu.number });
      const today = (await bankNow(t)).toISOString().slice(0, 10);
      const transactions = await readAis(
        t,
        `/v1/accounts/${from.id}/transactions?bookingStatus=pending&dateFrom=${today}`,
        session,
      );
      assert.equal(transactions.statusCode, 200, transactions.body);
      assert.equal(transactions.json().transactions.pending.length, 1);

      await moveClockTo(t, new Date(until.getTime() - HOUR));
      assert.equal((await statusOf(t, payment.status)).transactionStatus, 'PDNG', 'not before `until`');
      await moveClockTo(t, new Date(until.getTime() + DAY));
      const settled = await statusOf(t, payment.status);
      assert.deepEqual([settled.transactionStatus, settled.fundsAvailable], ['ACSC', true]);
      assert.equal(await balanceOf(t, from.id), '900.00');
    });

    it('payment-pending, then RJCT: PDNG, then RJCT with the reason given at `until`', async () => {
      const psu = await newCustomer(t, [1000]);
      const until = new Date((await bankNow(t)).getTime() + DAY);
      await arm(t, {
        kind: 'payment-pending',
        match: { endToEndIdentification: 'PENDING-RJCT-1' },
        until: until.toISOString(),
        then: 'RJCT',
        reasonCode: 'AC06',
        reasonText: 'the creditor account is blocked by the receiving bank',
      });
      const payment = await signedPayment(
        t,
        NDCT,
        domesticBody(psu.accounts[0]!.bban, ELSEWHERE, '100.00', { endToEndIdentification: 'PENDING-RJCT-1' }),
        psu.number,
      );
      await nextBatchRun(t);
      assert.equal((await statusOf(t, payment.status)).transactionStatus, 'PDNG');
      await moveClockTo(t, new Date(until.getTime() + DAY));
      assert.equal((await statusOf(t, payment.status)).transactionStatus, 'RJCT');
      assert.equal(await reasonOf(t, payment.status), 'AC06 the creditor account is blocked by the receiving bank');
      assert.equal(await balanceOf(t, psu.accounts[0]!.id), '1000.00');
    });

    it('payment-held: ACSP held in settlement (no longer cancellable), then executed at the run after `until`', async () => {
      const psu = await newCustomer(t, [1000]);
      const until = new Date((await bankNow(t)).getTime() + DAY);
      await arm(t, {
        kind: 'payment-held',
        match: { debtorAccount: { iban: psu.accounts[0]!.iban } },
        until: until.toISOString(),
      });
      const payment = await signedPayment(
        t,
        NDCT,
        domesticBody(psu.accounts[0]!.bban, ELSEWHERE, '250.00'),
        psu.number,
      );
      const runs = await nextBatchRun(t);
      assert.deepEqual(
        runs.map((r) => r.executed + r.partial + r.rejected),
        runs.map(() => 0),
        'held: neither executed nor rejected',
      );
      assert.equal((await statusOf(t, payment.status)).transactionStatus, 'ACSP');
      const cancel = await t.signed({ method: 'DELETE', url: payment.status.replace(/\/status$/, '') });
      assert.equal(cancel.statusCode, 405, cancel.body);
      await moveClockTo(t, new Date(until.getTime() + DAY));
      assert.equal((await statusOf(t, payment.status)).transactionStatus, 'ACSC');
      assert.equal(await balanceOf(t, psu.accounts[0]!.id), '750.00');
    });

    it('payment-rejected: RJCT with the code and text given though the funds are there, `times` payments; others execute', async () => {
      const psu = await newCustomer(t, [1000]);
      const from = psu.accounts[0]!.bban;
      await arm(t, {
        kind: 'payment-rejected',
        match: { instructedAmount: { amount: '123.45', currency: 'NOK' } },
        reasonCode: 'AM04',
        times: 2,
      });
      const first = await signedPayment(t, NDCT, domesticBody(from, ELSEWHERE, '123.45'), psu.number);
      const other = await signedPayment(t, NDCT, domesticBody(from, ELSEWHERE, '50.00'), psu.number);
      await nextBatchRun(t);
      assert.equal((await statusOf(t, first.status)).transactionStatus, 'RJCT');
      assert.match((await reasonOf(t, first.status)) ?? '', /^AM04 insufficient funds/);
      assert.equal((await statusOf(t, other.status)).transactionStatus, 'ACSC', 'another amount: not matched');
      const listed = (await t.signed({ method: 'GET', url: '/v1/sandbox/scenarios' })).json();
      assert.deepEqual(
        listed.map((s: { timesLeft: number }) => s.timesLeft),
        [1],
      );
      const second = await signedPayment(t, NDCT, domesticBody(from, '12345678903', '123.45'), psu.number);
      const third = await signedPayment(t, NDCT, domesticBody(from, '12345678938', '123.45'), psu.number);
      await nextBatchRun(t);
      assert.equal((await statusOf(t, second.status)).transactionStatus, 'RJCT');
      assert.equal((await statusOf(t, third.status)).transactionStatus, 'ACSC', 'its times are spent');
    });

    it('payment-pending on a Straks payment: PDNG at its SCA instead of ACSC, settled by a batch run after `until`', async () => {
      const psu = await newCustomer(t, [1000]);
      const until = new Date((await bankNow(t)).getTime() + 2 * HOUR);
      await arm(t, {
        kind: 'payment-pending',
        match: { debtorAccount: { bban: psu.accounts[0]!.bban } },
        until: until.toISOString(),
      });
      const straks = await signedPayment(
        t,
        STRAKS,
        domesticBody(psu.accounts[0]!.bban, ELSEWHERE, '10.00'),
        psu.number,
      );
      assert.equal((await statusOf(t, straks.status)).transactionStatus, 'PDNG');
      await moveClockTo(t, new Date(until.getTime() + DAY));
      assert.equal((await statusOf(t, straks.status)).transactionStatus, 'ACSC');
    });

    it('an "unlimited" rule takes every matching payment until it is disarmed; DELETE disarms it (204, then 404)', async () => {
      const psu = await newCustomer(t, [1000]);
      const from = psu.accounts[0]!.bban;
      const armed = await arm(t, {
        kind: 'payment-rejected',
        match: { debtorAccount: { bban: from } },
        reasonCode: 'MS03',
        times: 'unlimited',
      });
      assert.equal(armed.timesLeft, 'unlimited');
      const payments = [
        await signedPayment(t, NDCT, domesticBody(from, ELSEWHERE, '10.00'), psu.number),
        await signedPayment(t, NDCT, domesticBody(from, '12345678903', '10.00'), psu.number),
      ];
      await nextBatchRun(t);
      for (const p of payments) assert.equal(await reasonOf(t, p.status), 'MS03 the bank rejected the payment');
      const disarmed = await t.signed({ method: 'DELETE', url: armed._links.self.href });
      assert.equal(disarmed.statusCode, 204, disarmed.body);
      assert.equal((await t.signed({ method: 'DELETE', url: armed._links.self.href })).statusCode, 404);
      const after = await signedPayment(t, NDCT, domesticBody(from, '12345678938', '10.00'), psu.number);
      await nextBatchRun(t);
      assert.equal((await statusOf(t, after.status)).transactionStatus, 'ACSC');
    });
  });
}

describe('arming a scenario', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('refuses what cannot be armed, each problem at its path', async () => {
    const now = (await bankNow(t)).getTime();
    const past = new Date(now - HOUR).toISOString();
    const soon = new Date(now + HOUR).toISOString();
    const cases: [Record<string, unknown>, string[]][] = [
      [{ kind: 'payment-late' }, ['$.kind']],
      [{ kind: 'payment-held', until: past }, ['$.until']],
      [{ kind: 'payment-held' }, ['$.until']],
      [{ kind: 'payment-rejected', delayMs: 5 }, ['$.delayMs']],
      [{ kind: 'payment-pending', until: '2999-01-01T00:00:00Z', then: 'ACSC', reasonCode: 'AC04' }, ['$.reasonCode']],
      [{ kind: 'payment-rejected', reasonCode: 'XX99' }, ['$.reasonCode']],
      [{ kind: 'payment-rejected', times: 0 }, ['$.times']],
      [{ kind: 'payment-rejected', times: 'often' }, ['$.times']],
      [
        { kind: 'payment-rejected', match: { debtorAccount: { iban: 'NO9386011117947', bban: '86011117947' } } },
        ['$.match.debtorAccount'],
      ],
      [
        { kind: 'payment-rejected', match: { instructedAmount: { amount: '1.234', currency: 'NOK' } } },
        ['$.match.instructedAmount.amount'],
      ],
      [{ kind: 'bank-error' }, ['$.operationId']],
      [{ kind: 'bank-error', operationId: 'stealMoney' }, ['$.operationId']],
      [{ kind: 'bank-error', operationId: 'moveSandboxClock' }, ['$.operationId']],
      [{ kind: 'bank-slow' }, ['$.delayMs']],
      [{ kind: 'bank-slow', delayMs: 30_001 }, ['$.delayMs']],
      [{ kind: 'bank-throttled', retryAfterSeconds: 0 }, ['$.retryAfterSeconds']],
      [{ kind: 'bank-maintenance', until: past }, ['$.until']],
      [{ kind: 'bank-maintenance', until: soon, times: 2 }, ['$.times']],
      [{ kind: 'bank-maintenance', until: '2999-01-01T00:00:00Z' }, ['$.until']],
    ];
    for (const [body, paths] of cases) {
      const refused = await armRefused(t, body);
      assert.equal(refused.statusCode, 400, `${JSON.stringify(body)}: ${refused.body}`);
      assert.deepEqual(pathsOf(refused), paths, JSON.stringify(body));
    }
    assert.deepEqual((await t.signed({ method: 'GET', url: '/v1/sandbox/scenarios' })).json(), []);
  });

  it("keeps a bank's scenarios its own: another TPP neither lists nor disarms them; initialize disarms them all", async () => {
    const armed = await arm(t, { kind: 'payment-rejected', times: 'unlimited' });
    const other = { as: t.fixtures.otherTpp };
    assert.deepEqual((await t.signed({ method: 'GET', url: '/v1/sandbox/scenarios', ...other })).json(), []);
    assert.equal((await t.signed({ method: 'DELETE', url: armed._links.self.href, ...other })).statusCode, 404);
    assert.equal((await t.signed({ method: 'GET', url: '/v1/sandbox/scenarios' })).json().length, 1);
    assert.equal((await t.signed({ method: 'POST', url: '/v1/sandbox/initialize' })).statusCode, 200);
    assert.deepEqual((await t.signed({ method: 'GET', url: '/v1/sandbox/scenarios' })).json(), []);
  });

  it('arms at most 50 in one bank: the 51st is 429 ACCESS_EXCEEDED', async () => {
    for (let i = 0; i < 50; i++) await arm(t, { kind: 'payment-rejected', match: { endToEndIdentification: `E${i}` } });
    const refused = await armRefused(t, { kind: 'payment-rejected' });
    assert.equal(refused.statusCode, 429, refused.body);
    assert.equal(refused.json().code, 'ACCESS_EXCEEDED');
    assert.equal((await t.signed({ method: 'POST', url: '/v1/sandbox/initialize' })).statusCode, 200);
  });
});

describe('scenarios in production', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ mode: 'production' });
  });
  after(() => t.close());

  it('has none of the routes: arming, listing, disarming and the PATCHes of test data answer 404', async () => {
    for (const [method, url] of [
      ['POST', '/v1/sandbox/scenarios'],
      ['GET', '/v1/sandbox/scenarios'],
      ['DELETE', '/v1/sandbox/scenarios/x'],
      ['PATCH', '/v1/sandbox/accounts/x'],
      ['PATCH', '/v1/sandbox/customers/x'],
    ] as const) {
      const answer = await t.signed({ method, url, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
      assert.equal(answer.statusCode, 404, `${method} ${url}: ${answer.body}`);
    }
  });

  it('never applies a payment scenario, even one in its store: the batch run executes the payment', async () => {
    await t.store.armSandboxScenario(
      t.banks.of('any'),
      {
        id: 'production-rule',
        rule: { kind: 'payment-rejected', match: {}, reason: 'MS03 no' },
        timesLeft: undefined,
        createdAt: new Date(),
      },
      50,
      new Date(),
    );
    const payment = await signedPayment(t, NDCT, domesticBody('15061012343', ELSEWHERE, '10.00'), '13039319955');
    await t.runner.runNow(t.banks.of('any'));
    assert.equal((await statusOf(t, payment.status)).transactionStatus, 'ACSC');
  });
});
