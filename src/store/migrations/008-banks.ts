import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * One bank per TPP in the sandbox (docs/decisions/0181 and docs/decisions/0189). Every row of the
 * bank's data carries its bank: the TPP's organisation identifier in sandbox mode, '' in production
 * (src/services/banks.ts). Numbers are unique within one bank only; masked card numbers not at all.
 * - banks: each bank, made on first use, with its business clock (the offset that sandbox_clock held).
 * - customers, accounts, card_accounts, agreements, engagements, payments, batch_runs: a `bank` column;
 *   the unique numbers, agreement ids and batch slots become unique per bank.
 * Existing rows all go to bank '': production's bank, and in sandbox mode the world shared before
 * this change, which keeps its data, clock and batch runs but which no TPP's requests reach.
 *
 * SQLite cannot drop a column's UNIQUE constraint nor change a primary key: those tables are rebuilt
 * (SQLite's documented procedure; SqliteStore.migrate turns foreign keys off around migrations and
 * checks them before it commits). PostgreSQL alters its constraints in place.
 */
export const banksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    const shared = await sql<{
      n: number | bigint;
    }>`select (select count(*) from customers) + (select count(*) from payments) as n`.execute(db);
    const clock = await sql<{
      offset_ms: number | bigint | string;
    }>`select offset_ms from sandbox_clock where id = 1`.execute(db);

    await db.schema
      .createTable('banks')
      .addColumn('bank', 'text', (c) => c.primaryKey())
      .addColumn('clock_offset_ms', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    const now = new Date().toISOString();
    if (Number(shared.rows[0]?.n ?? 0) > 0 || clock.rows.length > 0) {
      await sql`insert into banks (bank, clock_offset_ms, created_at, updated_at) values ('', ${BigInt(clock.rows[0]?.offset_ms ?? 0)}, ${now}, ${now})`.execute(
        db,
      );
    }
    await db.schema.dropTable('sandbox_clock').execute();

    if (sqlite) await rebuildSqlite(db);
    else await alterPostgres(db);

    await sql`alter table payments add column bank text not null default ''`.execute(db);
    await db.schema.dropIndex('payments_due').execute();
    await db.schema
      .createIndex('payments_due')
      .on('payments')
      .columns(['bank', 'authorised_at', 'id', 'requested_execution_date'])
      .where(sql<boolean>`status in ('ACTC', 'PDNG')`)
      .execute();

    await db.schema
      .createTable('batch_runs_by_bank')
      .addColumn('bank', 'text', (c) => c.notNull())
      .addColumn('slot', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .addColumn('executed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('rejected', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('batch_runs_bank_slot', ['bank', 'slot'])
      .execute();
    await sql`insert into batch_runs_by_bank (bank, slot, started_at, finished_at, executed, rejected)
      select '', slot, started_at, finished_at, executed, rejected from batch_runs`.execute(db);
    await db.schema.dropTable('batch_runs').execute();
    await sql`alter table batch_runs_by_bank rename to batch_runs`.execute(db);
  },
};

async function alterPostgres(db: Kysely<unknown>): Promise<void> {
  for (const table of ['customers', 'accounts', 'card_accounts', 'agreements', 'engagements']) {
    await sql`alter table ${sql.table(table)} add column bank text not null default ''`.execute(db);
    await sql`alter table ${sql.table(table)} alter column bank drop default`.execute(db);
  }
  await sql`alter table customers drop constraint customers_customer_number_key`.execute(db);
  await sql`alter table customers add constraint customers_bank_number unique (bank, customer_number)`.execute(db);
  await sql`alter table accounts drop constraint accounts_bban_key`.execute(db);
  await sql`alter table accounts drop constraint accounts_iban_key`.execute(db);
  await sql`alter table accounts add constraint accounts_bank_bban unique (bank, bban)`.execute(db);
  await sql`alter table accounts add constraint accounts_bank_iban unique (bank, iban)`.execute(db);
  await sql`alter table card_accounts drop constraint card_accounts_masked_pan_key`.execute(db);
  await sql`alter table engagements drop constraint engagements_agreement_id_fkey`.execute(db);
  await sql`alter table agreements drop constraint agreements_pkey`.execute(db);
  await sql`alter table agreements add constraint agreements_pkey primary key (bank, id)`.execute(db);
  await sql`alter table engagements add constraint engagements_agreement foreign key (bank, agreement_id) references agreements (bank, id) on delete cascade`.execute(
    db,
  );
  await db.schema.createIndex('card_accounts_customer').on('card_accounts').column('customer_id').execute();
}

/**
 * Each table made anew with its bank, its rows copied into bank '', the old one dropped (foreign keys
 * are off). A migration is a record of what was run on every database made before it: the statements
 * and their order stay as released; the helpers only name its steps.
 */
async function rebuildSqlite(db: Kysely<unknown>): Promise<void> {
  await createCustomerAndAccountTables(db);
  await createAgreementTables(db);
  await copyRowsToSharedBank(db);
  await replaceOldTables(db);
}

async function createCustomerAndAccountTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('customers_new')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bank', 'text', (c) => c.notNull())
    .addColumn('customer_number', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('tpp_id', 'text')
    .addUniqueConstraint('customers_bank_number', ['bank', 'customer_number'])
    .execute();
  await db.schema
    .createTable('accounts_new')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bank', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('bban', 'text', (c) => c.notNull())
    .addColumn('iban', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('product', 'text', (c) => c.notNull())
    .addColumn('cash_account_type', 'text', (c) => c.notNull())
    .addColumn('credit_line_minor', 'bigint', (c) => c.notNull())
    .addColumn('balance_minor', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('transaction_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('accounts_bank_bban', ['bank', 'bban'])
    .addUniqueConstraint('accounts_bank_iban', ['bank', 'iban'])
    .execute();
  await db.schema
    .createTable('card_accounts_new')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bank', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('masked_pan', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('product', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('credit_limit_minor', 'bigint', (c) => c.notNull())
    .addColumn('balance_minor', 'bigint', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

async function createAgreementTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('agreements_new')
    .addColumn('bank', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('owner_customer_id', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('tpp_id', 'text')
    .addPrimaryKeyConstraint('agreements_pkey', ['bank', 'id'])
    .execute();
  await db.schema
    .createTable('engagements_new')
    .addColumn('bank', 'text', (c) => c.notNull())
    .addColumn('agreement_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('roles', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('engagements_pk', ['agreement_id', 'customer_id', 'account_id'])
    .addForeignKeyConstraint('engagements_agreement', ['bank', 'agreement_id'], 'agreements', ['bank', 'id'], (c) =>
      c.onDelete('cascade'),
    )
    .execute();
}

async function copyRowsToSharedBank(db: Kysely<unknown>): Promise<void> {
  await sql`insert into customers_new (id, bank, customer_number, name, type, created_at, tpp_id)
    select id, '', customer_number, name, type, created_at, tpp_id from customers`.execute(db);
  await sql`insert into accounts_new (id, bank, customer_id, bban, iban, currency, name, product, cash_account_type, credit_line_minor, balance_minor, created_at, transaction_count)
    select id, '', customer_id, bban, iban, currency, name, product, cash_account_type, credit_line_minor, balance_minor, created_at, transaction_count from accounts`.execute(
    db,
  );
  await sql`insert into card_accounts_new (id, bank, customer_id, masked_pan, name, product, currency, credit_limit_minor, balance_minor, body, created_at)
    select id, '', customer_id, masked_pan, name, product, currency, credit_limit_minor, balance_minor, body, created_at from card_accounts`.execute(
    db,
  );
  await sql`insert into agreements_new (bank, id, owner_customer_id, name, created_at, tpp_id)
    select '', id, owner_customer_id, name, created_at, tpp_id from agreements`.execute(db);
  await sql`insert into engagements_new (bank, agreement_id, customer_id, account_id, roles)
    select '', agreement_id, customer_id, account_id, roles from engagements`.execute(db);
}

async function replaceOldTables(db: Kysely<unknown>): Promise<void> {
  // Children first; every reference names the table, which the renamed new table then is.
  for (const table of ['engagements', 'agreements', 'card_accounts', 'accounts', 'customers']) {
    await db.schema.dropTable(table).execute();
    await sql`alter table ${sql.table(`${table}_new`)} rename to ${sql.table(table)}`.execute(db);
  }
  await db.schema.createIndex('accounts_customer').on('accounts').column('customer_id').execute();
  await db.schema.createIndex('card_accounts_customer').on('card_accounts').column('customer_id').execute();
}
