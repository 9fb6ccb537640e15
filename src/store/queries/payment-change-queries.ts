import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type { Database } from '../database.js';
import type { PaymentChange, PaymentChangeQuery } from '../payment-store.js';

/**
 * Payments of one creator in a bank in the order their status changed (change_seq, which the triggers
 * of migration 030 write with every change), after a place, oldest first, up to the first change too
 * recent to give out (written less than `settleMs` ago); or one payment's. The reference core's feed of
 * status reports (src/core/embedded/ledger-payments.ts) reads it.
 *
 * "Ago" is by the database's clock, the one its triggers wrote changed_at_ms with: a PostgreSQL
 * server's clock that differs from the process's cannot shorten the settle time.
 */
export async function paymentChanges(
  db: Kysely<Database>,
  tppId: string,
  bank: string,
  query: PaymentChangeQuery,
): Promise<PaymentChange[]> {
  const changes = db
    .selectFrom('payments')
    .select(['id', 'service', 'status', 'status_reason', 'updated_at', 'change_seq'])
    .where('tpp_id', '=', tppId)
    .where('bank', '=', bank);
  if ('paymentId' in query) return (await changes.where('id', '=', query.paymentId).execute()).map(changeOf);
  const databaseNowMs =
    db.getExecutor().adapter instanceof SqliteAdapter
      ? sql<number>`cast(unixepoch('subsec') * 1000 as integer)`
      : sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
  const rows = await changes
    .select(
      sql<number>`case when changed_at_ms <= ${databaseNowMs} - ${query.settleMs} then 1 else 0 end`.as('settled'),
    )
    // `change_seq >` also names the partial index's predicate (is not null) to both engines.
    .where('change_seq', '>', query.after)
    .orderBy('change_seq')
    .limit(query.limit)
    .execute();
  const unsettled = rows.findIndex((row) => Number(row.settled) !== 1);
  return (unsettled === -1 ? rows : rows.slice(0, unsettled)).map(changeOf);
}

function changeOf(row: {
  id: string;
  service: string;
  status: string;
  status_reason: string | null;
  updated_at: string;
  change_seq: number | bigint | null;
}): PaymentChange {
  return {
    paymentId: row.id,
    service: row.service,
    status: row.status as TransactionStatus,
    statusReason: row.status_reason ?? undefined,
    updatedAt: row.updated_at,
    changeSeq: Number(row.change_seq ?? 0),
  };
}
