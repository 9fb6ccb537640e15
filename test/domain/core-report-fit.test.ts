import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reportMisfit } from '../../src/domain/core-report-fit.js';

/** Decision 0374: a core's report is applied only when the payment can be what it says. */
describe('reportMisfit', () => {
  const single = { service: 'payments', entryCount: 1 };
  const bulk = { service: 'bulk-payments', entryCount: 3 };
  const order = { service: 'periodic-payments', entryCount: 1 };
  const of = (changes: Partial<Parameters<typeof reportMisfit>[0]>) => ({
    transactionStatus: 'ACSC' as const,
    entries: undefined,
    executions: undefined,
    ...changes,
  });

  it('takes the statuses every payment may have, and PART with entries it has for a bulk', () => {
    for (const payment of [single, bulk, order]) assert.equal(reportMisfit(of({}), payment), undefined);
    assert.equal(reportMisfit(of({ transactionStatus: 'PART', entries: [{ seq: 0 }, { seq: 2 }] }), bulk), undefined);
    assert.equal(reportMisfit(of({ executions: [{}] }), order), undefined);
  });

  it('refuses PART and entries for a payment that is no bulk, and an entry the bulk does not have', () => {
    assert.match(reportMisfit(of({ transactionStatus: 'PART' }), single) ?? '', /bulk only/);
    assert.match(reportMisfit(of({ entries: [{ seq: 0 }] }), order) ?? '', /bulk/);
    for (const seq of [3, -1, 999_999, 0.5])
      assert.match(reportMisfit(of({ entries: [{ seq }] }), bulk) ?? '', /no entry/);
  });

  it('refuses executions for a payment that is no standing order', () => {
    assert.match(reportMisfit(of({ executions: [{}] }), single) ?? '', /standing order/);
    assert.match(reportMisfit(of({ executions: [{}] }), bulk) ?? '', /standing order/);
  });
});
