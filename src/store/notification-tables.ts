import type { ColumnType, Generated } from 'kysely';

/** Table types of the notification outbox (migration 027, docs/notifications.md); database.ts has the rest. */

/** A notification to send: written by a trigger in the transaction that changed the status it tells of. */
export interface NotificationEventTable {
  /** The order events are sent in, per resource; SQLite's rowid, PostgreSQL's bigserial. */
  seq: Generated<number | bigint>;
  event_id: string;
  tpp_id: string;
  uri: string;
  /** The resource the subscription was given on (a payment, basket, consent or authorisation). */
  resource_kind: string;
  resource_id: string;
  /** The resource whose status changed: the same, or an authorisation of it (SCA). */
  subject_kind: string;
  subject_id: string;
  status_kind: string;
  /** As stored in the subject's row; the body says it in Berlin Group's words (notification-body.ts). */
  status: string;
  content: string;
  last: ColumnType<number, number, number>;
  occurred_at: string;
  /** The wall clock's time of the write, set by the database: the retries' 24 hours count from it. */
  created_at: ColumnType<string, string | undefined, string>;
  attempts: ColumnType<number | bigint, number | undefined, number>;
  /** '' (due at once) until the first failure: the trigger cannot know the wall clock the sweep compares with. */
  next_attempt_at: ColumnType<string, string | undefined, string>;
  claimed_by: string | null;
  claimed_until: string | null;
  ended_at: string | null;
  /** delivered, gone (the endpoint answered 410), expired (24 hours of retries), stopped (an earlier 410 of its resource). */
  end_reason: string | null;
  last_status: number | null;
  last_error: string | null;
}

/** One try at sending an event, for the console's delivery log. */
export interface NotificationAttemptTable {
  event_seq: number | bigint;
  attempt: number;
  tpp_id: string;
  started_at: string;
  duration_ms: number;
  /** The answer's HTTP status; null when none came (refused, timed out, address not allowed). */
  status: number | null;
  error: string | null;
  /** The first bytes of the answer's body (NOTIFICATION_ANSWER_KEPT_BYTES). */
  answer: string | null;
}

/** A public key notifications are signed with, as a JWK (RFC 7517), by its RFC 7638 thumbprint. */
export interface NotificationKeyTable {
  kid: string;
  jwk: string;
  created_at: string;
}
