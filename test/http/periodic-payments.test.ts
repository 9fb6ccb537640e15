import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { type Clock, osloDate } from '../../src/domain/clock.js';
import { type TestDatabase, createMigratedTestDatabase } from '../support/postgres.js';
import { nextFnr } from '../support/norwegian-numbers.js';
import { sandboxAccountBody } from '../support/sandbox-bodies.js';
import { createHeaders } from '../support/payment-requests.js';
import { PERIODIC_PATH, periodicBody } from '../support/periodic-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, assertErrorBody, startTestApp, PUBLIC_URL } from '../support/test-app.js';
import { TPP_ID } from '../support/tpp-fixtures.js';

/**
 * Standing orders through the interface a TPP uses: created, signed, executed on their dates as the
 * sandbox clock moves (rule 6), each execution once, rejected without funds while the order goes on,
 * ended with executions kept; and the rules of their bodies (releases 1.18.0, 1.18.1) and baskets (rule 4).
 */
/** Thursday 26 November 2026, 11:00 in Oslo: the base of every bank's clock here. */
const BASE: Clock = { now: () => new Date('2026-11-26T10:00:00.000Z') };

interface Status {
  paymentId: string;
  transactionStatus: string;
  nextExecutionDate?: string;
  executions: { executionDate: string; transactionStatus: string; statusReason?: string }[];
  _links: Record<string, { href: string }>;
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`standing orders, on ${engine}`, () => {
    let t: TestApp;
    let database: TestDatabase | undefined;
    let store: Store | undefined;
    before(async () => {
      if (engine === 'postgres') {
        database = await createMigratedTestDatabase();
        store = PostgresStore.open(database.url);
        await store.migrate();
      }
      t = await startTestApp({ clock: BASE, ...(store === undefined ? {} : { store }) });
    });
    after(async () => {
      await t.close();
      await store?.close();
      await database?.drop();
    });

    /** A new customer with one NOK account holding this balance (NOK). */
    async function newCustomer(balance: number): Promise<{ number: string; account: { id: string; bban: string } }> {
      const number = nextFnr();
      const customer = await t.signed({
        method: 'POST',
        url: '/v1/sandbox/customers',
        body: { customerNumber: number, name: `Test ${number}`, type: 'private' },
      });
      assert.equal(customer.statusCode, 201, customer.body);
      const body = sandboxAccountBody(number, {
        balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount: balance, currency: 'NOK' } }],
      });
      const account = await t.signed({ method: 'POST', url: '/v1/sandbox/accounts', body });
      assert.equal(account.statusCode, 201, account.body);
      return { number, account: { id: account.json().id as string, bban: body.bban as string } };
    }

    /** Creates a standing order for the PSU with this national id and, unless told not to, signs it. */
    async function order(
      nationalId: string,
      body: unknown,
      sign = true,
    ): Promise<{ paymentId: string; status: string; self: string }> {
      const headers = createHeaders({ 'X-PSU-IDENTITY': nationalId, 'PSU-Context': 'PRIVATE' });
      delete headers['PSU-ID'];
      const created = await t.signed({ method: 'POST', url: PERIODIC_PATH, body, headers });
      assert.equal(created.statusCode, 201, created.body);
      const json = created.json();
      if (sign) {
        const psu = new ScriptedPsu(t.app);
        await psu.open(json._links.scaRedirect.href);
        await psu.logIn(nationalId, '123456');
        await psu.approve();
      }
      return { paymentId: json.paymentId, status: json._links.status.href, self: json._links.self.href };
    }

    async function status(href: string): Promise<Status> {
      const read = await t.signed({ method: 'GET', url: href });
      assert.equal(read.statusCode, 200, read.body);
      return read.json() as Status;
    }

    /** Moves the clock; the standing order runs the move passed. */
    async function moveClock(to: string): Promise<{ slot: string; executed: number; rejected: number }[]> {
      const moved = await t.signed({ method: 'POST', url: '/v1/sandbox/clock', body: { to } });
      assert.equal(moved.statusCode, 200, moved.body);
      return moved.json().standingOrders;
    }

    async function balance(bban: string): Promise<bigint> {
      return (await t.store.findAccount(TPP_ID, { bban }))!.balanceMinor;
    }

    /** The account's standing order debits from the sandbox's listing: booking date and amount. */
    async function standingOrderDebits(accountId: string): Promise<[string, number][]> {
      const read = await t.signed({ method: 'GET', url: `/v1/sandbox/accounts/${accountId}/transactions` });
      assert.equal(read.statusCode, 200, read.body);
      return (read.json() as { bookingDate: string; amount: number; bankTransactionCode: string }[])
        .filter((x) => x.bankTransactionCode === 'PMNT-ICDT-STDO')
        .map((x) => [x.bookingDate, x.amount]);
    }

    it('books each execution on its bank day as the clock moves three months, once, then rejects one without funds and goes on', async () => {
      const { number, account } = await newCustomer(30_000);
      const { status: href, paymentId } = await order(
        number,
        periodicBody({ debtorAccount: { bban: account.bban, currency: 'NOK' } }),
      );
      const signed = await status(href);
      assert.equal(signed.transactionStatus, 'PDNG', 'its first execution is ahead');
      assert.equal(signed.nextExecutionDate, '2026-12-21', '20 December 2026 is a Sunday');
      assert.deepEqual(signed.executions, []);

      // Three months on: 21 Dec (Monday), 20 Jan (Wednesday), 22 Feb (20 Feb is a Saturday).
      const runs = await moveClock('2027-02-26T12:00:00+01:00');
      assert.equal(
        runs.reduce((n, r) => n + r.executed, 0),
        6,
        `three of this order and three of the default data set's (Per Hansen's rent): ${JSON.stringify(runs)}`,
      );
      assert.equal(await balance(account.bban), 450_000n, 'NOK 30 000 less three times NOK 8 500, no fee');
      assert.deepEqual(await standingOrderDebits(account.id), [
        ['2026-12-21', 8500],
        ['2027-01-20', 8500],
        ['2027-02-22', 8500],
      ]);
      const running = await status(href);
      assert.equal(running.paymentId, paymentId);
      assert.equal(running.transactionStatus, 'ACTC');
      assert.equal(running.nextExecutionDate, '2027-03-22');
      assert.deepEqual(
        running.executions.map((e) => [e.executionDate, e.transactionStatus]),
        [
          ['2027-02-22', 'ACSC'],
          ['2027-01-20', 'ACSC'],
          ['2026-12-21', 'ACSC'],
        ],
      );
      // Each execution is written at its own day's time, not at the instant of the move (issue 41).
      const history = await t.store.paymentHistory(TPP_ID, TPP_ID, paymentId, 100);
      assert.deepEqual(history!.executions.map((e) => [e.executionDate, osloDate(new Date(e.createdAt))]).sort(), [
        ['2026-12-21', '2026-12-21'],
        ['2027-01-20', '2027-01-20'],
        ['2027-02-22', '2027-02-22'],
      ]);
      // A move that passes no execution date books nothing again.
      await moveClock('2027-02-27T12:00:00+01:00');
      assert.equal((await standingOrderDebits(account.id)).length, 3);

      // 22 March: NOK 4 500 left does not cover NOK 8 500; the execution is rejected, the order goes on.
      await moveClock('2027-03-23T12:00:00+01:00');
      const rejected = await status(href);
      assert.equal(rejected.transactionStatus, 'ACTC');
      assert.equal(rejected.nextExecutionDate, '2027-04-20');
      assert.deepEqual(
        [rejected.executions[0]!.executionDate, rejected.executions[0]!.transactionStatus],
        ['2027-03-22', 'RJCT'],
      );
      assert.match(rejected.executions[0]!.statusReason ?? '', /insufficient funds/);
      assert.equal(await balance(account.bban), 450_000n);
    });

    it('ends an authorised order where the cancellation lands (Store.cancelPayment): no execution after it, the ones made stay', async () => {
      const { number, account } = await newCustomer(100_000);
      const { status: href, paymentId } = await order(
        number,
        periodicBody({ debtorAccount: { bban: account.bban, currency: 'NOK' }, startDate: '2027-03-25' }),
      );
      await moveClock('2027-04-21T12:00:00+01:00');
      assert.equal((await standingOrderDebits(account.id)).length, 1, '20 April 2027');
      const now = (await t.banks.clockOf(TPP_ID)).now();
      assert.deepEqual(await t.store.cancelPayment(TPP_ID, paymentId, now, 'end-order'), { outcome: 'cancelled' });
      await moveClock('2027-07-21T12:00:00+01:00');
      const ended = await status(href);
      assert.equal(ended.transactionStatus, 'CANC');
      assert.equal(ended.nextExecutionDate, undefined);
      assert.deepEqual(
        ended.executions.map((e) => e.executionDate),
        ['2027-04-20'],
      );
      assert.deepEqual(await standingOrderDebits(account.id), [['2027-04-20', 8500]]);
    });

    it('cancels an order not yet authorised with DELETE (204): CANC, and it never executes', async () => {
      const { number, account } = await newCustomer(100_000);
      const { status: href, self } = await order(
        number,
        periodicBody({ debtorAccount: { bban: account.bban, currency: 'NOK' }, startDate: '2027-08-01' }),
        false,
      );
      const deleted = await t.signed({ method: 'DELETE', url: self });
      assert.equal(deleted.statusCode, 204, deleted.body);
      await moveClock('2027-09-01T12:00:00+02:00');
      assert.equal((await status(href)).transactionStatus, 'CANC');
      assert.deepEqual(await standingOrderDebits(account.id), []);
    });
  });
}

