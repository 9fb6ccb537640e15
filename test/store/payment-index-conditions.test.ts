import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  HELD_BY_SCENARIO_TEXT,
  STANDING_ORDER_RUNNING_TEXT,
  WAITING_FOR_RUN_TEXT,
} from '../../src/store/queries/payment-index-conditions.js';

/**
 * The conditions the batch run's and the scheduler's reads name are built from the lifecycle's
 * statuses (domain/payment-lifecycle.ts); a partial index is used only when a read names its
 * condition as the migration wrote it. A change of the lifecycle's lists fails here, at the index,
 * rather than as reads that scan the table.
 */
const migration = (name: string) => readFileSync(`src/store/migrations/${name}`, 'utf8');

describe('the partial indexes of payments and the lifecycle', () => {
  it('names each index condition as its migration wrote it', () => {
    const m019 = migration('019-sandbox-scenarios.ts');
    assert.ok(m019.includes(`\`${WAITING_FOR_RUN_TEXT}\``), `payments_due: ${WAITING_FOR_RUN_TEXT}`);
    assert.ok(m019.includes(`\`${HELD_BY_SCENARIO_TEXT}\``), `payments_held: ${HELD_BY_SCENARIO_TEXT}`);
    assert.ok(
      migration('014-periodic-payments.ts').includes(`\`${STANDING_ORDER_RUNNING_TEXT}\``),
      `payments_periodic_due: ${STANDING_ORDER_RUNNING_TEXT}`,
    );
  });
});
