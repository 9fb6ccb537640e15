import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * payments.changed_at_ms (migration 030) was the database's clock at a change of the reference core's
 * ledger, for the feed's settle time. Migration 031 replaced that settle time with the transaction
 * horizon, and nothing has read the column since, yet its triggers still wrote it on every change of
 * the ledger. It goes, with its write. Every other payment held null in it, so a sandbox snapshot
 * saved before this migration restores without it (DROPPED_SNAPSHOT_COLUMNS, migrations/index.ts).
 * Triggers written out as migration 031 left them, without the column (a migration stays as it ran).
 */
const CORE = `'core'`;
const CHANGED_COLUMNS = 'status, status_reason, updated_at';

export const dropChangedAtMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await numberChanges(db, sqlite, false);
    await sql.raw('alter table payments drop column changed_at_ms').execute(db);
  },
  async down(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await sql.raw(`alter table payments add column changed_at_ms ${sqlite ? 'integer' : 'bigint'}`).execute(db);
    await sql.raw('update payments set changed_at_ms = 0 where change_seq is not null').execute(db);
    await numberChanges(db, sqlite, true);
  },
};

/** The triggers' work as migration 031 left it, with changed_at_ms (`stamped`) or without. */
async function numberChanges(db: Kysely<unknown>, sqlite: boolean, stamped: boolean): Promise<void> {
  if (sqlite) {
    const next = `update payments set change_seq = (select coalesce(max(change_seq), 0) + 1 from payments where change_seq is not null),
    change_xid = 0${stamped ? ", changed_at_ms = cast(unixepoch('subsec') * 1000 as integer)" : ''} where id = NEW.id;`;
    await sql.raw('drop trigger psd2_payment_change_insert').execute(db);
    await sql.raw('drop trigger psd2_payment_change_update').execute(db);
    await sql
      .raw(
        `create trigger psd2_payment_change_insert after insert on payments when NEW.tpp_id = ${CORE}\nbegin\n  ${next}\nend`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger psd2_payment_change_update after update of ${CHANGED_COLUMNS} on payments when NEW.tpp_id = ${CORE}\nbegin\n  ${next}\nend`,
      )
      .execute(db);
    return;
  }
  // The triggers call the function by name: replacing it changes what both do.
  await sql
    .raw(
      `create or replace function psd2_payment_change() returns trigger language plpgsql as $fn$
begin
  new.change_seq := nextval('payment_change_numbers');
  new.change_xid := pg_current_xact_id()::text::bigint;${stamped ? '\n  new.changed_at_ms := (extract(epoch from clock_timestamp()) * 1000)::bigint;' : ''}
  return new;
end
$fn$`,
    )
    .execute(db);
}
