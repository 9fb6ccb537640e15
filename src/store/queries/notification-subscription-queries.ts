import type { Kysely, Transaction } from 'kysely';
import { parseNotificationContent } from '../../domain/notifications/notification-content.js';
import type { Database } from '../database.js';
import type {
  ResourceRef,
  StoredSubscription,
  SubscribedResourceKind,
  TppRequestRecord,
} from '../tpp-request-records.js';
import { subscriptionRow } from '../payment-rows.js';

/** Writes the record's subscription, when it has one, in the create's transaction. */
export async function insertSubscription(
  trx: Transaction<Database>,
  request: TppRequestRecord,
  createdAt: string,
): Promise<void> {
  const row = subscriptionRow(request, createdAt);
  if (row !== null) await trx.insertInto('notification_subscriptions').values(row).execute();
}

export async function findSubscription(
  db: Kysely<Database>,
  resource: ResourceRef,
): Promise<StoredSubscription | undefined> {
  const row = await db
    .selectFrom('notification_subscriptions')
    .selectAll()
    .where('resource_kind', '=', resource.kind)
    .where('resource_id', '=', resource.id)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const content = parseNotificationContent(`status=${row.content}`);
  // Only a create writes the row, from a judged header: anything else is a broken invariant.
  if (content === undefined)
    throw new Error(
      `notification_subscriptions ${resource.kind} ${resource.id}: content ${row.content} is not a set of SCA, PROCESS, LAST`,
    );
  return {
    resource: { kind: row.resource_kind as SubscribedResourceKind, id: row.resource_id },
    tppId: row.tpp_id,
    uri: row.uri,
    content,
    createdAt: row.created_at,
  };
}
