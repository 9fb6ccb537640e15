import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EmbeddedCore } from '../../src/core/embedded/embedded-core.js';
import { LedgerPayments } from '../../src/core/embedded/ledger-payments.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import { Banks } from '../../src/services/banks.js';
import { BatchRunner } from '../../src/services/batch-runner.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { periodicBody } from '../support/periodic-requests.js';

/**
 * docs/core.md, "Standing orders": once handed over, a standing order's executions are the core's,
 * made by its batch on the order's own dates; the server asks for none of them and reads them in the
 * order's reports.
 */
describe('the core owns a handed-over standing order’s executions', () => {
  let dir: string;
  let store: Store;
  let nowMs = Date.now();
  const clock = { now: () => new Date(nowMs) };
  let core: EmbeddedCore;
  let runner: BatchRunner;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'embedded-standing-order-'));
    store = await openStore({ kind: 'sqlite', path: join(dir, 'core.db') });
    await store.migrate();
    await store.openBank('', clock.now(), defaultDataSet);
    const banks = new Banks(store, 'production', clock);
    const rates = new ReferenceRates(SANDBOX_REFERENCE_RATES);
    runner = new BatchRunner(store, banks, rates);
    core = new EmbeddedCore(
      store,
      new LedgerPayments(store, { now: async (bank) => (await banks.clockOfBank(bank)).now(), rates }),
    );
    // The bank's first catch-up marks where its batch runs start.
    await runner.catchUpBank('');
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('executes it on its date, once, and reports the execution and the next date', async () => {
    const start = new Date(nowMs);
    start.setUTCMonth(start.getUTCMonth() + 2, 1);
    const paymentId = `enc!!core-${randomUUID()}`;
    const first = await core.submitPayment('', {
      paymentId,
      paymentService: 'periodic-payments',
      paymentProduct: 'norwegian-domestic-credit-transfers',
      initiation: periodicBody({
        debtorAccount: { bban: '15061012343', currency: 'NOK' },
        startDate: start.toISOString().slice(0, 10),
        instructedAmount: { amount: '100.00', currency: 'NOK' },
      }),
      transactionFees: { amountMinor: 0n, currency: 'NOK' },
      signerCustomerId: undefined,
      authorisedAt: clock.now(),
    });
    assert.equal(first.transactionStatus, 'PDNG');
    const due = first.nextExecutionDate!;
    // The bank's clock reaches the execution date (noon in Norway), and its batch catches up.
    nowMs = Date.parse(`${due}T11:00:00Z`);
    await runner.catchUpBank('');
    await runner.catchUpBank('');
    const report = (await core.paymentReport('', paymentId))!;
    assert.deepEqual(
      report.executions?.map((e) => [e.executionDate, e.status]),
      [[due, 'ACSC']],
      'executed once, on its date',
    );
    assert.equal(report.transactionStatus, 'ACSP', 'running: accepted, with more executions to come');
    assert.ok(report.nextExecutionDate! > due);
    const changes = await core.statusReports('', undefined, 100);
    assert.ok(changes.reports.some((r) => r.paymentId === paymentId && r.executions?.length === 1));
  });
});
