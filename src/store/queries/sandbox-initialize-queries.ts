import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { SANDBOX_BULK_SLICE_ROWS } from '../../domain/limits.js';
import { BANK_TABLES } from './bank-tables.js';
import { type RowKey, deleteBankRowsChunk } from './retention-queries.js';
import type { Database } from '../database.js';
import type { BankData } from '../sca-records.js';
import type { SandboxInitializeResult } from '../sandbox-records.js';
import { saveBankData } from './bank-queries.js';
import type { TransactionLock } from './transaction-lock.js';

/**
 * POST /v1/sandbox/initialize: on SQLite the bank's account and card transactions, which can be tens
 * of thousands, are deleted first in chunks of SANDBOX_BULK_SLICE_ROWS, each its own statement with a
 * turn of the event loop after it (the caller keeps the bank's own requests out meanwhile); then, in
 * one transaction under the bank's lock, every customer of the bank with all it holds (cascade) and
 * its armed scenarios are removed and the default data set loaded afresh. Payments are kept: they
 * name accounts by number, not by key. Interrupted after the chunks, the bank has lost transactions
 * only, which the initialize sent again removes anyway.
 */
/** The largest tables of a bank, which its customers' removal would otherwise delete in one statement. */
const TRANSACTION_TABLES = BANK_TABLES.filter(
  (t) => t.table === 'account_transactions' || t.table === 'card_transactions',
);

export async function initialize(
  db: Kysely<Database>,
  lock: TransactionLock,
  rowKey: RowKey,
  bank: string,
  defaults: BankData,
): Promise<SandboxInitializeResult> {
  // SQLite's one connection would hold every other bank's request for the whole delete: there the
  // transactions go first in slices. PostgreSQL's other sessions go on meanwhile, so its delete stays
  // one statement, as its restore's does.
  if (rowKey === 'rowid')
    while ((await deleteBankRowsChunk(db, rowKey, TRANSACTION_TABLES, bank, SANDBOX_BULK_SLICE_ROWS)) > 0)
      await nextTurn();
  return db.transaction().execute(async (trx) => {
    await lock(trx, `bank|${bank}`);
    const own = await trx
      .selectFrom('customers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('bank', '=', bank)
      .where('tpp_id', 'is not', null)
      .executeTakeFirst();
    await trx.deleteFrom('agreements').where('bank', '=', bank).execute();
    // The sessions of the bank's customers go with them (no cascade since migration 022).
    await trx
      .deleteFrom('psu_sessions')
      .where('customer_id', 'in', trx.selectFrom('customers').select('id').where('bank', '=', bank))
      .execute();
    await trx.deleteFrom('customers').where('bank', '=', bank).execute();
    // A fresh start for a test suite: no scenario a run before it armed outlives it.
    await trx.deleteFrom('sandbox_scenarios').where('bank', '=', bank).execute();
    await saveBankData(trx, bank, defaults);
    return { deletedCustomers: Number(own?.n ?? 0) };
  });
}
