import assert from 'node:assert/strict';
import pg from 'pg';
import type { NewPayment } from '../../src/domain/payments/payment.js';
import { paymentRow, tppRequestRow, transferRows } from '../../src/store/payment-rows.js';
import { json } from '../../src/store/postgres/postgres-hot-path.js';
import { requestFor, transferRowBefore } from './new-payment.js';

/**
 * A create as an instance of the version before `migration` makes it during a rolling upgrade on
 * PostgreSQL: psd2_create_payment called with transfers that lack the columns `migration` added.
 * Asserts that it was created, and returns the stored transfer's row.
 */
export async function createAsInstanceBefore(
  migration: '012' | '013',
  databaseUrl: string,
  payment: NewPayment,
  duplicatesSince: Date | null,
): Promise<Record<string, string> & { duplicate_hash: string; duplicate_scope: string; duplicate_day: string }> {
  const client = new pg.Client(databaseUrl);
  await client.connect();
  try {
    const { rows } = await client.query<{ result: { outcome: string } }>(
      'select psd2_create_payment($1, $2, $3, $4, $5, $6) as result',
      [
        `psu|${payment.tppId}|${payment.psu.key}`,
        json(tppRequestRow(requestFor(payment), payment.id, payment.createdAt.toISOString())),
        json(paymentRow(payment, '')),
        null,
        json(transferRows(payment).map((row) => transferRowBefore(migration, row))),
        duplicatesSince?.toISOString() ?? null,
      ],
    );
    assert.equal(rows[0]!.result.outcome, 'created');
    return (
      await client.query<
        Record<string, string> & { duplicate_hash: string; duplicate_scope: string; duplicate_day: string }
      >('select * from transfers where payment_id = $1', [payment.id])
    ).rows[0]!;
  } finally {
    await client.end();
  }
}
