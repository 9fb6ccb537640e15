import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../database.js';
import type { RetentionKind } from '../upkeep-records.js';
import { BANK_TABLES, type BankTable } from './bank-tables.js';

/** The row key a chunked delete names its rows by: SQLite's rowid, PostgreSQL's ctid (every table has one). */
export type RowKey = 'rowid' | 'ctid';

/** The bank the retention job claims its runs under in batch_runs: no organisation identifier looks like it. */
const RETENTION_CLAIMS = '#retention';

/** Deletes at most `limit` rows of `table` that `where` selects, in one statement; the count deleted. */
async function deleteChunk(
  db: Kysely<Database>,
  rowKey: RowKey,
  table: string,
  where: RawBuilder<boolean>,
  limit: number,
): Promise<number> {
  const key = sql.raw(rowKey);
  const result =
    await sql`delete from ${sql.table(table)} where ${key} in (select ${key} from ${sql.table(table)} where ${where} limit ${limit})`.execute(
      db,
    );
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * One chunk of one kind of data past its keeping (docs/retention.md): what each kind is, by the
 * instant `before` the caller computed from its period.
 */
export function deleteRetained(
  db: Kysely<Database>,
  rowKey: RowKey,
  kind: RetentionKind,
  before: Date,
  limit: number,
): Promise<number> {
  const at = before.toISOString();
  const day = at.slice(0, 10);
  const chunk = (table: string, where: RawBuilder<boolean>) => deleteChunk(db, rowKey, table, where, limit);
  switch (kind) {
    case 'request-bindings':
      return chunk('request_bindings', sql<boolean>`expires_at < ${at}`);
    case 'authorisations':
      // A PSU's approval of a payment is kept with the payment (kind 'payments' below); every other
      // authorisation (consents, sessions, and those that failed or were never used) once expired.
      return chunk(
        'authorisations',
        sql<boolean>`expires_at < ${at} and (kind in ('consent', 'session') or status <> 'finalised')`,
      );
    case 'consents-never-given':
      // A consent whose SCA never happened: a read's 401 challenge, or a consent the PSU left.
      return chunk('ais_consents', sql<boolean>`sca_at is null and created_at < ${at}`);
    case 'consents':
      // A consent whose SCA is past its 180 days (the caller's `before`): no read reaches it any more.
      return chunk('ais_consents', sql<boolean>`sca_at < ${at}`);
    case 'psu-sessions':
      return chunk('psu_sessions', sql<boolean>`last_sca_at < ${at}`);
    case 'console-sessions':
      // Expired console sessions, then the used links, which need remembering only until they expire.
      return chunk('console_sessions', sql<boolean>`expires_at < ${at}`).then(async (n) =>
        n > 0 ? n : chunk('console_link_uses', sql<boolean>`expires_at < ${at}`),
      );
    case 'code-attempts':
      return chunk('psu_code_attempts', sql<boolean>`at < ${at}`);
    case 'retention-claims':
      return chunk('batch_runs', sql<boolean>`bank = ${RETENTION_CLAIMS} and slot < ${at}`);
    case 'notifications':
      // Ended notifications, then the tries of notifications no longer kept, then the subscriptions
      // of resources no longer kept (a payment, consent or authorisation the job deleted).
      return chunk('notification_events', sql<boolean>`ended_at < ${at}`)
        .then(async (n) =>
          n > 0
            ? n
            : chunk(
                'notification_attempts',
                sql<boolean>`not exists (select 1 from notification_events e where e.seq = notification_attempts.event_seq)`,
              ),
        )
        .then(async (n) => (n > 0 ? n : chunk('notification_subscriptions', orphanSubscription)));
    case 'payments':
      return chunk('payments', sql<boolean>`status in ('ACSC', 'RJCT', 'CANC', 'PART') and updated_at < ${at}`).then(
        async (n) =>
          n > 0
            ? n
            : chunk(
                'authorisations',
                sql<boolean>`kind in ('payment', 'basket', 'cancellation') and expires_at < ${at}`,
              ),
      );
    case 'booked-transactions':
      return chunk('account_transactions', sql<boolean>`booking_date < ${day}`).then(async (n) =>
        n > 0 ? n : chunk('card_transactions', sql<boolean>`booking_date < ${day}`),
      );
  }
}

/** A subscription whose resource is gone: deleted by this job (payments, consents, authorisations) or never kept. */
const orphanSubscription = sql<boolean>`case resource_kind
    when 'payment' then not exists (select 1 from payments p where p.id = resource_id)
    when 'consent' then not exists (select 1 from ais_consents c where c.id = resource_id)
    when 'authorisation' then not exists (select 1 from authorisations a where a.id = resource_id)
    when 'basket' then not exists (select 1 from baskets b where b.id = resource_id)
    else false end`;

/** Claims the retention run of a slot for this instance; false when another claimed it (batch_runs' key decides). */
export async function claimRetentionRun(db: Kysely<Database>, slot: string, at: Date): Promise<boolean> {
  const result = await db
    .insertInto('batch_runs')
    .values({ bank: RETENTION_CLAIMS, slot, started_at: at.toISOString(), finished_at: null, executed: 0, rejected: 0 })
    .onConflict((oc) => oc.columns(['bank', 'slot']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** Sandbox banks unused since `before` (and not being removed already), oldest first. */
export async function findIdleBanks(db: Kysely<Database>, before: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('banks')
    .select('bank')
    .where('used_at', '<', before.toISOString())
    .where('bank', '<>', '')
    .orderBy('used_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.bank);
}

/**
 * Marks an idle bank as being removed (used_at null), unless a request used it since: from then its
 * requests are answered 503 until it is gone (Banks.enter), and it is removed chunk by chunk.
 */
export async function markBankRemoving(db: Kysely<Database>, bank: string, before: Date): Promise<boolean> {
  const result = await db
    .updateTable('banks')
    .set({ used_at: null })
    .where('bank', '=', bank)
    .where('used_at', '<', before.toISOString())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes one chunk of a bank being removed, from the first of its tables that has rows (BANK_TABLES:
 * children first, the snapshots among them); when none has any, the bank's row and keys. The count
 * deleted; 0 when the bank is gone.
 */
export async function deleteBankChunk(
  db: Kysely<Database>,
  rowKey: RowKey,
  bank: string,
  limit: number,
): Promise<number> {
  const deleted = await deleteBankRowsChunk(db, rowKey, BANK_TABLES, bank, limit);
  if (deleted > 0) return deleted;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('bank_keys').where('bank', '=', bank).execute();
    await trx.deleteFrom('banks').where('bank', '=', bank).where('used_at', 'is', null).execute();
  });
  return 0;
}

/**
 * Deletes at most `limit` of the bank's rows, from the first of `tables` that has any (children
 * first, as BANK_TABLES lists them); 0 when none has. A restore empties a bank this way, chunk by chunk.
 */
export async function deleteBankRowsChunk(
  db: Kysely<Database>,
  rowKey: RowKey,
  tables: readonly BankTable[],
  bank: string,
  limit: number,
): Promise<number> {
  for (const { table, where } of tables) {
    const deleted = await deleteChunk(db, rowKey, table, where(bank), limit);
    if (deleted > 0) return deleted;
  }
  return 0;
}
