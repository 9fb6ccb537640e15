import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LedgerPayments } from '../../src/core/embedded/ledger-payments.js';
import { CORE_REPORT_SETTLE_MS } from '../../src/domain/limits.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { ndctBody } from '../support/single-payment-requests.js';

/**
 * The feed gives out a change only once no transaction that began before it can still commit
 * (CORE_REPORT_SETTLE_MS): a cursor given out never has a change land behind it.
 */
describe('the embedded core’s feed of status reports holds back changes younger than the settle time', () => {
  let dir: string;
  let store: Store;
  let nowMs = Date.parse('2026-11-30T10:00:00Z');

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ledger-payments-feed-'));
    store = await openStore({ kind: 'sqlite', path: join(dir, 'core.db') });
    await store.migrate();
    await store.openBank('', new Date(nowMs), defaultDataSet);
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reports a change once it is CORE_REPORT_SETTLE_MS old, not before', async () => {
    const payments = new LedgerPayments(store, {
      now: async () => new Date(nowMs),
      rates: new ReferenceRates(SANDBOX_REFERENCE_RATES),
    });
    const paymentId = `enc!!core-${randomUUID()}`;
    await payments.submit('', {
      paymentId,
      paymentService: 'payments',
      paymentProduct: 'norwegian-domestic-credit-transfers',
      initiation: ndctBody(),
      transactionFees: { amountMinor: 0n, currency: 'NOK' },
      signerCustomerId: undefined,
      authorisedAt: new Date(nowMs),
    });
    const young = await payments.reports('', undefined, 10);
    assert.deepEqual(young, { reports: [], cursor: undefined });
    nowMs += CORE_REPORT_SETTLE_MS - 1;
    assert.deepEqual((await payments.reports('', undefined, 10)).reports, []);
    nowMs += 1;
    const settled = await payments.reports('', undefined, 10);
    assert.deepEqual(
      settled.reports.map((r) => [r.paymentId, r.transactionStatus]),
      [[paymentId, 'ACSP']],
    );
    assert.equal(
      (await payments.report('', paymentId))?.transactionStatus,
      'ACSP',
      'a payment’s own report is at once',
    );
  });

  // Found by test/process/core-kill.test.ts: a core killed between taking a payment and deciding it
  // reported it ACSP in its feed, and the server took it as accepted before the hand-over's retry.
  it('leaves out a payment taken but not decided (RCVD), and reports it once the retried hand-over decides it', async () => {
    const payments = new LedgerPayments(store, {
      now: async () => new Date(nowMs),
      rates: new ReferenceRates(SANDBOX_REFERENCE_RATES),
    });
    const order = {
      paymentId: `enc!!core-${randomUUID()}`,
      paymentService: 'payments',
      paymentProduct: 'norwegian-domestic-credit-transfers',
      initiation: ndctBody(),
      transactionFees: { amountMinor: 0n, currency: 'NOK' },
      signerCustomerId: undefined,
      authorisedAt: new Date(nowMs),
    };
    await payments.submit('', order);
    const { cursor } = await payments.reports('', undefined, 1_000);
    // As a core killed between its create and its decision leaves it: RCVD, not decided.
    await (store as unknown as { db: import('kysely').Kysely<import('../../src/store/database.js').Database> }).db
      .updateTable('payments')
      .set({ status: 'RCVD', updated_at: new Date(nowMs + 1).toISOString() })
      .where('id', '=', order.paymentId)
      .execute();
    nowMs += CORE_REPORT_SETTLE_MS + 10;
    const stuck = await payments.reports('', cursor, 1_000);
    assert.deepEqual(
      stuck.reports.map((r) => r.paymentId),
      [],
      'not reported while undecided',
    );
    await payments.submit('', order);
    nowMs += CORE_REPORT_SETTLE_MS + 10;
    const decided = await payments.reports('', stuck.cursor, 1_000);
    assert.deepEqual(
      decided.reports.map((r) => [r.paymentId, r.transactionStatus]),
      [[order.paymentId, 'ACSP']],
    );
  });
});
