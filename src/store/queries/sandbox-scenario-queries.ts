import { type Kysely, type Selectable, sql } from 'kysely';
import {
  type ArmedScenario,
  BANK_SCENARIO_KINDS,
  PAYMENT_SCENARIO_KINDS,
  type ScenarioKind,
  endOf,
  ruleFromView,
  ruleView,
} from '../../domain/sandbox-scenarios.js';
import type { Database } from '../database.js';
import type { SandboxScenarioTable } from '../sandbox-tables.js';
import type { TransactionLock } from './transaction-lock.js';

/**
 * The scenarios TPPs' tests arm in their sandbox banks (migration 019; domain/sandbox-scenarios.ts).
 * A rule with `times` is spent one match at a time by a conditional update, so that two requests (or
 * two instances) never both take its last match; a spent rule is deleted, and so is a maintenance
 * window that has ended, whenever the bank's rules are listed or armed.
 */

/** Arms the scenario unless the bank has `limit` armed already (false then); one bank's arms are serialised. */
export async function armScenario(
  db: Kysely<Database>,
  lock: TransactionLock,
  bank: string,
  scenario: ArmedScenario,
  limit: number,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lock(trx, `scenarios|${bank}`);
    await removeEnded(trx, bank, now);
    const { count } = await trx
      .selectFrom('sandbox_scenarios')
      .select((eb) => eb.fn.countAll<number | bigint | string>().as('count'))
      .where('bank', '=', bank)
      .executeTakeFirstOrThrow();
    if (Number(count) >= limit) return false;
    await trx
      .insertInto('sandbox_scenarios')
      .values({
        id: scenario.id,
        bank,
        kind: scenario.rule.kind,
        rule: JSON.stringify(ruleView(scenario.rule)),
        times_left: scenario.timesLeft ?? null,
        ends_at: endOf(scenario.rule)?.toISOString() ?? null,
        created_at: scenario.createdAt.toISOString(),
      })
      .execute();
    return true;
  });
}

/** The bank's armed scenarios, oldest first (ended windows removed first). */
export async function listScenarios(db: Kysely<Database>, bank: string, now: Date): Promise<ArmedScenario[]> {
  await removeEnded(db, bank, now);
  return scenariosOfKinds(db, bank);
}

/** The bank's armed bank faults, oldest first: the read every signed request of a sandbox TPP makes. */
export function listBankFaults(db: Kysely<Database>, bank: string): Promise<ArmedScenario[]> {
  return scenariosOfKinds(db, bank, BANK_SCENARIO_KINDS);
}

/** The bank's armed payment scenarios, oldest first, read in the batch run's transaction. */
export function listPaymentScenarios(trx: Kysely<Database>, bank: string): Promise<ArmedScenario[]> {
  return scenariosOfKinds(trx, bank, PAYMENT_SCENARIO_KINDS);
}

/** The bank's armed scenarios of these kinds (all when left out), oldest first. */
async function scenariosOfKinds(
  db: Kysely<Database>,
  bank: string,
  kinds?: readonly ScenarioKind[],
): Promise<ArmedScenario[]> {
  let query = db.selectFrom('sandbox_scenarios').selectAll().where('bank', '=', bank);
  if (kinds !== undefined) query = query.where('kind', 'in', [...kinds]);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map(scenarioOf);
}

export async function disarmScenario(db: Kysely<Database>, bank: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sandbox_scenarios')
    .where('bank', '=', bank)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Takes one match of a scenario that has `times`: false when it had none left (another request took
 * the last one meanwhile). The match that spends it deletes it. A rule without times (until disarmed)
 * is always there to take.
 */
export async function spendScenario(db: Kysely<Database>, scenario: ArmedScenario): Promise<boolean> {
  if (scenario.timesLeft === undefined) return true;
  const taken = await db
    .updateTable('sandbox_scenarios')
    .set({ times_left: sql<number>`times_left - 1` })
    .where('id', '=', scenario.id)
    .where('times_left', '>', 0)
    .returning('times_left')
    .executeTakeFirst();
  if (taken === undefined) return false;
  if (Number(taken.times_left) === 0)
    await db.deleteFrom('sandbox_scenarios').where('id', '=', scenario.id).where('times_left', '=', 0).execute();
  return true;
}

async function removeEnded(db: Kysely<Database>, bank: string, now: Date): Promise<void> {
  await db
    .deleteFrom('sandbox_scenarios')
    .where('bank', '=', bank)
    .where('ends_at', 'is not', null)
    .where('ends_at', '<=', now.toISOString())
    .execute();
}

/** A stored scenario as the domain holds it. */
export function scenarioOf(row: Selectable<SandboxScenarioTable>): ArmedScenario {
  return {
    id: row.id,
    rule: ruleFromView(JSON.parse(row.rule) as Record<string, unknown>),
    timesLeft: row.times_left === null ? undefined : Number(row.times_left),
    createdAt: new Date(row.created_at),
  };
}
