import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { bindingConflict, signatureAcceptableUntil, type RequestBinding } from '../../src/domain/request-binding.js';
import { signRequest } from '../../src/toolkit/request-signer.js';
import {
  CROSS_BORDER_PATH,
  OLA_ACCOUNTS,
  createCrossBorder,
  createHeaders,
  crossBorderBody,
} from '../support/payment-requests.js';
import { nextFnr } from '../support/norwegian-numbers.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * Issue 10, point 1 and 2 (docs/security.md, sections 1 and 2): the signature covers headers, not
 * the method, path or query, so a captured request is bound by its X-Request-ID to what it was
 * signed for; Date is optional.
 */

interface Captured {
  headers: Record<string, string>;
  body: string | undefined;
}

/** A request as the TPP signed it, as an eavesdropper would have it. */
function capture(
  t: TestApp,
  method: string,
  url: string,
  options: {
    body?: unknown;
    headers?: Record<string, string>;
    requestId?: string;
    date?: boolean;
    signedHeaders?: string[];
  } = {},
): Captured {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers = signRequest({
    method,
    url,
    body,
    headers: options.headers,
    credentials: t.fixtures.tpp,
    ...(options.requestId === undefined ? {} : { requestId: options.requestId }),
    ...(options.date === undefined ? {} : { date: options.date }),
    ...(options.signedHeaders === undefined ? {} : { signedHeaders: options.signedHeaders }),
  });
  if (body !== undefined) headers['content-type'] = 'application/json';
  return { headers, body };
}

function send(
  t: TestApp,
  method: string,
  url: string,
  captured: Captured,
  body: string | undefined = captured.body,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: captured.headers,
    ...(body === undefined ? {} : { payload: body }),
  });
}

async function newPayment(
  t: TestApp,
): Promise<{ paymentId: string; self: string; status: string; scaRedirect: string }> {
  const response = await createCrossBorder(t, {
    body: { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } },
  });
  assert.equal(response.statusCode, 201, response.body);
  const json = response.json();
  return {
    paymentId: json.paymentId,
    self: json._links.self.href,
    status: json._links.status.href,
    scaRedirect: json._links.scaRedirect.href,
  };
}

async function statusOf(t: TestApp, statusPath: string): Promise<string> {
  return (await t.signed({ method: 'GET', url: statusPath })).json().transactionStatus;
}

