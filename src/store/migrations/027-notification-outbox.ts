import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * The outbox of resource notifications (docs/notifications.md, "Delivery"; docs/decisions/0331):
 * - notification_events: one row per notification to send, in the order `seq` gives, written by a
 *   trigger in the transaction that changes the status it tells of, so that no change is told and
 *   then rolled back, and no committed change goes untold. A row stays until it was delivered, the
 *   TPP's endpoint answered 410, or its 24 hours of retries ended (ended_at, end_reason).
 * - notification_attempts: each try, with the answer's status, its time and the first bytes of its
 *   body, for the sandbox console's delivery log.
 * - notification_keys: the public keys notifications are signed with, each instance's, which the JWKS
 *   publishes: a TPP checks a notification whichever instance sent it.
 * - triggers on payments, authorisations and ais_consents: a status change of a resource that has a
 *   subscription (migration 026) writes its events. On SQLite a row trigger whose WHEN clause looks
 *   the subscription up by its primary key; on PostgreSQL, which allows no subquery in WHEN, a
 *   statement trigger over the statement's transition tables, so a batch run's update of thousands
 *   of payments costs one join, not one function call per row.
 */
export const notificationOutboxMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await db.schema
      .createTable('notification_events')
      .addColumn('seq', sqlite ? 'integer' : 'bigserial', (c) =>
        sqlite ? c.primaryKey().autoIncrement() : c.primaryKey(),
      )
      .addColumn('event_id', 'text', (c) => c.notNull().unique())
      .addColumn('tpp_id', 'text', (c) => c.notNull())
      .addColumn('uri', 'text', (c) => c.notNull())
      .addColumn('resource_kind', 'text', (c) => c.notNull())
      .addColumn('resource_id', 'text', (c) => c.notNull())
      .addColumn('subject_kind', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('status_kind', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('last', 'integer', (c) => c.notNull())
      .addColumn('occurred_at', 'text', (c) => c.notNull())
      // The wall clock's time of the write (occurred_at is the bank's clock, which a sandbox moves):
      // what the 24 hours of retries count from.
      .addColumn('created_at', 'text', (c) =>
        c.notNull().defaultTo(sql.raw(sqlite ? WALL_CLOCK_SQLITE : WALL_CLOCK_POSTGRES)),
      )
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('claimed_by', 'text')
      .addColumn('claimed_until', 'text')
      .addColumn('ended_at', 'text')
      .addColumn('end_reason', 'text')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .execute();
    // The sweep reads only the rows still to send; a resource's earlier rows are found by its own index.
    await db.schema
      .createIndex('notification_events_due')
      .on('notification_events')
      .columns(['next_attempt_at', 'seq'])
      .where(sql<boolean>`ended_at is null`)
      .execute();
    await db.schema
      .createIndex('notification_events_resource')
      .on('notification_events')
      .columns(['resource_kind', 'resource_id', 'seq'])
      .execute();
    // A bank's removal, and the console's log of one TPP's notifications, select by TPP.
    await db.schema
      .createIndex('notification_events_tpp')
      .on('notification_events')
      .columns(['tpp_id', 'seq'])
      .execute();
    await createAttemptsAndKeys(db);
    for (const source of SOURCES) {
      for (const statement of sqlite ? sqliteTrigger(source) : postgresTrigger(source))
        await sql.raw(statement).execute(db);
    }
    for (const statement of executionTrigger(sqlite)) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    for (const source of [...SOURCES, { table: 'periodic_executions', trigger: EXECUTION_TRIGGER }]) {
      await sql.raw(`drop trigger if exists ${source.trigger}${sqlite ? '' : ` on ${source.table}`}`).execute(db);
      if (!sqlite) await sql.raw(`drop function if exists ${source.trigger}()`).execute(db);
    }
    await db.schema.dropTable('notification_keys').execute();
    await db.schema.dropTable('notification_attempts').execute();
    await db.schema.dropTable('notification_events').execute();
  },
};

