import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { BankData } from '../sca-records.js';
import type { SandboxInitializeResult } from '../sandbox-records.js';
import { saveBankData } from './bank-queries.js';
import type { TransactionLock } from './transaction-lock.js';

/**
 * POST /v1/sandbox/initialize, in one transaction under the bank's lock: removes every customer of
 * the bank with all it holds (cascade) and its armed scenarios, and loads the default data set afresh.
 * Payments are kept: they name accounts by number, not by key.
 */
export async function initialize(
  db: Kysely<Database>,
  lock: TransactionLock,
  bank: string,
  defaults: BankData,
): Promise<SandboxInitializeResult> {
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
