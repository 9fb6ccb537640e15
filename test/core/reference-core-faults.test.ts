import { ndctOrder } from '../support/core-orders.js';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreUnavailable } from '../../src/core/bank-core.js';
import { parseCoreKey, signCoreRequest, verifyCoreSignature } from '../../src/core/http/core-signature.js';
import { HttpCore } from '../../src/core/http/http-core.js';
import { NO_FAULTS } from '../../src/reference-core/faults.js';
import { type ReferenceCore, startReferenceCore } from '../../src/reference-core/reference-core.js';

const KEY = parseCoreKey('5a'.repeat(32), 'test');

const order = () => ndctOrder();

/** Waits for a condition, checking it every few milliseconds: no fixed sleeps. */
async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Stats {
  handOvers: number;
  distinctPayments: number;
  executions: Record<string, number>;
  executedTwice: string[];
  pushedReports: number;
  droppedReports: number;
}

describe('the reference core: signature, fault switches, callbacks', () => {
  let dir: string;
  let reference: ReferenceCore;
  let callback: Server;
  /** The reports the server's callback received, by payment: the statuses in the order they came. */
  const received = new Map<string, string[]>();
  const callbackProblems: string[] = [];
  let failCallbacks = 0;
  let callbackUrl: URL;

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(`${reference.url}${path}`, {
      method,
      headers: {
        'core-signature': signCoreRequest(KEY, method, path, text, new Date()),
        ...(text === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(text === undefined ? {} : { body: text }),
    });
    return { status: response.status, body: await response.json() };
  }
  const faults = async (changes: Record<string, unknown>) => {
    assert.equal((await call('POST', '/admin/faults', changes)).status, 200);
  };
  const stats = async () => (await call('GET', '/admin/stats')).body as Stats;
  const runBatch = async () => assert.equal((await call('POST', '/admin/run-batch')).status, 200);
  const core = (timeoutMs = 2000) =>
    new HttpCore({ url: reference.url, key: KEY, timeoutMs, breaker: { failures: 100, openMs: 1000 } });

  before(async () => {
    callback = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const problem = verifyCoreSignature(
          KEY,
          request.headers['core-signature'] as string | undefined,
          request.method!,
          request.url!,
          body,
          new Date(),
        );
        if (problem !== undefined) callbackProblems.push(problem);
        if (failCallbacks > 0) {
          failCallbacks -= 1;
          response.writeHead(500).end();
          return;
        }
        for (const report of (JSON.parse(body) as { reports: { paymentId: string; transactionStatus: string }[] })
          .reports) {
          received.set(report.paymentId, [...(received.get(report.paymentId) ?? []), report.transactionStatus]);
        }
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    dir = await mkdtemp(join(tmpdir(), 'reference-core-faults-'));
    reference = await startReferenceCore({
      host: '127.0.0.1',
      port: 0,
      database: { kind: 'sqlite', path: join(dir, 'core.db') },
      key: KEY,
      callbackUrl: (callbackUrl = new URL(
        `http://127.0.0.1:${(callback.address() as AddressInfo).port}/core/v1/status-reports`,
      )),
      faults: NO_FAULTS,
    });
  });
  after(async () => {
    await reference.close();
    callback.closeAllConnections();
    await new Promise((resolve) => callback.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a request without a valid Core-Signature', async () => {
    const unsigned = await fetch(`${reference.url}/status-reports?limit=1`);
    assert.equal(unsigned.status, 401);
    const other = new HttpCore({ url: reference.url, key: parseCoreKey('11'.repeat(32), 'other') });
    await assert.rejects(other.paymentReport('', 'p1'), (e) => e instanceof CoreUnavailable && /401/.test(e.reason));
  });

  it('down and error500: every operation fails, the server reads CoreUnavailable; then it recovers', async () => {
    const client = core();
    await faults({ down: true });
    await assert.rejects(
      client.findAccount('', { bban: '15061012343' }),
      (e) => e instanceof CoreUnavailable && /503/.test(e.reason),
    );
    await faults({ down: false, error500: true });
    await assert.rejects(
      client.findAccount('', { bban: '15061012343' }),
      (e) => e instanceof CoreUnavailable && /500/.test(e.reason),
    );
    await faults({ error500: false });
    assert.equal((await client.findAccount('', { bban: '15061012343' }))?.bban, '15061012343');
  });

  it('slowMs: a call that outlasts the timeout is CoreUnavailable', async () => {
    await faults({ slowMs: 400 });
    try {
      await assert.rejects(
        core(100).paymentReport('', 'p1'),
        (e) => e instanceof CoreUnavailable && /100 ms/.test(e.reason),
      );
    } finally {
      await faults({ slowMs: 0 });
    }
  });

  it('answerTwice, and every hand-over sent twice: each payment executes once', async () => {
    const client = core();
    await faults({ answerTwice: true });
    const orders = Array.from({ length: 10 }, () => order());
    try {
      await Promise.all(orders.map((o) => client.submitPayment('', o)));
      await Promise.all(orders.map((o) => client.submitPayment('', o)));
    } finally {
      await faults({ answerTwice: false });
    }
    await runBatch();
    await runBatch();
    const counted = await stats();
    assert.deepEqual(counted.executedTwice, []);
    for (const o of orders) assert.equal(counted.executions[o.paymentId], 1, o.paymentId);
    for (const o of orders) assert.equal((await client.paymentReport('', o.paymentId))?.transactionStatus, 'ACSC');
  });

  it('pushes status reports to the callback, signed, and tries again until it is taken', async () => {
    const client = core();
    const o = order();
    failCallbacks = 2;
    await client.submitPayment('', o);
    await waitFor('the accepted report at the callback', () => received.get(o.paymentId)?.includes('ACSP') === true);
    await runBatch();
    await waitFor('the executed report at the callback', () => received.get(o.paymentId)?.includes('ACSC') === true);
    assert.deepEqual(callbackProblems, []);
    assert.equal(failCallbacks, 0, 'the failed pushes were tried again');
  });

  it('loseCallback: the pushes are dropped, and polling the feed finds the change', async () => {
    const client = core();
    await faults({ loseCallback: true });
    const o = order();
    try {
      await client.submitPayment('', o);
      await runBatch();
      await waitFor('the reports to be dropped', async () => (await stats()).droppedReports > 0);
    } finally {
      await faults({ loseCallback: false });
    }
    assert.equal(received.has(o.paymentId), false);
    let cursor: string | undefined;
    const seen: string[] = [];
    for (;;) {
      const page = await client.statusReports('', cursor, 100);
      if (page.reports.length === 0) break;
      seen.push(...page.reports.filter((r) => r.paymentId === o.paymentId).map((r) => r.transactionStatus));
      cursor = page.cursor;
    }
    assert.deepEqual(seen, ['ACSC']);
  });

  it('after a restart, pushes on from where the last push left: nothing the server took is pushed again', async () => {
    const before = order();
    await core().submitPayment('', before);
    await waitFor('the report before the restart', () => received.get(before.paymentId)?.includes('ACSP') === true);
    const seen = new Map([...received].map(([id, statuses]) => [id, statuses.length]));
    await reference.close();
    reference = await startReferenceCore({
      host: '127.0.0.1',
      port: 0,
      database: { kind: 'sqlite', path: join(dir, 'core.db') },
      key: KEY,
      callbackUrl,
      faults: NO_FAULTS,
    });
    const after = order();
    await core().submitPayment('', after);
    // The feed is pushed in order: a report pushed again would have come before this one.
    await waitFor('the report after the restart', () => received.get(after.paymentId)?.includes('ACSP') === true);
    for (const [id, count] of seen) assert.equal(received.get(id)?.length, count, `${id} pushed again`);
  });
});
