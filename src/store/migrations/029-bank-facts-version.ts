import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * The version of what every signed sandbox request reads of its bank: the clock's offset and whether
 * a bank fault is armed (services/bank-facts.ts, docs/decisions/0342). Each process holds those facts
 * and asks only the versions of the banks it holds, every BANK_FACTS_CHECK_MS; triggers raise a
 * bank's version with every change of its clock or of its scenarios, whichever statement makes it
 * (a move, an arm, a fault's time spent, an initialize, a restore, a removal), in that statement's
 * transaction.
 */
export const bankFactsVersionMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table banks add column facts_version integer not null default 0`.execute(db);
    const bump = (bank: string) => `update banks set facts_version = facts_version + 1 where bank = ${bank};`;
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      for (const [event, banks] of [
        ['insert', ['NEW.bank']],
        ['update', ['NEW.bank', 'OLD.bank']],
        ['delete', ['OLD.bank']],
      ] as const) {
        await sql
          .raw(
            `create trigger psd2_bank_facts_scenario_${event} after ${event} on sandbox_scenarios\nbegin\n  ${banks.map(bump).join('\n  ')}\nend`,
          )
          .execute(db);
      }
      await sql
        .raw(
          `create trigger psd2_bank_facts_clock after update of clock_offset_ms on banks\nwhen NEW.clock_offset_ms <> OLD.clock_offset_ms\nbegin\n  ${bump('NEW.bank')}\nend`,
        )
        .execute(db);
      return;
    }
    await sql
      .raw(
        `create or replace function psd2_bank_facts_scenario() returns trigger language plpgsql as $fn$
begin
  if tg_op <> 'INSERT' then ${bump('OLD.bank')} end if;
  if tg_op <> 'DELETE' then ${bump('NEW.bank')} end if;
  return null;
end
$fn$`,
      )
      .execute(db);
    await sql
      .raw(
        'create trigger psd2_bank_facts_scenario after insert or update or delete on sandbox_scenarios for each row execute function psd2_bank_facts_scenario()',
      )
      .execute(db);
    await sql
      .raw(
        `create or replace function psd2_bank_facts_clock() returns trigger language plpgsql as $fn$
begin
  new.facts_version := old.facts_version + 1;
  return new;
end
$fn$`,
      )
      .execute(db);
    await sql
      .raw(
        'create trigger psd2_bank_facts_clock before update of clock_offset_ms on banks for each row when (new.clock_offset_ms is distinct from old.clock_offset_ms) execute function psd2_bank_facts_clock()',
      )
      .execute(db);
  },
};
