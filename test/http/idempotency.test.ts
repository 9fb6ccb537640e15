import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../src/domain/clock.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { type TestDatabase, createMigratedTestDatabase } from '../support/postgres.js';
import {
  BULK_PATH,
  CROSS_BORDER_PATH,
  bulkBody,
  createBulk,
  createCrossBorder,
  createHeaders,
  crossBorderBody,
} from '../support/payment-requests.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * Idempotency by X-Request-ID (a retry gets the same answer and creates nothing) and logical
 * duplicates (an equal payment of the same PSU within 24 hours is refused unless allowed).
 */
class ManualClock implements Clock {
  constructor(public current: Date) {}
  now(): Date {
    return new Date(this.current);
  }
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`idempotency on ${engine}`, () => {
    let t: TestApp;
    let database: TestDatabase | undefined;
    let store: PostgresStore | undefined;
    before(async () => {
      if (engine === 'postgres') {
        database = await createMigratedTestDatabase();
        store = PostgresStore.open(database.url);
        await store.migrate();
        t = await startTestApp({ store });
      } else {
        t = await startTestApp();
      }
    });
    after(async () => {
      await t.close();
      await store?.close();
      await database?.drop();
    });

    it('answers a retry with the same X-Request-ID and body exactly as the first time', async () => {
      const requestId = randomUUID();
      const body = crossBorderBody();
      const first = await createCrossBorder(t, { body, requestId });
      const retry = await createCrossBorder(t, { body, requestId });
      assert.equal(first.statusCode, 201, first.body);
      assert.equal(retry.statusCode, 201, retry.body);
      assert.deepEqual(retry.json(), first.json());
      assert.equal(retry.headers.location, first.headers.location);
    });

    it('refuses a retry whose JSON is written differently (key order, spaces): a retry repeats the bytes it signed', async () => {
      const requestId = randomUUID();
      const body = crossBorderBody();
      assert.equal((await createCrossBorder(t, { body, requestId })).statusCode, 201);
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const retry = await t.signed({
        method: 'POST',
        url: CROSS_BORDER_PATH,
        body: JSON.stringify(reordered, null, 2),
        headers: createHeaders(),
        sign: { requestId },
      });
      const refused = assertErrorBody(retry, 409, 'CONFLICT');
      assert.match(refused.message ?? '', /with a different body/);
    });

    it('refuses the same X-Request-ID with a different body: 409 CONFLICT naming the header', async () => {
      const requestId = randomUUID();
      assert.equal((await createCrossBorder(t, { requestId })).statusCode, 201);
      const body = assertErrorBody(await createCrossBorder(t, { requestId }), 409, 'CONFLICT');
      assert.equal(body.tppMessages?.[0]?.path, 'header:X-Request-ID');
      assert.match(body.message ?? '', /with a different body/);
    });

    it('refuses the same X-Request-ID on another operation', async () => {
      const requestId = randomUUID();
      assert.equal((await createCrossBorder(t, { requestId })).statusCode, 201);
      const body = assertErrorBody(await createBulk(t, { requestId }), 409, 'CONFLICT');
      assert.match(
        body.message ?? '',
        /used before by this TPP for POST \/v1\/payments\/norwegian-cross-border-credit-transfers;/,
      );
    });

    it('keeps X-Request-IDs of different TPPs apart', async () => {
      const requestId = randomUUID();
      const body = crossBorderBody();
      const mine = await createCrossBorder(t, { body, requestId });
      const theirs = await createCrossBorder(t, { body, requestId, as: t.fixtures.otherTpp });
      assert.equal(mine.statusCode, 201);
      assert.equal(theirs.statusCode, 201, theirs.body);
      assert.notEqual(theirs.json().paymentId, mine.json().paymentId);
    });

    it('creates exactly one payment from 100 concurrent retries of one create', async () => {
      const requestId = randomUUID();
      const body = bulkBody(3);
      const answers = await Promise.all(Array.from({ length: 100 }, () => createBulk(t, { body, requestId })));
      assert.deepEqual([...new Set(answers.map((a) => a.statusCode))], [201]);
      const ids = new Set(answers.map((a) => a.json().paymentId as string));
      // Every create that succeeds answers with its own new id: one id means one payment.
      assert.equal(ids.size, 1);
      const again = await createBulk(t, { body });
      const duplicate = assertErrorBody(again, 409, 'CONFLICT');
      assert.equal(duplicate.tppMessages?.length, 3);
      for (const message of duplicate.tppMessages ?? [])
        assert.match(message.text ?? '', new RegExp(`equals payment ${[...ids][0]!.replace(/[!]/g, '\\!')}`));
    });

    it('does not store a request that failed: its exact retry is judged again, a corrected request needs a new X-Request-ID', async () => {
      const requestId = randomUUID();
      const bad = crossBorderBody();
      bad.creditorName = 'x'.repeat(71);
      assertErrorBody(await createCrossBorder(t, { body: bad, requestId }), 400, 'FORMAT_ERROR');
      assertErrorBody(await createCrossBorder(t, { body: bad, requestId }), 400, 'FORMAT_ERROR');
      assertErrorBody(
        await createCrossBorder(t, { body: { ...bad, creditorName: 'Corrected AS' }, requestId }),
        409,
        'CONFLICT',
      );
      assert.equal((await createCrossBorder(t, { body: { ...bad, creditorName: 'Corrected AS' } })).statusCode, 201);
    });
  });
}

