import type { Kysely, Transaction } from 'kysely';
import type { BankEntry, BankOwner } from '../../domain/bank.js';
import type { Database } from '../database.js';
import type { BankData } from '../sca-records.js';
import type { BoundKey, KeyLink } from '../upkeep-records.js';
import { openBank } from './bank-queries.js';
import type { TransactionLock } from './transaction-lock.js';

export type { BankOwner };

/**
 * A signed request's way into its TPP's bank (docs/decisions/0270 and docs/decisions/0271): a trusted CA's
 * certificate enters whatever its key, making the
 * bank when it does not exist, and marks the bank as trusted; a self-service certificate's key makes
 * the bank when it does not exist; a bank with keys admits only those; a bank without any (made before
 * keys were bound) is bound to the first self-service key that comes, unless a trusted certificate
 * made or used it.
 */
export async function enterBank(
  db: Kysely<Database>,
  lock: TransactionLock,
  bank: string,
  owner: BankOwner,
  at: Date,
  defaults: (at: Date) => BankData,
  limit: number | undefined,
): Promise<BankEntry> {
  for (let attempt = 0; ; attempt += 1) {
    const found =
      owner.trusted === true ? await enterTrusted(db, bank, at) : await findEntry(db, bank, owner.keySha256);
    if (found !== 'none') return found === 'unbound' ? claim(db, lock, bank, owner, at) : found;
    if (await openBank(db, lock, bank, at, defaults, limit, owner)) return 'opened';
    // Another request made it between the look and the make: look again, once.
    if (attempt > 0) return 'foreign';
  }
}

/** A trusted certificate's entry: one read, and a write only the first time it comes to a bank. */
async function enterTrusted(db: Kysely<Database>, bank: string, at: Date): Promise<'none' | 'trusted' | 'removing'> {
  const row = await db
    .selectFrom('banks')
    .select(['used_at', 'trusted_at'])
    .where('bank', '=', bank)
    .executeTakeFirst();
  if (row === undefined) return 'none';
  if (row.used_at === null) return 'removing';
  // From now on no self-service key claims the bank, even while it has no key (claim reads this under the bank's lock).
  if (row.trusted_at === null)
    await db
      .updateTable('banks')
      .set({ trusted_at: at.toISOString() })
      .where('bank', '=', bank)
      .where('trusted_at', 'is', null)
      .execute();
  return 'trusted';
}

async function findEntry(
  db: Kysely<Database>,
  bank: string,
  key: string,
): Promise<'none' | 'unbound' | 'bound' | 'foreign' | 'foreign-trusted' | 'removing'> {
  const row = await db
    .selectFrom('banks')
    .select((eb) => [
      'banks.used_at',
      'banks.trusted_at',
      eb
        .selectFrom('bank_keys')
        .select((k) => k.fn.countAll<number | bigint | string>().as('n'))
        .whereRef('bank_keys.bank', '=', 'banks.bank')
        .as('keys'),
      eb
        .selectFrom('bank_keys')
        .select('bank_keys.key_sha256')
        .whereRef('bank_keys.bank', '=', 'banks.bank')
        .where('bank_keys.key_sha256', '=', key)
        .as('mine'),
    ])
    .where('banks.bank', '=', bank)
    .executeTakeFirst();
  if (row === undefined) return 'none';
  if (row.used_at === null) return 'removing';
  if (row.mine !== null && row.mine !== undefined) return 'bound';
  if (row.trusted_at !== null) return 'foreign-trusted';
  return Number(row.keys ?? 0) === 0 ? 'unbound' : 'foreign';
}

async function claim(
  db: Kysely<Database>,
  lock: TransactionLock,
  bank: string,
  owner: BankOwner,
  at: Date,
): Promise<BankEntry> {
  return withBankKeys(db, lock, bank, async (trx, keys) => {
    if (keys.includes(owner.keySha256)) return 'bound';
    if (keys.length > 0) return 'foreign';
    if (await isTrusted(trx, bank)) return 'foreign-trusted';
    await trx
      .insertInto('bank_keys')
      .values({ bank, key_sha256: owner.keySha256, bound_at: at.toISOString() })
      .execute();
    return 'claimed';
  });
}

/** Whether a trusted CA's certificate made or used the bank (banks.trusted_at, migration 025). */
async function isTrusted(trx: Transaction<Database>, bank: string): Promise<boolean> {
  const row = await trx.selectFrom('banks').select('trusted_at').where('bank', '=', bank).executeTakeFirst();
  return row !== undefined && row.trusted_at !== null;
}

