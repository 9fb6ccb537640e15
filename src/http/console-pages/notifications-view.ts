import type { Language } from '../../domain/language.js';
import { toldStatus } from '../../domain/notifications/notification-body.js';
import type { NotificationLogEntry } from '../../store/notification-records.js';
import { osloTime } from './console-time.js';
import { NOTIFICATION_TEXTS, type NotificationTexts } from './notification-texts.js';

/** What the console's notifications page shows (console-page-renderer.ts). */
export interface NotificationsPageData {
  notifications: NotificationLogEntry[];
  limit: number;
}

/** The states an event of the delivery log is in: being sent, or why it no longer is. */
type NotificationState = 'pending' | 'delivered' | 'gone' | 'expired' | 'stopped';

/** The notifications page's view: each event with its state and tries, newest first as the store lists them. */
export function notificationsView(page: NotificationsPageData, language: Language) {
  const t = NOTIFICATION_TEXTS[language];
  return {
    t,
    intro: t.intro(page.limit),
    notifications: page.notifications.map((entry) => ({
      eventId: entry.eventId,
      eventType: entry.content,
      resource: `${typeOf(entry.resource.kind)} ${entry.resource.id}`,
      subject: sameResource(entry) ? undefined : `${typeOf(entry.subject.kind)} ${entry.subject.id}`,
      statusKind: entry.statusKind,
      status: toldStatus(entry.statusKind, entry.status),
      last: entry.last,
      uri: entry.uri,
      occurred: osloTime(new Date(entry.occurredAt)),
      occurredIso: entry.occurredAt,
      ...stateOf(entry, t),
      resend: `/console/notifications/${encodeURIComponent(entry.eventId)}/resend`,
      tries: entry.tries.map((tried) => ({
        label: t.try(tried.attempt),
        at: osloTime(tried.startedAt),
        atIso: tried.startedAt.toISOString(),
        duration: t.duration(tried.durationMs),
        outcome: tried.status === undefined ? t.error : t.status(tried.status),
        ok: tried.status !== undefined && tried.status >= 200 && tried.status < 300,
        error: tried.error,
        answer: tried.answer === undefined || tried.answer === '' ? undefined : tried.answer,
      })),
    })),
  };
}

function stateOf(entry: NotificationLogEntry, t: NotificationTexts): { state: NotificationState; stateText: string } {
  if (entry.endedAt === undefined) {
    // An event to send at once (new, or sent again) has no time of its own: it waits for the relay's next turn.
    const next = entry.nextAttemptAt === undefined ? Number.NaN : Date.parse(entry.nextAttemptAt);
    return {
      state: 'pending',
      stateText: Number.isNaN(next) ? t.states.due : t.states.pending(osloTime(new Date(next))),
    };
  }
  const at = osloTime(new Date(entry.endedAt));
  switch (entry.endReason) {
    case 'delivered':
    case 'gone':
    case 'expired':
    case 'stopped':
      return { state: entry.endReason, stateText: t.states[entry.endReason](at) };
    default:
      return { state: 'stopped', stateText: t.states.stopped(at) };
  }
}

/** The resource's type as the notification's body names it (notified-resources.ts). */
function typeOf(kind: string): string {
  switch (kind) {
    case 'payment':
    case 'consent':
      return kind;
    case 'basket':
      return 'signing-basket';
    default:
      return 'authorisation';
  }
}

function sameResource(entry: NotificationLogEntry): boolean {
  return entry.resource.kind === entry.subject.kind && entry.resource.id === entry.subject.id;
}