describe('a retry whose X-Request-ID binding has expired', () => {
  const clock = new ManualClock(new Date('2026-11-21T10:00:00Z'));
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ clock });
  });
  after(() => t.close());

  it('still gets the stored 201 when the rules would now refuse it (its execution date has become yesterday)', async () => {
    const requestId = randomUUID();
    const body = { ...crossBorderBody(), requestedExecutionDate: '2026-11-21' };
    const first = await createCrossBorder(t, { body, requestId });
    assert.equal(first.statusCode, 201, first.body);
    // The binding is gone, as after its signature's time has passed and the purge ran; the bank's day is the next one.
    assert.equal((await t.store.purgeRequestBindings(new Date('2100-01-01T00:00:00Z'))) > 0, true);
    clock.current = new Date('2026-11-22T10:00:00Z');
    assertErrorBody(await createCrossBorder(t, { body }), 400, 'EXECUTION_DATE_INVALID');
    const retry = await createCrossBorder(t, { body, requestId });
    assert.equal(retry.statusCode, 201, retry.body);
    assert.deepEqual(retry.json(), first.json());
  });
});

describe('logical duplicates', () => {
  const clock = new ManualClock(new Date('2026-11-21T10:00:00Z'));
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ clock });
  });
  after(() => t.close());

  it('refuses an equal payment of the same PSU within 24 hours, and creates it with allowLogicalDuplicate=true', async () => {
    const body = crossBorderBody();
    const first = await createCrossBorder(t, { body });
    assert.equal(first.statusCode, 201);
    clock.current = new Date('2026-11-22T09:59:00Z');
    const refused = assertErrorBody(await createCrossBorder(t, { body }), 409, 'CONFLICT');
    assert.equal(refused.tppMessages?.[0]?.path, '$');
    assert.match(refused.message ?? '', new RegExp(`equals payment .* allowLogicalDuplicate=true`));
    assert.equal((await createCrossBorder(t, { body, query: '?allowLogicalDuplicate=true' })).statusCode, 201);
  });

  it('creates an equal payment once 24 hours have passed', async () => {
    clock.current = new Date('2026-11-21T10:00:00Z');
    const body = crossBorderBody();
    assert.equal((await createCrossBorder(t, { body })).statusCode, 201);
    clock.current = new Date('2026-11-22T10:00:01Z');
    assert.equal((await createCrossBorder(t, { body })).statusCode, 201);
  });

  it('does not count a cancelled payment', async () => {
    clock.current = new Date('2026-11-21T10:00:00Z');
    const body = crossBorderBody();
    const first = await createCrossBorder(t, { body });
    const self = first.json()._links.self.href as string;
    assert.equal((await t.signed({ method: 'DELETE', url: self })).statusCode, 204);
    assert.equal((await createCrossBorder(t, { body })).statusCode, 201);
  });

  it('compares amount, creditor, remittance and date: a payment differing in one is no duplicate', async () => {
    clock.current = new Date('2026-11-21T10:00:00Z');
    const body = crossBorderBody();
    assert.equal((await createCrossBorder(t, { body })).statusCode, 201);
    for (const change of [
      (b: Record<string, unknown>) => {
        b.instructedAmount = { amount: '150000.01', currency: 'NOK' };
      },
      (b: Record<string, unknown>) => {
        b.remittanceInformationUnstructured = `${String(b.remittanceInformationUnstructured)}!`;
      },
      (b: Record<string, unknown>) => {
        b.requestedExecutionDate = '2026-11-30';
      },
      (b: Record<string, unknown>) => {
        b.creditorAccount = { iban: 'DE89370400440532013000', currency: 'EUR' };
      },
    ]) {
      const changed = structuredClone(body);
      change(changed);
      assert.equal((await createCrossBorder(t, { body: changed })).statusCode, 201);
    }
  });

  it('finds duplicates between bulk payments entry by entry', async () => {
    clock.current = new Date('2026-11-21T10:00:00Z');
    const body = bulkBody(3);
    assert.equal((await createBulk(t, { body })).statusCode, 201);
    const next = bulkBody(2);
    (next.payments as unknown[])[1] = (body.payments as unknown[])[2];
    const refused = assertErrorBody(
      await t.signed({ method: 'POST', url: BULK_PATH, body: next, headers: createHeaders() }),
      409,
      'CONFLICT',
    );
    assert.deepEqual(
      refused.tppMessages?.map((m) => m.path),
      ['$.payments[1]'],
    );
  });
});
