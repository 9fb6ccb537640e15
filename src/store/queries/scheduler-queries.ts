import { type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { HELD_BY_SCENARIO, STANDING_ORDER_RUNNING, WAITING_FOR_RUN } from './payment-index-conditions.js';
import type { BankWithWork } from '../upkeep-records.js';

/**
 * The banks with work for the scheduler (docs/decisions/0272): each read goes through a partial index of
 * waiting payments (payments_due,
 * payments_periodic_due, both led by bank), so it reads a row per waiting payment, never one per bank.
 */
export async function findBanksWithWork(db: Kysely<Database>): Promise<BankWithWork[]> {
  const waiting = await db.selectFrom('payments').select('bank').where(WAITING_FOR_RUN).groupBy('bank').execute();
  // Payments a sandbox scenario holds until a time (payments_held, migration 019) wait for a run too.
  const held = await db.selectFrom('payments').select('bank').where(HELD_BY_SCENARIO).groupBy('bank').execute();
  const standing = await db
    .selectFrom('payments')
    .select(['bank', (eb) => eb.fn.min<string>('requested_execution_date').as('next')])
    .where(STANDING_ORDER_RUNNING)
    .groupBy('bank')
    .execute();
  const work = new Map<string, BankWithWork>();
  const entry = (bank: string) => {
    let found = work.get(bank);
    if (found === undefined) {
      found = { bank, clockOffsetMs: 0n, paymentsWaiting: false, nextStandingOrderDate: undefined };
      work.set(bank, found);
    }
    return found;
  };
  for (const { bank } of [...waiting, ...held]) entry(bank).paymentsWaiting = true;
  for (const { bank, next } of standing) entry(bank).nextStandingOrderDate = next ?? undefined;
  const banks = [...work.keys()];
  for (let i = 0; i < banks.length; i += CLOCKS_PER_READ) {
    const rows = await db
      .selectFrom('banks')
      .select(['bank', 'clock_offset_ms'])
      .where('bank', 'in', banks.slice(i, i + CLOCKS_PER_READ))
      .execute();
    for (const row of rows) work.get(row.bank)!.clockOffsetMs = BigInt(row.clock_offset_ms);
  }
  return [...work.values()].sort((a, b) => (a.bank < b.bank ? -1 : a.bank > b.bank ? 1 : 0));
}

/** Banks whose clocks one statement reads: within SQLite's 32 766 bound parameters and PostgreSQL's 65 535. */
const CLOCKS_PER_READ = 1000;

export async function listClockOffsets(db: Kysely<Database>): Promise<bigint[]> {
  const rows = await db.selectFrom('banks').select('clock_offset_ms').distinct().execute();
  return rows.map((r) => BigInt(r.clock_offset_ms));
}
