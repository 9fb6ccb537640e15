import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SANDBOX_CLOCK_LATEST } from '../../src/domain/limits.js';
import { messagesByPath } from '../support/payment-requests.js';
import { ELSEWHERE, domesticBody, newCustomer, signedPayment, statusOf } from '../support/scenario-steps.js';
import { NDCT_PATH } from '../support/single-payment-requests.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/** POST /v1/sandbox/clock: every instant RFC 3339 allows is either taken or refused at $.to, never a server fault. */
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('POST /v1/sandbox/clock', () => {
  it('refuses a leap second (23:59:60), which RFC 3339 allows and the clock cannot hold, with 400 at $.to', async () => {
    for (const to of ['2026-12-31T23:59:60Z', '2026-12-31T23:59:60.5+00:00']) {
      const response = await t.signed({ method: 'POST', url: '/v1/sandbox/clock', body: { to } });
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      const text =
        messagesByPath(response)
          .get('$.to')
          ?.map((m) => m.text)
          .join(' ') ?? '';
      assert.match(text, /leap second/, response.body);
    }
    const clock = (await t.signed({ method: 'GET', url: '/v1/sandbox/clock' })).json() as { offsetSeconds: number };
    assert.equal(clock.offsetSeconds, 0, 'the clock did not move');
  });

  it(`refuses to move past ${SANDBOX_CLOCK_LATEST.toISOString()}, where the batch schedule ends, with 400 at the field that asks it`, async () => {
    // The TPP's bank brought to a day before the latest instant, as some hundred ten-year moves would.
    await t.signed({ method: 'GET', url: '/v1/sandbox/clock' });
    const bank = t.banks.of('PSDNO-FSA-111111111');
    const dayBefore = SANDBOX_CLOCK_LATEST.getTime() - 86_400_000;
    assert.equal(
      await t.store.writeClockOffset(bank, BigInt(dayBefore - t.clock.now().getTime()), t.clock.now()),
      true,
    );
    for (const [body, path] of [
      [{ advanceSeconds: 2 * 86_400 }, '$.advanceSeconds'],
      [{ to: '3000-01-01T00:00:00Z' }, '$.to'],
    ] as const) {
      const response = await t.signed({ method: 'POST', url: '/v1/sandbox/clock', body });
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      assert.match(
        messagesByPath(response)
          .get(path)
          ?.map((m) => m.text)
          .join(' ') ?? '',
        /goes no further than 2999-12-31T00:00:00.000Z/,
        response.body,
      );
    }
    const moved = await t.signed({
      method: 'POST',
      url: '/v1/sandbox/clock',
      body: { to: SANDBOX_CLOCK_LATEST.toISOString() },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    const clock = moved.json() as { now: string; nextBatchRun: string };
    const past = Date.parse(clock.now) - SANDBOX_CLOCK_LATEST.getTime();
    assert.ok(past >= 0 && past < 60_000, `moved to the latest instant, then on with the wall clock: ${clock.now}`);
    assert.ok(clock.nextBatchRun > clock.now, `a next batch run still: ${clock.nextBatchRun}`);
  });
});

describe('the answer of a clock move', () => {
  it('lists the batch slots the move passed, not a slot from before it that the move caught up on', async () => {
    // 10:00 Oslo: the wall clock then passes the 12:00 slot with no run (nothing woke the scheduler),
    // and the move from 12:30 to 16:00 catches that slot up, executing the payment, before its own.
    let wall = Date.parse('2026-11-26T09:00:00.000Z');
    const m = await startTestApp({ clock: { now: () => new Date(wall) } });
    try {
      const ola = await newCustomer(m, [1000]);
      const paid = await signedPayment(
        m,
        NDCT_PATH,
        domesticBody(ola.accounts[0]!.bban, ELSEWHERE, '10.00'),
        ola.number,
      );
      wall = Date.parse('2026-11-26T11:30:00.000Z');
      const moved = await m.signed({ method: 'POST', url: '/v1/sandbox/clock', body: { advanceSeconds: 3.5 * 3600 } });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal((await statusOf(m, paid.status)).transactionStatus, 'ACSC', 'the caught-up slot ran');
      const runs = (moved.json() as { batchRuns: { slot: string }[] }).batchRuns;
      assert.deepEqual(
        runs.filter((r) => Date.parse(r.slot) <= wall),
        [],
        'no slot from before the move',
      );
    } finally {
      await m.close();
    }
  });
});
