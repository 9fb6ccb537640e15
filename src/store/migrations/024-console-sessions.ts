import { type Kysely, type Migration } from 'kysely';

/**
 * The sandbox console's sessions and used links, kept in the database so that every instance
 * sharing it sees a sign-out, an unbound key and a used link at once (docs/console.md, issue 40):
 * - console_sessions: one row per session opened by a console link, keyed by the SHA-256 of the
 *   session's secret (the cookie holds the secret; the database only its hash), with the key that
 *   signed the request for the link: the session ends when that key is unbound.
 * - console_link_uses: the nonce of each opened link until the link expires, so a link opens once
 *   whichever instance it reaches.
 * Both are removed with their bank, and by the retention job once expired (docs/retention.md).
 */
export const consoleSessionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('console_sessions')
      .addColumn('secret_sha256', 'text', (c) => c.primaryKey())
      .addColumn('bank', 'text', (c) => c.notNull())
      .addColumn('key_sha256', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    // An unbind ends the key's sessions, and a bank keeps its newest CONSOLE_SESSIONS_PER_TPP.
    await db.schema
      .createIndex('console_sessions_bank_key')
      .on('console_sessions')
      .columns(['bank', 'key_sha256'])
      .execute();
    await db.schema.createIndex('console_sessions_expires_at').on('console_sessions').columns(['expires_at']).execute();
    await db.schema
      .createTable('console_link_uses')
      .addColumn('nonce', 'text', (c) => c.primaryKey())
      .addColumn('bank', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('console_link_uses_bank').on('console_link_uses').columns(['bank']).execute();
    await db.schema
      .createIndex('console_link_uses_expires_at')
      .on('console_link_uses')
      .columns(['expires_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('console_link_uses').execute();
    await db.schema.dropTable('console_sessions').execute();
  },
};
