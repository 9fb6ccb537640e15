import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/** Removes the bindings whose signatures can no longer be accepted; returns how many. */
export async function purgeRequestBindings(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom('request_bindings').where('expires_at', '<', now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
