import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type {
  ConsoleSessionOpening,
  NewConsoleSession,
  OpenedLink,
  StoredConsoleSession,
} from '../console-session-store.js';
import type { TransactionLock } from './transaction-lock.js';

/**
 * Opens a console session (ConsoleSessionStore.openConsoleSession) under the bank's lock, the one
 * binding and unbinding a key take (bank-owner-queries.ts): a key unbound meanwhile is seen here, or
 * its unbind sees and ends this session.
 */
export function openConsoleSession(
  db: Kysely<Database>,
  lock: TransactionLock,
  session: NewConsoleSession,
  link: OpenedLink,
  perBank: number,
): Promise<ConsoleSessionOpening> {
  return db.transaction().execute(async (trx) => {
    await lock(trx, `bank|${session.bank}`);
    const bound = await trx
      .selectFrom('bank_keys')
      .select('key_sha256')
      .where('bank', '=', session.bank)
      .where('key_sha256', '=', session.keySha256)
      .executeTakeFirst();
    if (bound === undefined) return 'key-unbound';
    const used = await trx
      .insertInto('console_link_uses')
      .values({ nonce: link.nonce, bank: session.bank, expires_at: link.expiresAt.toISOString() })
      .onConflict((oc) => oc.column('nonce').doNothing())
      .executeTakeFirst();
    if (Number(used.numInsertedOrUpdatedRows ?? 0n) === 0) return 'used';
    await trx
      .insertInto('console_sessions')
      .values({
        secret_sha256: session.secretSha256,
        bank: session.bank,
        key_sha256: session.keySha256,
        created_at: session.createdAt.toISOString(),
        expires_at: session.expiresAt.toISOString(),
      })
      .execute();
    await trx
      .deleteFrom('console_sessions')
      .where('bank', '=', session.bank)
      .where('secret_sha256', 'not in', (eb) =>
        eb
          .selectFrom('console_sessions')
          .select('secret_sha256')
          .where('bank', '=', session.bank)
          .orderBy('created_at', 'desc')
          .orderBy('secret_sha256', 'desc')
          .limit(perBank),
      )
      .execute();
    return 'opened';
  });
}

/** The session, while in time and while its key is bound to its bank (a bank removed has no keys). */
export async function findConsoleSession(
  db: Kysely<Database>,
  secretSha256: string,
  now: Date,
): Promise<StoredConsoleSession | undefined> {
  const row = await db
    .selectFrom('console_sessions')
    .innerJoin('bank_keys', (join) =>
      join
        .onRef('bank_keys.bank', '=', 'console_sessions.bank')
        .onRef('bank_keys.key_sha256', '=', 'console_sessions.key_sha256'),
    )
    .select([
      'console_sessions.secret_sha256',
      'console_sessions.bank',
      'console_sessions.key_sha256',
      'console_sessions.created_at',
      'console_sessions.expires_at',
    ])
    .where('console_sessions.secret_sha256', '=', secretSha256)
    .where('console_sessions.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    secretSha256: row.secret_sha256,
    bank: row.bank,
    keySha256: row.key_sha256,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
  };
}

export async function endConsoleSession(db: Kysely<Database>, secretSha256: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('secret_sha256', '=', secretSha256).execute();
}

/** Whether the nonce of a link is recorded as opened (kept until the retention job removes it). */
export async function consoleLinkUsed(db: Kysely<Database>, nonce: string): Promise<boolean> {
  const row = await db.selectFrom('console_link_uses').select('nonce').where('nonce', '=', nonce).executeTakeFirst();
  return row !== undefined;
}
