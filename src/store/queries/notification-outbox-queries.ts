import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import { NOTIFICATION_ANSWER_KEPT_CHARS, NOTIFICATION_ERROR_KEPT_CHARS } from '../../domain/limits.js';
import type { Database } from '../database.js';
import type {
  NotificationAttempt,
  NotificationEvent,
  NotificationLogEntry,
  NotificationOutcome,
  NotificationSubjectFacts,
} from '../notification-records.js';
import type { NotificationEventTable } from '../notification-tables.js';

type EventRow = Selectable<NotificationEventTable>;

export async function claimNotifications(
  db: Kysely<Database>,
  instance: string,
  now: Date,
  until: Date,
  limit: number,
): Promise<NotificationEvent[]> {
  const at = now.toISOString();
  // Written once more in the update: on PostgreSQL an instance that waited for another's row lock
  // reads the row again, finds it claimed, and leaves it.
  const free = (eb: ExpressionBuilder<Database, 'notification_events'>) =>
    eb.and([
      eb('ended_at', 'is', null),
      eb('next_attempt_at', '<=', at),
      eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]),
    ]);
  const due = await db
    .selectFrom('notification_events as e')
    .select('e.seq')
    .where('e.ended_at', 'is', null)
    .where('e.next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('e.claimed_until', 'is', null), eb('e.claimed_until', '<', at)]))
    // In order per resource: an event waits while an earlier one of its resource is not ended.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notification_events as p')
            .select(sql`1`.as('one'))
            .whereRef('p.resource_kind', '=', 'e.resource_kind')
            .whereRef('p.resource_id', '=', 'e.resource_id')
            .whereRef('p.seq', '<', 'e.seq')
            .where('p.ended_at', 'is', null),
        ),
      ),
    )
    .orderBy('e.seq')
    .limit(limit)
    .execute();
  if (due.length === 0) return [];
  const claimed = await db
    .updateTable('notification_events')
    .set({ claimed_by: instance, claimed_until: until.toISOString() })
    .where(
      'seq',
      'in',
      due.map((d) => d.seq),
    )
    .where(free)
    .returningAll()
    .execute();
  return claimed.map(eventOf).sort((a, b) => a.seq - b.seq);
}

function eventOf(row: EventRow): NotificationEvent {
  return {
    seq: Number(row.seq),
    eventId: row.event_id,
    tppId: row.tpp_id,
    uri: row.uri,
    resource: { kind: row.resource_kind, id: row.resource_id },
    subject: { kind: row.subject_kind, id: row.subject_id },
    statusKind: row.status_kind as NotificationEvent['statusKind'],
    status: row.status,
    content: row.content as NotificationEvent['content'],
    last: Number(row.last) === 1,
    occurredAt: row.occurred_at,
    createdAt: row.created_at,
    attempts: Number(row.attempts),
  };
}

export async function notificationSubjects(
  db: Kysely<Database>,
  events: readonly NotificationEvent[],
): Promise<Map<string, NotificationSubjectFacts>> {
  const facts = new Map<string, NotificationSubjectFacts>();
  const ids = (kind: string) => [...new Set(events.filter((e) => e.subject.kind === kind).map((e) => e.subject.id))];
  const authorisationIds = ids('authorisation');
  const authorisations =
    authorisationIds.length === 0
      ? []
      : await db
          .selectFrom('authorisations')
          .select(['id', 'kind', 'object_id'])
          .where('id', 'in', authorisationIds)
          .execute();
  for (const a of authorisations)
    facts.set(`authorisation ${a.id}`, { authorisationKind: a.kind, objectId: a.object_id ?? undefined });
  // A payment's link, for its own events and for those of its authorisations and cancellations.
  const paymentIds = [
    ...new Set([
      ...ids('payment'),
      ...authorisations
        .filter((a) => a.kind === 'payment' || a.kind === 'cancellation')
        .flatMap((a) => a.object_id ?? []),
    ]),
  ];
  const payments =
    paymentIds.length === 0
      ? []
      : await db.selectFrom('payments').select(['id', 'service', 'product']).where('id', 'in', paymentIds).execute();
  const byPayment = new Map(payments.map((p) => [p.id, { paymentService: p.service, paymentProduct: p.product }]));
  for (const [key, value] of facts) {
    const payment = value.objectId === undefined ? undefined : byPayment.get(value.objectId);
    if (payment !== undefined) facts.set(key, { ...value, ...payment });
  }
  for (const [id, payment] of byPayment) facts.set(`payment ${id}`, payment);
  return facts;
}

function attemptRow(seq: number, attempt: number, tppId: string, tried: NotificationAttempt) {
  return {
    event_seq: seq,
    attempt,
    tpp_id: tppId,
    started_at: tried.startedAt.toISOString(),
    duration_ms: Math.round(tried.durationMs),
    status: tried.status ?? null,
    error: tried.error?.slice(0, NOTIFICATION_ERROR_KEPT_CHARS) ?? null,
    answer: tried.answer?.slice(0, NOTIFICATION_ANSWER_KEPT_CHARS) ?? null,
  };
}

/**
 * Closes each try in one transaction, with a statement for all the rows (reading the held ones,
 * logging their tries) and one per kind of outcome: a turn's many answers cost one commit and a few
 * statements, not three statements and a commit each. A try whose claim lapsed to another instance is
 * not written.
 */
