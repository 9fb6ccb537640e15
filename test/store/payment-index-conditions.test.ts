import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ENDED_WITHOUT_EXECUTION } from '../../src/domain/payment-lifecycle.js';
import { createPaymentFunction } from '../../src/store/migrations/009-create-payment-function.js';
import { postgresSchema } from '../../src/store/migrations/postgres-schema.js';
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

describe("the logical-duplicate check and the lifecycle (PostgreSQL's create function, SQLite's statement)", () => {
  it('excludes from the duplicates the statuses the lifecycle ends without execution, in every function the migrations install', () => {
    const condition = `t.status not in (${ENDED_WITHOUT_EXECUTION.map((s) => `'${s}'`).join(', ')})`;
    const template = createPaymentFunction({ head: '', duplicateWhere: '', transferColumns: '', transferValues: '' });
    assert.ok(template.includes(condition), `psd2_create_payment: ${condition}`);
    const installed = postgresSchema.statements.filter((s) => s.includes('function psd2_create_payment('));
    assert.ok(installed.length > 0, 'the schema script installs the function');
    for (const statement of installed) assert.ok(statement.includes(condition), condition);
  });
});