function assertReplayRefused(response: LightMyRequestResponse, was: RegExp): void {
  const body = assertErrorBody(response, 409, 'CONFLICT');
  assert.equal(body.tppMessages?.[0]?.path, 'header:X-Request-ID');
  assert.match(body.message ?? '', was);
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`a captured signed request on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ engine });
    });
    after(() => t.close());

    it('cannot be replayed as a DELETE of another payment: 409, and the other payment stays RCVD', async () => {
      const mine = await newPayment(t);
      const other = await newPayment(t);
      const statusRead = capture(t, 'GET', mine.status);
      assert.equal((await send(t, 'GET', mine.status, statusRead)).statusCode, 200);
      assertReplayRefused(
        await send(t, 'DELETE', other.self, statusRead),
        /used before by this TPP for GET \/v1\/payments\/.*\/status;/,
      );
      assert.equal(await statusOf(t, other.status), 'RCVD');
    });

    it("cannot be replayed as the sandbox's initialize: 409, and the TPP's test data stays", async () => {
      const customer = await t.signed({
        method: 'POST',
        url: '/v1/sandbox/customers',
        body: { customerNumber: nextFnr(), name: 'Kept', type: 'private' },
      });
      assert.equal(customer.statusCode, 201, customer.body);
      const mine = await newPayment(t);
      const statusRead = capture(t, 'GET', mine.status);
      assert.equal((await send(t, 'GET', mine.status, statusRead)).statusCode, 200);
      assertReplayRefused(await send(t, 'POST', '/v1/sandbox/initialize', statusRead), /used before/);
      assert.equal((await t.signed({ method: 'GET', url: customer.json()._links.self.href })).statusCode, 200);
    });

    it('is refused when sent first to another operation: the first use binds, whichever it is', async () => {
      const mine = await newPayment(t);
      const statusRead = capture(t, 'GET', mine.status);
      // Replayed before the TPP's own request arrives: the replay binds, and the TPP's request is refused.
      assert.equal(
        (await send(t, 'GET', `${mine.status}?x=1`, statusRead)).statusCode,
        200,
        'an unknown query parameter is ignored by the read',
      );
      assertReplayRefused(await send(t, 'GET', mine.status, statusRead), /for GET \/v1\/payments\/.*\/status\?x=1;/);
    });

    it('is refused with another query string, path or method, and with another body', async () => {
      const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } };
      const create = capture(t, 'POST', CROSS_BORDER_PATH, { body, headers: createHeaders() });
      assert.equal((await send(t, 'POST', CROSS_BORDER_PATH, create)).statusCode, 201);
      assertReplayRefused(
        await send(t, 'POST', `${CROSS_BORDER_PATH}?allowLogicalDuplicate=true`, create),
        /for POST \/v1\/payments\/norwegian-cross-border-credit-transfers;/,
      );
      assertReplayRefused(
        await send(t, 'POST', '/v1/bulk-payments/norwegian-domestic-credit-transfers', create),
        /used before/,
      );
      assertReplayRefused(await send(t, 'POST', '/v1/signing-baskets', create), /used before/);
    });

    it('is answered as before when retried exactly: a create gets its stored answer, a read reads again', async () => {
      const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } };
      const create = capture(t, 'POST', CROSS_BORDER_PATH, { body, headers: createHeaders() });
      const first = await send(t, 'POST', CROSS_BORDER_PATH, create);
      const again = await send(t, 'POST', CROSS_BORDER_PATH, create);
      assert.equal(first.statusCode, 201, first.body);
      assert.deepEqual(again.json(), first.json());
      const read = capture(t, 'GET', first.json()._links.status.href);
      for (let i = 0; i < 3; i += 1)
        assert.equal((await send(t, 'GET', first.json()._links.status.href, read)).json().transactionStatus, 'RCVD');
    });

    it('DELETE retried exactly is idempotent: 204 each time, while a new DELETE of a cancelled payment is refused', async () => {
      const mine = await newPayment(t);
      const cancel = capture(t, 'DELETE', mine.self);
      assert.equal((await send(t, 'DELETE', mine.self, cancel)).statusCode, 204);
      assert.equal((await send(t, 'DELETE', mine.self, cancel)).statusCode, 204);
      assert.equal(await statusOf(t, mine.status), 'CANC');
      assertErrorBody(await t.signed({ method: 'DELETE', url: mine.self }), 405, 'CANCELLATION_INVALID');
    });

    it("of the sandbox may share one X-Request-ID with other test-data operations, as the platform's setup scripts do", async () => {
      const requestId = `setup-${randomUUID()}`;
      const customer = await t.signed({
        method: 'POST',
        url: '/v1/sandbox/customers',
        body: { customerNumber: nextFnr(), name: 'Script', type: 'private' },
        sign: { requestId },
      });
      assert.equal(customer.statusCode, 201, customer.body);
      const read = await t.signed({ method: 'GET', url: customer.json()._links.self.href, sign: { requestId } });
      assert.equal(read.statusCode, 200, read.body);
      const list = await t.signed({ method: 'GET', url: '/v1/sandbox/customers', sign: { requestId } });
      assert.equal(list.statusCode, 200, list.body);
      // ...but not with an operation of production.
      assertReplayRefused(
        await t.signed({
          method: 'POST',
          url: CROSS_BORDER_PATH,
          body: crossBorderBody(),
          headers: createHeaders(),
          sign: { requestId },
        }),
        /for POST \/v1\/sandbox\/customers;/,
      );
    });

    it('first used on an operation of production stays bound there, the sandbox included', async () => {
      const requestId = randomUUID();
      const mine = await newPayment(t);
      assert.equal((await t.signed({ method: 'GET', url: mine.status, sign: { requestId } })).statusCode, 200);
      assertReplayRefused(
        await t.signed({ method: 'GET', url: '/v1/sandbox/customers', sign: { requestId } }),
        /for GET \/v1\/payments\//,
      );
      assertReplayRefused(
        await t.signed({ method: 'POST', url: '/v1/sandbox/initialize', sign: { requestId } }),
        /for GET \/v1\/payments\//,
      );
    });

    it('with the same X-Request-ID for two different requests at once: exactly one is served', async () => {
      const requestId = randomUUID();
      const a = await newPayment(t);
      const b = await newPayment(t);
      const answers = await Promise.all(
        [a, b, a, b].map((p) => t.signed({ method: 'DELETE', url: p.self, sign: { requestId } })),
      );
      const served = answers.filter((r) => r.statusCode === 204);
      const refused = answers.filter((r) => r.statusCode === 409);
      assert.equal(served.length + refused.length, 4, answers.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
      assert.ok(served.length >= 1 && refused.length >= 1);
      const statuses = [await statusOf(t, a.status), await statusOf(t, b.status)].sort();
      assert.deepEqual(
        statuses,
        ['CANC', 'RCVD'],
        'only the payment of the request that bound the X-Request-ID is cancelled',
      );
    });

    it('keeps the X-Request-IDs of different TPPs apart', async () => {
      const requestId = randomUUID();
      const mine = await newPayment(t);
      assert.equal((await t.signed({ method: 'GET', url: mine.status, sign: { requestId } })).statusCode, 200);
      const theirs = await t.signed({
        method: 'GET',
        url: '/v1/sandbox/customers',
        sign: { requestId },
        as: t.fixtures.otherTpp,
      });
      assert.equal(theirs.statusCode, 200, theirs.body);
    });
  });
}

describe('(request-target), when the client signs it', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('is verified: the request sent to another path fails its signature (401), and it is never required', async () => {
    const mine = await newPayment(t);
    const other = await newPayment(t);
    const signed = capture(t, 'DELETE', mine.self, { signedHeaders: ['(request-target)', 'date', 'x-request-id'] });
    assertErrorBody(await send(t, 'DELETE', other.self, signed), 401, 'SIGNATURE_INVALID');
    assert.equal(
      (await send(t, 'DELETE', mine.self, signed)).statusCode,
      204,
      'the signature made for this path verifies (nothing was bound by the failed one)',
    );
    assert.equal(await statusOf(t, other.status), 'RCVD');
  });
});

describe('Date (spec, Authentication 4: signed "where available")', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('is optional: a correctly signed create without Date is accepted (201)', async () => {
    const body = crossBorderBody();
    const create = capture(t, 'POST', CROSS_BORDER_PATH, { body, headers: createHeaders(), date: false });
    assert.equal(create.headers.date, undefined);
    assert.doesNotMatch(create.headers.signature!, /headers="[^"]*date/);
    const response = await send(t, 'POST', CROSS_BORDER_PATH, create);
    assert.equal(response.statusCode, 201, response.body);
  });

  it('without it, replay protection still holds: the X-Request-ID is bound all the same', async () => {
    const mine = await newPayment(t);
    const other = await newPayment(t);
    const statusRead = capture(t, 'GET', mine.status, { date: false });
    assert.equal((await send(t, 'GET', mine.status, statusRead)).statusCode, 200);
    assertReplayRefused(await send(t, 'DELETE', other.self, statusRead), /used before/);
  });

  it('when present is signed and its skew checked', async () => {
    const unsigned = capture(t, 'GET', '/v1/sandbox/customers', { signedHeaders: ['x-request-id'] });
    const body = assertErrorBody(await send(t, 'GET', '/v1/sandbox/customers', unsigned), 401, 'SIGNATURE_INVALID');
    assert.match(body.message ?? '', /leaves out date/);
    const old = signRequest({
      method: 'GET',
      url: '/v1/sandbox/customers',
      credentials: t.fixtures.tpp,
      now: new Date(Date.now() - 3_600_000),
    });
    assertErrorBody(
      await t.app.inject({ method: 'GET', url: '/v1/sandbox/customers', headers: old }),
      401,
      'SIGNATURE_INVALID',
    );
  });
});

describe('a resent create and its SCA link', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('gives a stranger nothing usable: the link works once, and only for the PSU named at initiation', async () => {
    const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } };
    const create = capture(t, 'POST', CROSS_BORDER_PATH, { body, headers: createHeaders() });
    const tpp = (await send(t, 'POST', CROSS_BORDER_PATH, create)).json();
    const attacker = (await send(t, 'POST', CROSS_BORDER_PATH, create)).json();
    assert.equal(
      attacker._links.scaRedirect.href,
      tpp._links.scaRedirect.href,
      'the exact retry gets the stored answer',
    );

    // The attacker opens it first and logs in as a customer of their own: nothing is approved.
    const stranger = new ScriptedPsu(t.app);
    assert.equal((await stranger.open(attacker._links.scaRedirect.href)).statusCode, 200);
    const refused = await stranger.logIn('12085592767', '123456');
    assert.doesNotMatch(refused.body, /Approve/);
    assert.equal(await statusOf(t, tpp._links.status.href), 'RCVD');
    // The link is spent: neither the attacker nor anyone else can open it again.
    const again = await new ScriptedPsu(t.app).open(tpp._links.scaRedirect.href);
    assert.match(again.body, /This link does not work/);
  });
});

describe('binding rules (src/domain/request-binding.ts)', () => {
  const base: RequestBinding = {
    tppId: 'T',
    requestId: 'r',
    method: 'GET',
    target: '/v1/x',
    bodySha256: 'e3',
    scope: 'strict',
    expiresAt: new Date(0),
  };

  it('lets an exact retry pass and refuses any difference of method, target or body', () => {
    assert.equal(bindingConflict(base, { ...base }), undefined);
    for (const change of [{ method: 'DELETE' }, { target: '/v1/x?y=1' }, { bodySha256: 'ff' }]) {
      assert.ok(bindingConflict(base, { ...base, ...change }), JSON.stringify(change));
    }
  });

  it('lets test-data operations share an X-Request-ID, but never with an operation of production, whichever came first', () => {
    const testData = { ...base, scope: 'test-data' as const };
    assert.equal(
      bindingConflict(testData, { ...testData, method: 'POST', target: '/v1/sandbox/customers' }),
      undefined,
    );
    assert.ok(bindingConflict(base, { ...testData, method: 'POST', target: '/v1/sandbox/initialize' }));
    assert.ok(bindingConflict(testData, { ...base, method: 'DELETE', target: '/v1/payments/p/1' }));
  });

  it('lasts until the Date could no longer pass the skew check, or without Date until the certificate expires', () => {
    const notAfter = new Date('2030-01-01T00:00:00Z');
    assert.equal(signatureAcceptableUntil(undefined, 300, notAfter).toISOString(), notAfter.toISOString());
    assert.equal(
      signatureAcceptableUntil(Date.parse('2026-11-22T10:00:00Z'), 300, notAfter).toISOString(),
      '2026-11-22T10:05:00.000Z',
    );
    assert.equal(
      signatureAcceptableUntil(Date.parse('2029-12-31T23:59:00Z'), 300, notAfter).toISOString(),
      notAfter.toISOString(),
    );
  });
});

describe('the binding on disk before the answer (Store.durable)', () => {
  let t: TestApp;
  /** While set, the store says its commits are not yet on disk. */
  let unflushed: { promise: Promise<void>; resolve: () => void } | undefined;
  let asked = 0;
  let diskFails = false;
  const unflushedNow = () => unflushed !== undefined;
  before(async () => {
    // In memory: no flush of its own, so the only wait is the one this test controls.
    const real = SqliteStore.open(':memory:');
    await real.migrate();
    // The store as the app sees it, with a disk that flushes only when the test says so.
    const store = new Proxy(real, {
      get(target, property) {
        if (property === 'durable') {
          return () => {
            asked += 1;
            if (diskFails) return Promise.reject(new Error('EIO: the disk failed'));
            return unflushed?.promise ?? Promise.resolve();
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Store;
    t = await startTestApp({ store });
  });
  after(() => t.close());

  it('answers a signed request only once its X-Request-ID binding is flushed, refuses its replay on that binding (answered after the same flush), and answers an unsigned one at once', async () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    unflushed = { promise, resolve };
    const status = `${CROSS_BORDER_PATH}/${randomUUID()}/status`;
    const captured = capture(t, 'GET', status);
    let answered = false;
    const read = send(t, 'GET', status, captured).then((response) => {
      answered = true;
      return response;
    });
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200, 'an unsigned request binds nothing and waits for nothing');
    const turn = () => new Promise((r) => setImmediate(r));
    for (let i = 0; i < 1000 && asked === 0; i++) await turn();
    assert.equal(asked, 1, "the request asked for its binding's flush");
    // The read itself is a few turns of the event loop (an in-memory database): without the wait it is answered within these.
    for (let i = 0; i < 200; i++) await turn();
    assert.equal(answered, false, 'the answer waits for the flush that covers its binding');
    // The binding is committed before its flush: a replay as another operation is already refused,
    // and its refusal, resting on that binding, waits for the same flush.
    let refusedEarly = false;
    const replay = send(t, 'DELETE', `${CROSS_BORDER_PATH}/${randomUUID()}`, captured).then((response) => {
      refusedEarly = unflushedNow();
      return response;
    });
    for (let i = 0; i < 1000 && asked < 2; i++) await turn();
    assert.equal(asked, 2, 'the refusal asked for the flush of the binding it rests on');
    for (let i = 0; i < 200; i++) await turn();
    assert.equal(refusedEarly || answered, false, 'neither is answered before the flush');
    unflushed.resolve();
    unflushed = undefined;
    assertReplayRefused(await replay, /GET/);
    assert.equal((await read).statusCode, 404);
  });

  it('answers 500 with the error body when the flush of its binding fails, whatever the answer was to be: nothing is acknowledged that may not be on disk', async () => {
    diskFails = true;
    try {
      // One answer that was to be an error (404), one that was to be a success (200).
      for (const url of [`${CROSS_BORDER_PATH}/${randomUUID()}/status`, '/v1/sandbox/customers']) {
        const response = await t.signed({ method: 'GET', url });
        const body = assertErrorBody(response, 500, 'SYSTEM_ERROR');
        assert.equal(body.message, undefined, 'nothing of the fault reaches the client');
      }
      // A create that was to be answered 201: no Location of a payment that may not be on disk.
      const created = await createCrossBorder(t, {
        body: { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } },
      });
      assertErrorBody(created, 500, 'SYSTEM_ERROR');
      assert.equal(created.headers.location, undefined);
    } finally {
      diskFails = false;
    }
  });
});
