import type { Kysely, Migration } from 'kysely';

/**
 * The ledger: account transactions (from the sandbox's test data and from executed payments), card
 * accounts and their transactions, the sandbox's business clock, and batch runs.
 */
export const ledgerMigration: Migration = {
  // A migration is a record of what was run on every database made before it (and of what the schema
  // scripts replay): the statements and their order stay as released; the helpers only name its parts.
  async up(db: Kysely<unknown>) {
    await createAccountTransactions(db);
    await addTransactionCountAndOwners(db);
    await createCardTables(db);
    await createSandboxClock(db);
    await createBatchRuns(db);
  },
};

async function createAccountTransactions(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    // Position of the transaction in its account, 1, 2, 3, ...: the listing's stable order, and an
    // offset that is a range on an index rather than a scan.
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('booking_date', 'text', (c) => c.notNull())
    .addColumn('value_date', 'text', (c) => c.notNull())
    .addColumn('remittance', 'text', (c) => c.notNull())
    .addColumn('creditor_name', 'text', (c) => c.notNull())
    .addColumn('creditor_iban', 'text', (c) => c.notNull())
    .addColumn('creditor_bban', 'text', (c) => c.notNull())
    .addColumn('debtor_name', 'text', (c) => c.notNull())
    .addColumn('debtor_iban', 'text', (c) => c.notNull())
    .addColumn('debtor_bban', 'text', (c) => c.notNull())
    .addColumn('bank_transaction_code', 'text', (c) => c.notNull())
    .addColumn('ultimate_debtor', 'text', (c) => c.notNull())
    .addColumn('ultimate_creditor', 'text', (c) => c.notNull())
    .addColumn('purpose_code', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('account_transactions_seq', ['account_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('account_transactions_booking')
    .on('account_transactions')
    .columns(['account_id', 'booking_date', 'seq'])
    .execute();
}

async function addTransactionCountAndOwners(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('transaction_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The TPP that created a sandbox customer sees it; the default data set (no TPP) every TPP sees.
  await db.schema.alterTable('customers').addColumn('tpp_id', 'text').execute();
  await db.schema.alterTable('agreements').addColumn('tpp_id', 'text').execute();
}

async function createCardTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('card_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('masked_pan', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('product', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('credit_limit_minor', 'bigint', (c) => c.notNull())
    .addColumn('balance_minor', 'bigint', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('card_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('card_account_id', 'text', (c) => c.notNull().references('card_accounts.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('booking_date', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('card_transactions_seq', ['card_account_id', 'seq'])
    .execute();
}

async function createSandboxClock(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_clock')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('offset_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

async function createBatchRuns(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('batch_runs')
    .addColumn('slot', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('executed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rejected', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
