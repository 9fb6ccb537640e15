import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { toStoredRequest } from '../payment-rows.js';
import type { StoredTppRequest } from '../store.js';

/** The request this TPP sent with this X-Request-ID, if it created something (a payment, a basket, a consent). */
export async function findStoredRequest(
  db: Kysely<Database>,
  tppId: string,
  requestId: string,
): Promise<StoredTppRequest | undefined> {
  const row = await db
    .selectFrom('tpp_requests')
    .select(['operation', 'body_sha256', 'response_status', 'response_body', 'response_headers'])
    .where('tpp_id', '=', tppId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  return row === undefined ? undefined : toStoredRequest(row);
}