export async function closeNotifications(
  db: Kysely<Database>,
  instance: string,
  outcomes: readonly NotificationOutcome[],
  at: Date,
): Promise<void> {
  if (outcomes.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const held = new Map(
      (
        await trx
          .selectFrom('notification_events')
          .selectAll()
          .where(
            'seq',
            'in',
            outcomes.map((o) => o.seq),
          )
          .where('claimed_by', '=', instance)
          .where('ended_at', 'is', null)
          .execute()
      ).map((row) => [Number(row.seq), row]),
    );
    const closing = outcomes.filter((o) => held.has(o.seq));
    if (closing.length === 0) return;
    await trx
      .insertInto('notification_attempts')
      .values(
        closing.map((o) =>
          attemptRow(o.seq, Number(held.get(o.seq)!.attempts) + 1, held.get(o.seq)!.tpp_id, o.attempt),
        ),
      )
      .execute();
    for (const [changes, seqs] of groupedChanges(closing, at)) {
      await trx
        .updateTable('notification_events')
        .set({ ...changes, attempts: sql<number>`attempts + 1`, claimed_by: null, claimed_until: null })
        .where('seq', 'in', seqs)
        .execute();
    }
    for (const gone of closing.filter((o) => o.end === 'gone')) await stopResource(trx, held.get(gone.seq)!, at);
  });
}

type OutcomeChanges = Partial<
  Pick<EventRow, 'ended_at' | 'end_reason' | 'next_attempt_at' | 'last_status' | 'last_error'>
>;

/** The outcomes by the columns they set alike, so each group is one update: most answers of a turn are alike. */
function groupedChanges(outcomes: readonly NotificationOutcome[], at: Date): [OutcomeChanges, number[]][] {
  const groups = new Map<string, [OutcomeChanges, number[]]>();
  for (const outcome of outcomes) {
    const changes: OutcomeChanges = {
      ...(outcome.end === undefined
        ? { next_attempt_at: (outcome.nextAttemptAt ?? at).toISOString() }
        : { ended_at: at.toISOString(), end_reason: outcome.end }),
      last_status: outcome.attempt.status ?? null,
      last_error: outcome.attempt.error?.slice(0, NOTIFICATION_ERROR_KEPT_CHARS) ?? null,
    };
    const key = JSON.stringify(changes);
    const group = groups.get(key) ?? [changes, []];
    group[1].push(outcome.seq);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** 410: the TPP wants nothing more of this resource (Stripe's and Berlin Group's reading of Gone). */
async function stopResource(trx: Kysely<Database>, row: EventRow, at: Date): Promise<void> {
  await trx
    .deleteFrom('notification_subscriptions')
    .where('resource_kind', '=', row.resource_kind)
    .where('resource_id', '=', row.resource_id)
    .execute();
  await trx
    .updateTable('notification_events')
    .set({ ended_at: at.toISOString(), end_reason: 'stopped', claimed_by: null, claimed_until: null })
    .where('resource_kind', '=', row.resource_kind)
    .where('resource_id', '=', row.resource_id)
    .where('ended_at', 'is', null)
    .execute();
}

export async function listNotifications(
  db: Kysely<Database>,
  tppId: string,
  limit: number,
): Promise<NotificationLogEntry[]> {
  const rows = await db
    .selectFrom('notification_events')
    .selectAll()
    .where('tpp_id', '=', tppId)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const tries = await db
    .selectFrom('notification_attempts')
    .selectAll()
    .where(
      'event_seq',
      'in',
      rows.map((r) => r.seq),
    )
    .orderBy('event_seq')
    .orderBy('attempt')
    .execute();
  return rows.map((row) => {
    const { attempts: _attempts, ...event } = eventOf(row);
    return {
      ...event,
      nextAttemptAt: row.ended_at === null ? row.next_attempt_at : undefined,
      endedAt: row.ended_at ?? undefined,
      endReason: row.end_reason ?? undefined,
      tries: tries
        .filter((t) => Number(t.event_seq) === Number(row.seq))
        .map((t) => ({
          attempt: Number(t.attempt),
          startedAt: new Date(t.started_at),
          durationMs: Number(t.duration_ms),
          ...(t.status === null ? {} : { status: Number(t.status) }),
          ...(t.error === null ? {} : { error: t.error }),
          ...(t.answer === null ? {} : { answer: t.answer }),
        })),
    };
  });
}

export async function resendNotification(db: Kysely<Database>, tppId: string, eventId: string): Promise<boolean> {
  const result = await db
    .updateTable('notification_events')
    .set({ ended_at: null, end_reason: null, next_attempt_at: '', claimed_by: null, claimed_until: null })
    .where('tpp_id', '=', tppId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countPendingNotifications(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('notification_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ended_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function publishNotificationKey(db: Kysely<Database>, kid: string, jwk: string, at: Date): Promise<void> {
  await db
    .insertInto('notification_keys')
    .values({ kid, jwk, created_at: at.toISOString() })
    .onConflict((oc) => oc.column('kid').doNothing())
    .execute();
}

export async function notificationKeys(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('notification_keys').select('jwk').orderBy('created_at').orderBy('kid').execute();
  return rows.map((r) => r.jwk);
}