describe('standing orders: rules', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ clock: BASE });
  });
  after(() => t.close());

  async function create(body: unknown) {
    return t.signed({ method: 'POST', url: PERIODIC_PATH, body, headers: createHeaders({ 'PSU-Context': 'PRIVATE' }) });
  }

  it("shows the schedule on the SCA page, in the PSU's language: how often, start and end, the execution rule and the first payment; the cancellation page shows it without the first payment", async () => {
    // The 31st is the month's last day; 31 December 2026 is New Year's Eve, when banks do not settle: the 30th.
    const body = periodicBody({
      startDate: '2026-12-01',
      endDate: '2027-05-31',
      dayOfExecution: '31',
      executionRule: 'preceding',
      debtorAccount: { bban: '15061012351', currency: 'NOK' },
    });
    const created = await create(body);
    assert.equal(created.statusCode, 201, created.body);
    const { _links } = created.json();
    const psu = new ScriptedPsu(t.app, 'nb');
    await psu.open(_links.scaRedirect.href);
    const page = (await psu.logIn('13039319955', '123456')).body;
    assert.match(page, /<dd class="frequency">Hver måned den siste dagen i måneden<\/dd>/);
    assert.match(page, /<dt>Startdato<\/dt><dd class="start-date">2026-12-01<\/dd>/);
    assert.match(page, /<dt>Sluttdato<\/dt><dd class="end-date">2027-05-31<\/dd>/);
    assert.match(page, /<dd class="execution-rule">Betales virkedagen før<\/dd>/);
    assert.match(page, /<dt>Første betaling<\/dt><dd class="first-execution">2026-12-30<\/dd>/);
    assert.doesNotMatch(page, /Så snart som mulig/, 'no single date is shown for a standing order');
    await psu.approve();

    const ending = await t.signed({ method: 'DELETE', url: _links.self.href });
    assert.equal(ending.statusCode, 202, ending.body);
    const cancellation = await t.signed({
      method: 'POST',
      url: ending.json()._links.startAuthorisation.href,
      headers: { 'TPP-Redirect-URI': 'https://tpp.example/back' },
    });
    assert.equal(cancellation.statusCode, 201, cancellation.body);
    const canceller = new ScriptedPsu(t.app);
    await canceller.open(cancellation.json()._links.scaRedirect.href);
    const cancelPage = (await canceller.logIn('13039319955', '123456')).body;
    assert.match(cancelPage, /Check and approve the cancellation/);
    assert.match(cancelPage, /<dd class="frequency">Every month on the last day of the month<\/dd>/);
    assert.match(cancelPage, /<dd class="end-date">2027-05-31<\/dd>/);
    assert.match(cancelPage, /<dd class="execution-rule">Paid the bank day before<\/dd>/);
    assert.doesNotMatch(cancelPage, /first-execution/);
  });

  it('shows an order without endDate as running until cancelled, and a weekly one by its weekday', async () => {
    const created = await create(periodicBody({ startDate: '2026-12-01', frequency: 'Weekly', dayOfExecution: '5' }));
    assert.equal(created.statusCode, 201, created.body);
    const psu = new ScriptedPsu(t.app);
    await psu.open(created.json()._links.scaRedirect.href);
    const page = (await psu.logIn('13039319955', '123456')).body;
    assert.match(page, /<dd class="frequency">Every week on Fridays<\/dd>/);
    assert.match(page, /<dd class="end-date">Until cancelled<\/dd>/);
    assert.match(page, /<dd class="execution-rule">Paid the next bank day<\/dd>/);
    assert.match(page, /<dd class="first-execution">2026-12-04<\/dd>/);
  });

  it("answers a standing order's create with one execution's fee, NOK 0.00, and transactionFeeIndicator true, as the platform answers its products", async () => {
    const created = await create(periodicBody({ startDate: '2026-12-01' }));
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual(created.json().transactionFees, { amount: '0.00', currency: 'NOK' });
    assert.equal(created.json().transactionFeeIndicator, true);
  });

  it("executes at the start of its date, before the day's first batch run (rule 6)", async () => {
    const savings = '15061012351';
    const created = await create(
      periodicBody({
        startDate: '2026-11-27',
        dayOfExecution: '27',
        debtorAccount: { bban: savings, currency: 'NOK' },
      }),
    );
    assert.equal(created.statusCode, 201, created.body);
    const { paymentId, _links } = created.json();
    assert.equal(created.headers.location, `${PUBLIC_URL}${_links.self.href}`);
    const psu = new ScriptedPsu(t.app);
    await psu.open(_links.scaRedirect.href);
    await psu.logIn('13039319955', '123456');
    await psu.approve();
    const before = (await t.store.findAccount(TPP_ID, { bban: savings }))!.balanceMinor;
    // 00:30 on Friday 27 November in Oslo: the day's first batch run is at 06:00.
    const moved = await t.signed({
      method: 'POST',
      url: '/v1/sandbox/clock',
      body: { to: '2026-11-27T00:30:00+01:00' },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual(moved.json().standingOrders, [
      { slot: 'periodic:2026-11-27', executed: 1, partial: 0, rejected: 0 },
    ]);
    const batchRuns = moved.json().batchRuns as { slot: string }[];
    assert.ok(
      batchRuns.every((r) => r.slot < '2026-11-27'),
      'the batch runs passed were the day before',
    );
    assert.equal(moved.json().nextBatchRun, '2026-11-27T05:00:00.000Z', "the day's first batch run is still to come");
    assert.equal((await t.store.findAccount(TPP_ID, { bban: savings }))!.balanceMinor, before - 850_000n);
    const read = (await t.signed({ method: 'GET', url: _links.status.href })).json() as Status;
    assert.equal(read.paymentId, paymentId);
    assert.deepEqual(
      read.executions.map((e) => [e.executionDate, e.transactionStatus]),
      [['2026-11-27', 'ACSC']],
    );
    assert.equal(read.nextExecutionDate, '2026-12-28', '27 December 2026 is a Sunday, the 28th a Monday');
  });

  it('refuses MonthlyVariable without monthsOfExecution (release 1.18.0) and a month named twice (release 1.18.1) with 400, naming the field', async () => {
    for (const body of [
      periodicBody({ frequency: 'MonthlyVariable' }),
      periodicBody({ frequency: 'MonthlyVariable', monthsOfExecution: ['1', '6', '1'] }),
      periodicBody({ monthsOfExecution: ['1', '6'] }),
      // An empty list names no month: once answered 500, its schedule read as if it named some.
      periodicBody({ frequency: 'MonthlyVariable', monthsOfExecution: [] }),
    ]) {
      const error = assertErrorBody(await create(body), 400, 'FORMAT_ERROR');
      assert.deepEqual(
        error.tppMessages?.map((m) => m.path),
        ['$.monthsOfExecution'],
        JSON.stringify(error),
      );
    }
    assert.equal(
      (await create(periodicBody({ frequency: 'MonthlyVariable', monthsOfExecution: ['1', '6'] }))).statusCode,
      201,
    );
  });

  it('refuses an endDate of the years 0000-0099 as before startDate, as any earlier one (once answered 500)', async () => {
    for (const endDate of ['0000-01-01', '0001-01-01', '0099-12-31']) {
      const error = assertErrorBody(await create(periodicBody({ endDate })), 400, 'FORMAT_ERROR');
      assert.deepEqual(
        error.tppMessages?.map((m) => [m.path, m.text]),
        [
          [
            '$.endDate',
            `$.endDate ${endDate} is before $.startDate ${periodicBody().startDate as string}; it is the last day an execution may fall on`,
          ],
        ],
      );
    }
  });

  it('reports every problem of the body at once, each at its field', async () => {
    const error = assertErrorBody(
      await create(
        periodicBody({
          frequency: 'Fortnightly',
          dayOfExecution: '01',
          executionRule: 'later',
          startDate: '2026-11-25',
          remittanceInformationStructured: { reference: '76543214', referenceType: 'SCOR' },
        }),
      ),
      400,
      'FORMAT_ERROR',
    );
    const paths = new Set(error.tppMessages?.map((m) => m.path));
    for (const path of ['$.frequency', '$.dayOfExecution', '$.executionRule', '$.startDate', '$'])
      assert.ok(paths.has(path), `${path} in ${JSON.stringify(error.tppMessages)}`);
  });

  it("takes executionRule 'preceeding', as the platform's sample spells it, and echoes it as sent", async () => {
    const created = await create(periodicBody({ executionRule: 'preceeding' }));
    assert.equal(created.statusCode, 201, created.body);
    const read = await t.signed({ method: 'GET', url: created.json()._links.self.href });
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(read.json().executionRule, 'preceeding');
    assert.equal(read.json().transactionStatus, 'RCVD');
    assert.equal(read.json().nextExecutionDate, undefined, 'not running before its SCA');
  });

  it('refuses a periodic payment in a signing basket with 400 REFERENCE_MIX_INVALID (rule 4)', async () => {
    const created = await create(periodicBody());
    const error = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: '/v1/signing-baskets',
        body: { paymentIds: [created.json().paymentId] },
        headers: createHeaders(),
      }),
      400,
      'REFERENCE_MIX_INVALID',
    );
    assert.match(error.tppMessages?.[0]?.text ?? '', /periodic payment, which cannot be put in a signing basket/);
  });

  it('answers a product it does not offer as a standing order with 404 PRODUCT_UNKNOWN', async () => {
    const response = await t.signed({
      method: 'POST',
      url: '/v1/periodic-payments/sepa-instant-credit-transfers',
      body: periodicBody(),
      headers: createHeaders(),
    });
    assertErrorBody(response, 404, 'PRODUCT_UNKNOWN');
  });
  // Last: it moves the clock past December.
  it("finds Per Hansen's standing order in the default data set by GET /v1/sandbox/accounts/{mockAccountId}/standing-orders, and reads it by the paymentId listed", async () => {
    const account = (await t.store.findAccount(TPP_ID, { bban: '15062073540' }))!;
    const listed = await t.signed({ method: 'GET', url: `/v1/sandbox/accounts/${account.id}/standing-orders` });
    assert.equal(listed.statusCode, 200, listed.body);
    const orders = listed.json() as Record<string, any>[];
    assert.equal(orders.length, 1, listed.body);
    const [rent] = orders as [Record<string, any>];
    assert.match(rent.paymentId, /^enc!!/);
    assert.deepEqual(
      [rent.transactionStatus, rent.instructedAmount, rent.creditorName, rent.remittanceInformationUnstructured],
      ['ACTC', { amount: '9500.00', currency: 'NOK' }, 'Fjellet Borettslag', 'Husleie'],
    );
    assert.deepEqual([rent.startDate, rent.frequency, rent.dayOfExecution], ['2026-08-01', 'Monthly', '20']);
    assert.equal(rent.nextExecutionDate, '2026-12-21');
    const status = await t.signed({ method: 'GET', url: rent._links.status.href });
    assert.equal(status.statusCode, 200, status.body);
    assert.deepEqual([status.json().paymentId, status.json().nextExecutionDate], [rent.paymentId, '2026-12-21']);
    assert.equal((await t.signed({ method: 'GET', url: rent._links.self.href })).statusCode, 200);

    const ola = (await t.store.findAccount(TPP_ID, { bban: '15061012343' }))!;
    const none = await t.signed({ method: 'GET', url: `/v1/sandbox/accounts/${ola.id}/standing-orders` });
    assert.equal(none.statusCode, 200, none.body);
    assert.equal(
      (none.json() as { remittanceInformationUnstructured?: string }[]).some(
        (o) => o.remittanceInformationUnstructured === 'Husleie',
      ),
      false,
    );
    assertErrorBody(
      await t.signed({ method: 'GET', url: '/v1/sandbox/accounts/enc!!nosuchaccount/standing-orders' }),
      404,
      'RESOURCE_UNKNOWN',
    );
  });

  it('has Per Hansen in the default data set with a standing order running: its executions booked, and it goes on as the clock moves', async () => {
    const account = (await t.store.findAccount(TPP_ID, { bban: '15062073540' }))!;
    const debits = async () =>
      (
        (await t.signed({ method: 'GET', url: `/v1/sandbox/accounts/${account.id}/transactions` })).json() as {
          bookingDate: string;
          amount: number;
          bankTransactionCode: string;
        }[]
      )
        .filter((x) => x.bankTransactionCode === 'PMNT-ICDT-STDO')
        .map((x) => [x.bookingDate, x.amount]);
    // Running since 1 August 2026 (the bank was made on 26 November), on the 20th or the next bank day.
    assert.deepEqual(await debits(), [
      ['2026-08-20', 9500],
      ['2026-09-21', 9500],
      ['2026-10-20', 9500],
      ['2026-11-20', 9500],
    ]);
    const moved = await t.signed({
      method: 'POST',
      url: '/v1/sandbox/clock',
      body: { to: '2026-12-22T12:00:00+01:00' },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual((await debits()).at(-1), ['2026-12-21', 9500]);
    assert.equal((await t.store.findAccount(TPP_ID, { bban: '15062073540' }))!.balanceMinor, 4_200_000n - 950_000n);
  });
});
