import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * A PSU session names the customer the bank's core knows (docs/core.md): with a bank's own core
 * (CORE_URL) that customer is in the core, not in this database's customers table, and the session's
 * reference to that table failed every SCA (a foreign key to a row that is never there). The
 * reference goes; the sandbox's data operations that removed a customer's sessions by cascade
 * (deleting a customer, initialize) remove them themselves.
 * SQLite cannot drop a foreign key: the table is rebuilt (SQLite's documented procedure, as in 008).
 */
export const psuSessionCustomerMigration: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
      await sql`alter table psu_sessions drop constraint if exists psu_sessions_customer_id_fkey`.execute(db);
      return;
    }
    await db.schema
      .createTable('psu_sessions_new')
      .addColumn('psu_id', 'text', (c) => c.primaryKey())
      .addColumn('tpp_id', 'text', (c) => c.notNull())
      .addColumn('customer_id', 'text', (c) => c.notNull())
      .addColumn('last_sca_at', 'text', (c) => c.notNull())
      .addColumn('tpp_session_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('psu_sessions_tpp_customer', ['tpp_id', 'customer_id'])
      .execute();
    await sql`insert into psu_sessions_new (psu_id, tpp_id, customer_id, last_sca_at, tpp_session_id, created_at)
      select psu_id, tpp_id, customer_id, last_sca_at, tpp_session_id, created_at from psu_sessions`.execute(db);
    await db.schema.dropTable('psu_sessions').execute();
    await sql`alter table psu_sessions_new rename to psu_sessions`.execute(db);
  },
  async down() {
    throw new Error(
      '022-psu-session-customer cannot be undone: sessions of customers of a bank core have no row to refer to',
    );
  },
};
