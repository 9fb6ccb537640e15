import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * The reference core's feed of status reports (core/embedded/ledger-payments.ts) is ordered by the
 * transaction that made a change, then by change_seq, and on PostgreSQL gives out only the changes of
 * transactions older than every one still running (docs/decisions/0348). Migration 030's order alone
 * relied on every transaction committing within a settle time: a sequence's numbers commit out of
 * order, and a transaction that drew a number and committed after the settle time landed behind a
 * cursor already given out, never reported.
 *
 * change_xid is the writing transaction's id (pg_current_xact_id, the 64-bit form that never wraps)
 * on PostgreSQL. SQLite has one writer at a time, so its change_seq is the commit order already:
 * change_xid is 0 there, as for every change numbered before this migration. Triggers written out as
 * migration 030 wrote them, with the column added (a migration stays as it ran).
 */
const CORE = `'core'`;
const CHANGED_COLUMNS = 'status, status_reason, updated_at';

export const paymentChangeTransactionMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    // PostgreSQL 13's: an older server refuses the migration here, not the feed's first read later
    // (the trigger's function is only checked when it runs).
    if (!sqlite) await sql`select pg_snapshot_xmin(pg_current_snapshot()), pg_current_xact_id()`.execute(db);
    await sql.raw(`alter table payments add column change_xid ${sqlite ? 'integer' : 'bigint'}`).execute(db);
    await sql.raw('update payments set change_xid = 0 where change_seq is not null').execute(db);
    await db.schema.dropIndex('payments_change_seq').execute();
    await changeIndex(db, 'payments_change_order', ['change_xid', 'change_seq']);
    await numberChanges(db, sqlite, true);
  },
  async down(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await numberChanges(db, sqlite, false);
    await db.schema.dropIndex('payments_change_order').execute();
    await changeIndex(db, 'payments_change_seq', ['change_seq']);
    await sql.raw('alter table payments drop column change_xid').execute(db);
  },
};

function changeIndex(db: Kysely<unknown>, name: string, columns: string[]): Promise<void> {
  return db.schema
    .createIndex(name)
    .on('payments')
    .columns(columns)
    .where(sql<boolean>`change_seq is not null`)
    .execute();
}

/** The triggers' work, with change_xid (`transaction`) or as migration 030 left it. */
async function numberChanges(db: Kysely<unknown>, sqlite: boolean, transaction: boolean): Promise<void> {
  if (sqlite) {
    const next = `update payments set change_seq = (select coalesce(max(change_seq), 0) + 1 from payments where change_seq is not null),
    ${transaction ? 'change_xid = 0, ' : ''}changed_at_ms = cast(unixepoch('subsec') * 1000 as integer) where id = NEW.id;`;
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
  new.change_seq := nextval('payment_change_numbers');${transaction ? '\n  new.change_xid := pg_current_xact_id()::text::bigint;' : ''}
  new.changed_at_ms := (extract(epoch from clock_timestamp()) * 1000)::bigint;
  return new;
end
$fn$`,
    )
    .execute(db);
}
