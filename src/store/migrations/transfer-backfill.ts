import { type Kysely, type RawBuilder, sql } from 'kysely';
import { duplicateHashScope } from '../duplicate-hash.js';

/** Rows of transfers a SQLite backfill reads at a time: a sandbox's table of millions is never held whole. */
const BACKFILL_BATCH_ROWS = 10_000;

/** What a backfill is given of each transfer: its columns that make the duplicate keys, and its TPP-and-PSU scope. */
export interface TransferToBackfill {
  id: number;
  tpp_id: string;
  psu_key: string;
  duplicate_key: string;
  created_at: string;
  scope: bigint;
}

/**
 * SQLite, which has no SHA-256 in SQL: runs `update(row)` for every transfer (created at or after
 * `createdSince`, when given), a batch at a time in rowid order (migrations 012 and 013 give the rows
 * stored before them their duplicate keys). The scope of each TPP and PSU is computed once.
 */
export async function backfillTransfers(
  db: Kysely<unknown>,
  update: (row: TransferToBackfill) => RawBuilder<unknown>,
  createdSince = '',
): Promise<void> {
  const scopes = new Map<string, bigint>();
  for (let after = 0; ;) {
    const { rows } = await sql<
      Omit<TransferToBackfill, 'scope'>
    >`select rowid as id, tpp_id, psu_key, duplicate_key, created_at
      from transfers where rowid > ${after} and created_at >= ${createdSince} order by rowid limit ${BACKFILL_BATCH_ROWS}`.execute(
      db,
    );
    if (rows.length === 0) return;
    for (const row of rows) {
      const scopeKey = `${row.tpp_id}\n${row.psu_key}`;
      let scope = scopes.get(scopeKey);
      if (scope === undefined) scopes.set(scopeKey, (scope = duplicateHashScope(row.tpp_id, row.psu_key)));
      await update({ ...row, scope }).execute(db);
    }
    after = rows.at(-1)!.id;
  }
}