/** The tries' log and the published keys. */
async function createAttemptsAndKeys(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notification_attempts')
    .addColumn('event_seq', 'bigint', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('tpp_id', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('error', 'text')
    .addColumn('answer', 'text')
    .addPrimaryKeyConstraint('notification_attempts_pk', ['event_seq', 'attempt'])
    .execute();
  await db.schema
    .createTable('notification_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notification_attempts_tpp').on('notification_attempts').column('tpp_id').execute();
}

/**
 * A table whose rows' status changes are told: its kind (what notification_events.subject_kind
 * says), the status it tells, which of its statuses are final (LAST), and, for an authorisation,
 * the kind of the resource it authorises (its payment, basket or consent, by object_id). Written out
 * here, not imported: a migration stays as it ran.
 */
interface Source {
  table: string;
  trigger: string;
  kind: string;
  statusKind: string;
  final: readonly string[];
  /** SCA (an authorisation's scaStatus) or PROCESS (a payment's or consent's status). */
  content: 'SCA' | 'PROCESS';
  /**
   * Another resource whose subscription hears of this row's changes, which it asked for with
   * `content`: an authorisation's payment, basket or consent (SCA), a payment's signing basket
   * (PROCESS). `where` is the SQL that finds its subscription `s` from the row.
   */
  also?: { where: (row: string) => string; content: 'SCA' | 'PROCESS' };
}

const SOURCES: readonly Source[] = [
  {
    table: 'payments',
    trigger: 'psd2_notify_payment_status',
    kind: 'payment',
    statusKind: 'transactionStatus',
    final: ['ACSC', 'ACCC', 'RJCT', 'CANC', 'PART'],
    content: 'PROCESS',
    // A basket's own status is its payments': each payment's change is told to the basket's subscription.
    also: {
      where: (row) =>
        `s.resource_kind = 'basket' and s.resource_id = (select bp.basket_id from basket_payments bp where bp.payment_id = ${row}.id)`,
      content: 'PROCESS',
    },
  },
  {
    table: 'ais_consents',
    trigger: 'psd2_notify_consent_status',
    kind: 'consent',
    statusKind: 'consentStatus',
    final: ['rejected', 'replaced', 'revokedByPsu', 'terminatedByTpp', 'expired'],
    content: 'PROCESS',
  },
  {
    table: 'authorisations',
    trigger: 'psd2_notify_sca_status',
    kind: 'authorisation',
    statusKind: 'scaStatus',
    final: ['finalised', 'failed', 'expired', 'exempted'],
    content: 'SCA',
    // A cancellation authorises the cancel of a payment: its SCA is told to the payment's subscription.
    also: {
      where: (row) =>
        `s.resource_kind = case ${row}.kind when 'cancellation' then 'payment' when 'session' then '' else ${row}.kind end and s.resource_id = ${row}.object_id`,
      content: 'SCA',
    },
  },
];

/** Now, in the form of JavaScript's toISOString, which the sweep compares with. */
const WALL_CLOCK_SQLITE = "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))";
const WALL_CLOCK_POSTGRES = `to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const EVENT_COLUMNS =
  'event_id, tpp_id, uri, resource_kind, resource_id, subject_kind, subject_id, status_kind, status, content, last, occurred_at';

type Names = (content: string, constant: string) => string;
/** Whether a stored `SCA,PROCESS,LAST` names `constant`, in each engine's functions. */
const namesSqlite: Names = (content, constant) => `instr(',' || ${content} || ',', ',${constant},') > 0`;
const namesPostgres: Names = (content, constant) => `position(',${constant},' in ',' || ${content} || ',') > 0`;

/** A random version 4 UUID in SQLite's own functions. */
const SQLITE_UUID = `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
    || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;

/**
 * The events of one changed row `r` for subscriptions `s`, one select per way a subscription is
 * reached: its own resource's (PROCESS, or for an authorisation SCA, for every change; LAST for the
 * final one), and the other resource's that hears of it (Source.also), which asked for that content.
 */
function eventSelects(source: Source, r: string, uuid: string, names: Names): { own: string; also?: string } {
  const last = `${r}.status in (${source.final.map((f) => `'${f}'`).join(', ')})`;
  const every = source.content;
  const columns = (
    content: string,
  ) => `${uuid}, s.tpp_id, s.uri, s.resource_kind, s.resource_id, '${source.kind}', ${r}.id,
    '${source.statusKind}', ${r}.status, ${content}, case when ${last} then 1 else 0 end, ${r}.updated_at`;
  const own = `select ${columns(`case when ${names('s.content', every)} then '${every}' else 'LAST' end`)}
    from notification_subscriptions s
    where ${ownWhere(source, r)}
      and (${names('s.content', every)} or (${last} and ${names('s.content', 'LAST')}))`;
  if (source.also === undefined) return { own };
  const also = `select ${columns(`'${source.also.content}'`)}
    from notification_subscriptions s
    where ${source.also.where(r)} and ${names('s.content', source.also.content)}`;
  return { own, also };
}

function ownWhere(source: Source, r: string): string {
  return `s.resource_kind = '${source.kind}' and s.resource_id = ${r}.id`;
}

function sqliteTrigger(source: Source): string[] {
  const { own, also } = eventSelects(source, 'NEW', SQLITE_UUID, namesSqlite);
  // One probe of the subscriptions' key per way in, so an unsubscribed row costs an index look-up or two.
  const reached = [ownWhere(source, 'NEW'), ...(source.also === undefined ? [] : [source.also.where('NEW')])].map(
    (where) => `exists (select 1 from notification_subscriptions s where ${where})`,
  );
  const inserts = [own, also].flatMap((select) =>
    select === undefined ? [] : [`  insert into notification_events (${EVENT_COLUMNS})\n  ${select};`],
  );
  return [
    `create trigger ${source.trigger} after update of status on ${source.table}
when NEW.status <> OLD.status
  and (${reached.join(' or ')})
begin
${inserts.join('\n')}
end`,
  ];
}

function postgresTrigger(source: Source): string[] {
  const { own, also } = eventSelects(source, 'n', 'gen_random_uuid()::text', namesPostgres);
  // The rows of the statement whose status changed, in the order of their ids (seq follows it).
  const changed = `from (select n.* from new_rows n join old_rows o on o.id = n.id
      where o.status is distinct from n.status) n
    join notification_subscriptions s on`;
  const joined = (select: string) =>
    `${select.replace(/from notification_subscriptions s\s+where/, changed)}\n    order by n.id`;
  const inserts = [own, also].flatMap((select) =>
    select === undefined ? [] : [`  insert into notification_events (${EVENT_COLUMNS})\n  ${joined(select)};`],
  );
  return [
    `create or replace function ${source.trigger}() returns trigger language plpgsql as $fn$
begin
${inserts.join('\n')}
  return null;
end
$fn$`,
    `create trigger ${source.trigger} after update on ${source.table}
  referencing old table as old_rows new table as new_rows
  for each statement execute function ${source.trigger}()`,
  ];
}

const EXECUTION_TRIGGER = 'psd2_notify_execution';

/**
 * A standing order's execution (a row of periodic_executions, written by the batch run that books
 * it) is told to its payment's subscription of PROCESS, with the execution's own status: the order's
 * transactionStatus stays as it is while it runs.
 */
function executionTrigger(sqlite: boolean): string[] {
  const names = sqlite ? namesSqlite : namesPostgres;
  const select = (r: string, uuid: string) => `select ${uuid}, s.tpp_id, s.uri, 'payment', ${r}.payment_id, 'execution',
      ${r}.payment_id || '/' || ${r}.seq, 'transactionStatus', ${r}.status, 'PROCESS', 0, ${r}.created_at
    from notification_subscriptions s
    where s.resource_kind = 'payment' and s.resource_id = ${r}.payment_id and ${names('s.content', 'PROCESS')}`;
  if (sqlite)
    return [
      `create trigger ${EXECUTION_TRIGGER} after insert on periodic_executions
when exists (select 1 from notification_subscriptions s where s.resource_kind = 'payment' and s.resource_id = NEW.payment_id)
begin
  insert into notification_events (${EVENT_COLUMNS})
  ${select('NEW', SQLITE_UUID)};
end`,
    ];
  return [
    `create or replace function ${EXECUTION_TRIGGER}() returns trigger language plpgsql as $fn$
begin
  insert into notification_events (${EVENT_COLUMNS})
  ${select('n', 'gen_random_uuid()::text').replace('from notification_subscriptions s\n    where', 'from new_rows n join notification_subscriptions s on')}
  order by n.payment_id, n.seq;
  return null;
end
$fn$`,
    `create trigger ${EXECUTION_TRIGGER} after insert on periodic_executions
  referencing new table as new_rows
  for each statement execute function ${EXECUTION_TRIGGER}()`,
  ];
}
