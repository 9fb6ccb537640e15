import type { Kysely } from 'kysely';
import type { RequestBinding } from '../../domain/request-binding.js';
import type { Database } from '../database.js';
import { bindingRow, toBinding } from '../payment-rows.js';

/**
 * Binds the request's X-Request-ID, unless it is bound already: then the earlier binding is
 * returned, for the caller to judge. A binding whose signature can no longer be accepted is replaced
 * (the TPP may reuse an X-Request-ID after its certificate expired).
 */
export async function bindRequest(db: Kysely<Database>, binding: RequestBinding, now: Date): Promise<RequestBinding | undefined> {
  const row = bindingRow(binding);
  const inserted = await db.insertInto('request_bindings').values(row).onConflict((oc) => oc.columns(['tpp_id', 'request_id']).doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return undefined;
  const replaced = await db.updateTable('request_bindings').set(row)
    .where('tpp_id', '=', binding.tppId).where('request_id', '=', binding.requestId).where('expires_at', '<', now.toISOString())
    .executeTakeFirst();
  if (Number(replaced.numUpdatedRows) === 1) return undefined;
  const earlier = await db.selectFrom('request_bindings').selectAll()
    .where('tpp_id', '=', binding.tppId).where('request_id', '=', binding.requestId).executeTakeFirst();
  if (earlier === undefined) return bindRequest(db, binding, now); // purged between the two statements
  return toBinding(earlier);
}

/** Removes the bindings whose signatures can no longer be accepted; returns how many. */
export async function purgeRequestBindings(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom('request_bindings').where('expires_at', '<', now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
