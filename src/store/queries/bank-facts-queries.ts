import { type Kysely, sql } from 'kysely';
import { BANK_SCENARIO_KINDS } from '../../domain/sandbox-scenarios.js';
import type { Database } from '../database.js';
import type { BankFactsRead } from '../sandbox-data-store.js';

/**
 * What every signed sandbox request reads of its bank, in one statement: the clock's offset,
 * whether a bank fault is armed, and the version both are of (migration 029). A bank without a row
 * is at offset 0 with nothing armed, version -1 (no row can have it).
 */
export async function readBankFacts(db: Kysely<Database>, bank: string): Promise<BankFactsRead> {
  const row = await db
    .selectFrom('banks')
    .select((eb) => [
      'clock_offset_ms',
      'facts_version',
      eb
        .exists(
          eb
            .selectFrom('sandbox_scenarios')
            .select(sql.lit(1).as('one'))
            .where('bank', '=', bank)
            .where('kind', 'in', BANK_SCENARIO_KINDS),
        )
        .as('armed'),
    ])
    .where('bank', '=', bank)
    .executeTakeFirst();
  if (row === undefined) return { clockOffsetMs: 0n, faultArmed: false, version: -1 };
  return {
    clockOffsetMs: BigInt(row.clock_offset_ms),
    faultArmed: Boolean(row.armed),
    version: Number(row.facts_version),
  };
}

/** The facts' versions of these banks; a bank without a row is missing from the map. */
export async function bankFactsVersions(db: Kysely<Database>, banks: readonly string[]): Promise<Map<string, number>> {
  if (banks.length === 0) return new Map();
  const rows = await db.selectFrom('banks').select(['bank', 'facts_version']).where('bank', 'in', banks).execute();
  return new Map(rows.map((r) => [r.bank, Number(r.facts_version)]));
}