/** Works on a bank's keys under the bank's lock, so two requests cannot both bind or unbind past a rule. */
function withBankKeys<T>(
  db: Kysely<Database>,
  lock: TransactionLock,
  bank: string,
  work: (trx: Transaction<Database>, keys: string[]) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lock(trx, `bank|${bank}`);
    const rows = await trx.selectFrom('bank_keys').select('key_sha256').where('bank', '=', bank).execute();
    return work(
      trx,
      rows.map((k) => k.key_sha256),
    );
  });
}

/** Notes the bank's use now; false when the bank is gone or being removed (its requests then enter anew). */
export async function touchBank(db: Kysely<Database>, bank: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('banks')
    .set({ used_at: at.toISOString() })
    .where('bank', '=', bank)
    .where('used_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Binds one more key to a bank, at the request of a key bound already (the route's hook checked
 * that): under the bank's lock, so two binds at once cannot pass the limit together.
 */
export async function bindKey(
  db: Kysely<Database>,
  lock: TransactionLock,
  bank: string,
  keySha256: string,
  at: Date,
  limit: number,
): Promise<'bound' | 'already' | 'full'> {
  return withBankKeys(db, lock, bank, async (trx, keys) => {
    if (keys.includes(keySha256)) return 'already';
    if (keys.length >= limit) return 'full';
    await trx.insertInto('bank_keys').values({ bank, key_sha256: keySha256, bound_at: at.toISOString() }).execute();
    return 'bound';
  });
}

/**
 * Binds a key by a one-time link (UpkeepStore.bindBankKeyByLink). The link's use is recorded with the
 * console links' (console_link_uses, kept until the link expires) in the same transaction as the key,
 * so a link binds once on every instance, and a key unbound meanwhile has its links go with it.
 */
export async function bindKeyByLink(
  db: Kysely<Database>,
  lock: TransactionLock,
  bank: string,
  link: KeyLink,
  keySha256: string,
  at: Date,
  limit: number,
): Promise<'bound' | 'already' | 'full' | 'used' | 'key-unbound'> {
  return withBankKeys(db, lock, bank, async (trx, keys) => {
    if (!keys.includes(link.askedWith)) return 'key-unbound';
    // The link is used whatever it then finds, as the instance that opened it holds it used already.
    const used = await trx
      .insertInto('console_link_uses')
      .values({ nonce: link.nonce, bank, expires_at: link.expiresAt.toISOString() })
      .onConflict((oc) => oc.column('nonce').doNothing())
      .executeTakeFirst();
    if (Number(used.numInsertedOrUpdatedRows ?? 0n) === 0) return 'used';
    if (keys.includes(keySha256)) return 'already';
    if (keys.length >= limit) return 'full';
    await trx.insertInto('bank_keys').values({ bank, key_sha256: keySha256, bound_at: at.toISOString() }).execute();
    return 'bound';
  });
}

/** The keys bound to a bank, first bound first. */
export async function listKeys(db: Kysely<Database>, bank: string): Promise<BoundKey[]> {
  const rows = await db
    .selectFrom('bank_keys')
    .select(['key_sha256', 'bound_at'])
    .where('bank', '=', bank)
    .orderBy('bound_at')
    .orderBy('key_sha256')
    .execute();
  return rows.map((r) => ({ keySha256: r.key_sha256, boundAt: r.bound_at }));
}

/**
 * Unbinds a key, unless it is the last of a bank no trusted certificate made or used (such a bank with
 * no key would go to whoever comes first; a trusted one stays with its trusted certificates).
 */
export async function unbindKey(
  db: Kysely<Database>,
  lock: TransactionLock,
  bank: string,
  keySha256: string,
): Promise<'unbound' | 'unknown' | 'last'> {
  return withBankKeys(db, lock, bank, async (trx, keys) => {
    if (!keys.includes(keySha256)) return 'unknown';
    if (keys.length === 1 && !(await isTrusted(trx, bank))) return 'last';
    await trx.deleteFrom('bank_keys').where('bank', '=', bank).where('key_sha256', '=', keySha256).execute();
    // The console sessions the key opened end with it, on every instance (issue 40).
    await trx.deleteFrom('console_sessions').where('bank', '=', bank).where('key_sha256', '=', keySha256).execute();
    return 'unbound';
  });
}
