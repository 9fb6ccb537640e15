import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * The reference core's feed of status reports (core/embedded/ledger-payments.ts) follows a sequence
 * that only grows, change_seq, where it followed (updated_at, id): a payment that changed again in
 * the millisecond of a cursor already given out, or whose batch run wrote the time of an earlier slot,
 * landed behind that cursor and was never reported (docs/decisions/0347).
 *
 * Triggers give a payment of the core's ledger (tpp_id 'core', written out here: a migration stays as
 * it ran) the next number whenever a statement writes its status, reason or time, in that statement's
 * transaction, whichever code path writes it, and changed_at_ms, the database's clock at that write
 * in milliseconds (updated_at is the bank's clock, which a batch run sets to its slot's time). Every
 * other payment keeps null in both, so a TPP's create writes no index entry more and a sandbox
 * snapshot's rows are unchanged.
 * - SQLite: one writer at a time, so the largest number plus one, from the partial index, is the
 *   order the changes commit in (the ledger's payments are never deleted, which would give a number
 *   again).
 * - PostgreSQL: a sequence, whose numbers two transactions may commit out of order; the feed gives
 *   out a change only once its changed_at_ms is older, by the same clock, than any transaction runs
 *   (a settle time of 5 s, since replaced by migration 031's order), so an earlier number cannot
 *   still appear behind it.
 * Existing payments of the ledger are numbered in the feed's former order, as changed long ago (0).
 */
const CORE = `'core'`;
const CHANGED_COLUMNS = 'status, status_reason, updated_at';

export const paymentChangeSeqMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await sql.raw(`alter table payments add column change_seq ${sqlite ? 'integer' : 'bigint'}`).execute(db);
    await sql.raw(`alter table payments add column changed_at_ms ${sqlite ? 'integer' : 'bigint'}`).execute(db);
    await sql
      .raw(
        `update payments set change_seq = numbered.n, changed_at_ms = 0
      from (select id, row_number() over (order by updated_at, id) as n from payments where tpp_id = ${CORE}) numbered
      where payments.id = numbered.id`,
      )
      .execute(db);
    await db.schema
      .createIndex('payments_change_seq')
      .on('payments')
      .columns(['change_seq'])
      .where(sql<boolean>`change_seq is not null`)
      .execute();
    if (sqlite) {
      const next = `update payments set change_seq = (select coalesce(max(change_seq), 0) + 1 from payments where change_seq is not null),
    changed_at_ms = cast(unixepoch('subsec') * 1000 as integer) where id = NEW.id;`;
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
    const last = await sql<{ n: string | null }>`select max(change_seq) as n from payments`.execute(db);
    await sql.raw(`create sequence payment_change_numbers start with ${Number(last.rows[0]?.n ?? 0) + 1}`).execute(db);
    await sql
      .raw(
        `create or replace function psd2_payment_change() returns trigger language plpgsql as $fn$
begin
  new.change_seq := nextval('payment_change_numbers');
  new.changed_at_ms := (extract(epoch from clock_timestamp()) * 1000)::bigint;
  return new;
end
$fn$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger psd2_payment_change_insert before insert on payments for each row when (new.tpp_id = ${CORE}) execute function psd2_payment_change()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger psd2_payment_change_update before update of ${CHANGED_COLUMNS} on payments for each row when (new.tpp_id = ${CORE}) execute function psd2_payment_change()`,
      )
      .execute(db);
  },
  async down(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    for (const trigger of ['psd2_payment_change_insert', 'psd2_payment_change_update'])
      await sql.raw(`drop trigger if exists ${trigger}${sqlite ? '' : ' on payments'}`).execute(db);
    if (!sqlite) {
      await sql.raw('drop function if exists psd2_payment_change()').execute(db);
      await sql.raw('drop sequence if exists payment_change_numbers').execute(db);
    }
    await db.schema.dropIndex('payments_change_seq').execute();
    await sql.raw('alter table payments drop column changed_at_ms').execute(db);
    await sql.raw('alter table payments drop column change_seq').execute(db);
  },
};
